// llama.cpp's tokenizer test vectors: every ggml-vocab-*.gguf in
// ../shared/testdata/vocab/ with its .inp (cases separated by
// "\n__ggml_vocab_test__\n") and .out (the ids of one case per line, made with
// add_special = false, parse_special = false). All must match.

#include "test_support.h"

#include "gguf/gguf.h"
#include "tokenizer/tokenizer.h"

#include <QDir>
#include <QFile>
#include <QTest>

using namespace hearth;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

std::vector<std::string> splitCases(const QByteArray& data)
{
    static const std::string kSeparator = "\n__ggml_vocab_test__\n";
    const std::string all = data.toStdString();
    std::vector<std::string> cases;
    size_t start = 0;
    for (size_t pos = all.find(kSeparator); pos != std::string::npos; pos = all.find(kSeparator, start)) {
        cases.push_back(all.substr(start, pos - start));
        start = pos + kSeparator.size();
    }
    if (start < all.size())
        cases.push_back(all.substr(start));
    return cases;
}

std::vector<TokenId> parseIds(const QByteArray& line)
{
    std::vector<TokenId> ids;
    for (const QByteArray& word : line.simplified().split(' ')) {
        if (!word.isEmpty())
            ids.push_back(word.toInt());
    }
    return ids;
}

} // namespace

class TestTokenizerVectors : public QObject {
    Q_OBJECT

private slots:
    void vocabulary_data()
    {
        QTest::addColumn<QString>("path");
        const std::string dir = testsupport::testdataDir();
        if (dir.empty())
            return;
        const QDir vocab(QString::fromStdString(dir) + QStringLiteral("/vocab"));
        for (const QString& name : vocab.entryList({QStringLiteral("ggml-vocab-*.gguf")}, QDir::Files, QDir::Name)) {
            if (QFile::exists(vocab.filePath(name + QStringLiteral(".inp"))))
                QTest::newRow(qPrintable(name)) << vocab.filePath(name);
        }
    }

    void vocabulary()
    {
        HEARTH_REQUIRE_TESTDATA(dir);
        QFETCH(QString, path);
        const gguf::File file(path.toStdString());
        const auto tok = Tokenizer::fromGguf(file);
        const std::vector<std::string> cases = splitCases(readAll(path + QStringLiteral(".inp")));
        const QList<QByteArray> lines = readAll(path + QStringLiteral(".out")).split('\n');
        QVERIFY(!cases.empty());
        QVERIFY(lines.size() >= static_cast<qsizetype>(cases.size()));
        int failures = 0;
        for (size_t i = 0; i < cases.size(); ++i) {
            const std::vector<TokenId> want = parseIds(lines[static_cast<qsizetype>(i)]);
            const std::vector<TokenId> got = tok->encode(cases[i], /*addSpecial=*/false, /*parseSpecial=*/false);
            if (got != want && ++failures <= 5)
                qWarning("case %zu differs: \"%s\"", i, cases[i].c_str());
        }
        QCOMPARE(failures, 0);
    }

    void testdataPresentOrSkipped()
    {
        HEARTH_REQUIRE_TESTDATA(dir);
        QVERIFY(!QDir(QString::fromStdString(dir) + QStringLiteral("/vocab"))
                     .entryList({QStringLiteral("*.gguf.inp")}, QDir::Files)
                     .isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestTokenizerVectors)
#include "test_tokenizer_vectors.moc"

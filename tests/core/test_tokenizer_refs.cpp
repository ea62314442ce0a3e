// Token ids and detokenized text against llama.cpp on the generated corpus
// (2,400 cases: prose in many scripts, code, emoji, numbers, odd white space,
// invalid UTF-8, special-token look-alikes), for the real models, the shared
// vocabularies, every pre-tokenizer, and small synthetic vocabularies.
// Golden files: tests/data/tokenizer/, made by scripts/refs/make_tokenizer_refs.py.

#include "test_support.h"
#include "tokenizer_refs.h"

#include "gguf/gguf.h"
#include "tokenizer/tokenizer.h"

#include <QDir>
#include <QTest>

#include <filesystem>

using namespace hearth;

namespace {

std::string printable(const std::string& s)
{
    std::string out;
    for (const unsigned char c : s) {
        if (c == '\n')
            out += "\\n";
        else if (c < 0x20 || c == 0x7F)
            out += "\\x" + QByteArray(1, static_cast<char>(c)).toHex().toStdString();
        else
            out += static_cast<char>(c);
    }
    return out.size() > 160 ? out.substr(0, 160) + "..." : out;
}

std::string join(const std::vector<int32_t>& ids)
{
    std::string s;
    for (const int32_t id : ids)
        s += (s.empty() ? "" : " ") + std::to_string(id);
    return s;
}

const std::vector<std::string>& corpus()
{
    static const std::vector<std::string> cases = tokrefs::readCorpus(tokrefs::dataPath("corpus.bin"));
    return cases;
}

// Compares variant `v` of every case (corpus[i * stride]) and returns the
// number of mismatches; the first few are printed.
int compare(const Tokenizer& tok, const tokrefs::IdsFile& expected, size_t v, const std::string& label)
{
    const std::vector<std::string>& texts = corpus();
    const tokrefs::Variant& variant = expected.variants[v];
    int failures = 0;
    for (size_t i = 0; i < expected.cases.size(); ++i) {
        const std::string& text = texts.at(i * expected.stride);
        const tokrefs::Expected& want = expected.cases[i][v];
        const std::vector<TokenId> got = tok.encode(text, variant.addSpecial, variant.parseSpecial);
        const std::string decoded = tok.decode(want.ids, variant.parseSpecial);
        const std::string& wantText = want.detokenized ? *want.detokenized : text;
        const bool idsOk = got == want.ids;
        if (idsOk && decoded == wantText)
            continue;
        if (++failures > 5)
            continue;
        qWarning("%s case %zu (add_special=%d parse_special=%d) \"%s\"", label.c_str(), i * expected.stride,
                 variant.addSpecial, variant.parseSpecial, printable(text).c_str());
        if (!idsOk)
            qWarning("  ids: want %s\n        got  %s", join(want.ids).c_str(), join(got).c_str());
        else
            qWarning("  detokenized: want \"%s\"\n                got  \"%s\"", printable(wantText).c_str(),
                     printable(decoded).c_str());
    }
    return failures;
}

// Checks every variant of a golden file against the vocabulary in `model`.
void checkFile(const std::string& model, const std::string& idsName)
{
    const gguf::File file(model);
    const tokrefs::IdsFile expected = tokrefs::readIds(tokrefs::dataPath(idsName));
    QCOMPARE(expected.cases.size(), (corpus().size() + expected.stride - 1) / expected.stride);
    int failures = 0;
    for (size_t v = 0; v < expected.variants.size(); ++v) {
        Tokenizer::Options options;
        options.preTokenizer = expected.variants[v].name;
        const auto tok = Tokenizer::fromGguf(file, options);
        failures +=
            compare(*tok, expected, v, idsName + (options.preTokenizer.empty() ? "" : " " + options.preTokenizer));
    }
    QCOMPARE(failures, 0);
}

QStringList filesIn(const QString& folder, const QString& pattern)
{
    return QDir(QString::fromStdString(tokrefs::dataPath(folder.toStdString())))
        .entryList({pattern}, QDir::Files, QDir::Name);
}

} // namespace

class TestTokenizerRefs : public QObject {
    Q_OBJECT

private slots:
    void realModels_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("ids");
        QTest::newRow("smollm2") << QString::fromStdString(testsupport::smolLm2Path()) << "smollm2.ids";
        QTest::newRow("gemma3") << QString::fromStdString(testsupport::gemma3Path()) << "gemma3.ids";
    }
    void realModels()
    {
        QFETCH(QString, model);
        QFETCH(QString, ids);
        if (model.isEmpty())
            QSKIP(testsupport::kModelsMissing);
        checkFile(model.toStdString(), ids.toStdString());
    }

    void sharedVocabularies_data()
    {
        QTest::addColumn<QString>("name");
        for (const QString& f : filesIn(QStringLiteral("shared"), QStringLiteral("*.ids")))
            QTest::newRow(qPrintable(f)) << f.chopped(4);
    }
    void sharedVocabularies()
    {
        QFETCH(QString, name);
        HEARTH_REQUIRE_TESTDATA(dir);
        checkFile(dir + "/vocab/ggml-vocab-" + name.toStdString() + ".gguf", "shared/" + name.toStdString() + ".ids");
    }

    void goldenFilesPresent()
    {
        QVERIFY(corpus().size() >= 2000);
        QVERIFY(tokrefs::readIds(tokrefs::dataPath("pretokenizers.ids")).variants.size() >= 40);
        QVERIFY(filesIn(QStringLiteral("synthetic"), QStringLiteral("*.gguf")).size() >= 4);
    }

    // Every pre-tokenizer on the GPT-2 vocabulary, against llama.cpp with the
    // same vocabulary relabelled.
    void preTokenizers()
    {
        HEARTH_REQUIRE_TESTDATA(dir);
        checkFile(dir + "/vocab/ggml-vocab-gpt-2.gguf", "pretokenizers.ids");
    }

    // Vocabularies made by the script (Phi-3 rstrip, lstrip <mask>,
    // user-defined tokens, unigram, SPM-style BPE): always available.
    void syntheticVocabularies_data()
    {
        QTest::addColumn<QString>("name");
        for (const QString& f : filesIn(QStringLiteral("synthetic"), QStringLiteral("*.gguf")))
            QTest::newRow(qPrintable(f)) << f.chopped(5);
    }
    void syntheticVocabularies()
    {
        QFETCH(QString, name);
        checkFile(tokrefs::dataPath("synthetic/" + name.toStdString() + ".gguf"),
                  "synthetic/" + name.toStdString() + ".ids");
    }
};

QTEST_GUILESS_MAIN(TestTokenizerRefs)
#include "test_tokenizer_refs.moc"

// `hearth tokenize` and `hearth detokenize`: the output shapes documented in
// docs/cli.md, stdin read byte for byte, and errors.

#include "test_support.h"

#include "gguf/gguf.h"
#include "tokenizer/tokenizer.h"

#include <QProcess>
#include <QTest>

using namespace hearth;

namespace {

struct Run {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Run runHearth(const QStringList& args, const QByteArray& input)
{
    QProcess p;
    p.start(QStringLiteral(HEARTH_CLI), args);
    p.write(input);
    p.closeWriteChannel();
    p.waitForFinished(60000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

QString vocab()
{
    return QString::fromStdString(testsupport::sourceDir() + "/tests/data/tokenizer/synthetic/spm-phi3.gguf");
}

QByteArray idsLine(const std::vector<TokenId>& ids)
{
    QByteArray line;
    for (const TokenId id : ids)
        line += (line.isEmpty() ? "" : " ") + QByteArray::number(id);
    return line + '\n';
}

} // namespace

class TestCliTokenize : public QObject {
    Q_OBJECT

private slots:
    void idsOnlyMatchesTheLibrary()
    {
        const auto tok = Tokenizer::fromGguf(gguf::File(vocab().toStdString()));
        const QByteArray text = "Hello <|user|> world\n\n";
        const std::string s = text.toStdString();
        QCOMPARE(runHearth({"tokenize", "--model", vocab(), "--ids-only"}, text).out,
                 idsLine(tok->encode(s, true, false)));
        QCOMPARE(runHearth({"tokenize", "--model", vocab(), "--ids-only", "--no-add-special"}, text).out,
                 idsLine(tok->encode(s, false, false)));
        QCOMPARE(runHearth({"tokenize", "--model", vocab(), "--ids-only", "--parse-special"}, text).out,
                 idsLine(tok->encode(s, true, true)));
        // The trailing newline is part of the text.
        QVERIFY(runHearth({"tokenize", "--model", vocab(), "--ids-only"}, "a\n").out !=
                runHearth({"tokenize", "--model", vocab(), "--ids-only"}, "a").out);
        QCOMPARE(runHearth({"tokenize", "--model", vocab(), "--ids-only", "--no-add-special"}, "").out,
                 QByteArray("\n"));
    }

    void piecesOnePerLine()
    {
        const Run r = runHearth({"tokenize", "--model", vocab(), "--parse-special"}, "hi\n<|end|>");
        QCOMPARE(r.code, 0);
        const QList<QByteArray> lines = r.out.split('\n');
        QCOMPARE(lines.first(), QByteArray("1 '<s>'"));
        QVERIFY(r.out.contains(" '<|end|>'\n"));
        QVERIFY(r.out.contains("'\\n'")); // control characters escaped, one token per line
    }

    void detokenizeRoundTrip()
    {
        const QByteArray text = "The \xE4\xBD\xA0\xE5\xA5\xBD caf\xC3\xA9  \ttabs\nand lines\n";
        const Run ids = runHearth({"tokenize", "--model", vocab(), "--ids-only"}, text);
        QCOMPARE(ids.code, 0);
        const Run back = runHearth({"detokenize", "--model", vocab()}, ids.out);
        QCOMPARE(back.code, 0);
        QCOMPARE(back.out, text);
        QCOMPARE(runHearth({"detokenize", "--model", vocab(), "--render-special"}, "[1, 259]").out,
                 QByteArray("<s><|user|>"));
    }

    void errors()
    {
        QCOMPARE(runHearth({"tokenize"}, "x").code, 2);
        const Run missing = runHearth({"tokenize", "--model", "/nonexistent.gguf"}, "x");
        QCOMPARE(missing.code, 1);
        QVERIFY(!missing.err.isEmpty());
        const Run bad = runHearth({"detokenize", "--model", vocab()}, "1 2 999999");
        QCOMPARE(bad.code, 1);
        QVERIFY(bad.err.contains("999999"));
        QCOMPARE(runHearth({"detokenize", "--model", vocab()}, "1 x").code, 1);
    }
};

QTEST_GUILESS_MAIN(TestCliTokenize)
#include "test_cli_tokenize.moc"

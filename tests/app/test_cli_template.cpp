// `hearth template`: the rendered prompt exactly on stdout, errors on stderr
// with exit code 1. Outputs are checked against the jinja2 golden files.

#include "test_support.h"

#include "chat/value.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Result {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Result runHearth(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(HEARTH_CLI), QStringList{QStringLiteral("template")} + args);
    p.waitForFinished(60000);
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(f.readAll()).object();
}

QString dataDir()
{
    return QString::fromStdString(testsupport::sourceDir()) + QStringLiteral("/tests/data/chat");
}

// conversations.json as chat::Value: unlike QJsonObject it keeps key order,
// which tojson output depends on.
hearth::chat::Value conversations()
{
    QFile f(dataDir() + QStringLiteral("/conversations.json"));
    f.open(QIODevice::ReadOnly);
    return hearth::chat::Value::fromJson(f.readAll().toStdString());
}

QByteArray messagesOf(const QString& caseName)
{
    const hearth::chat::Value cases = conversations().get("cases");
    for (const hearth::chat::Value& c : cases.items())
        if (c.get("name").asString() == caseName.toStdString())
            return QByteArray::fromStdString(c.get("messages").toJson());
    return {};
}

// The jinja2 output of `templateName` for conversation `caseName`.
QByteArray expected(const QString& templateName, const QString& caseName)
{
    const QJsonObject doc = readJson(dataDir() + QStringLiteral("/expected/") + templateName + QStringLiteral(".json"));
    for (const QJsonValue r : doc[QStringLiteral("results")].toArray())
        if (r[QStringLiteral("case")].toString() == caseName)
            return r[QStringLiteral("output")].toString().toUtf8();
    return {};
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    QFile f(dir.filePath(name));
    f.open(QIODevice::WriteOnly);
    f.write(bytes);
    return f.fileName();
}

} // namespace

class TestCliTemplate : public QObject {
    Q_OBJECT

private slots:
    void rendersExactlyWithToolsAndVars()
    {
        QTemporaryDir dir;
        const QString messages = writeFile(dir, QStringLiteral("m.json"), messagesOf(QStringLiteral("tool_calls")));
        const QString tools =
            writeFile(dir, QStringLiteral("t.json"),
                      QByteArray::fromStdString(conversations().get("tools").get("weather").toJson()));
        const QString templ =
            QString::fromStdString(testsupport::sourceDir()) + QStringLiteral("/core/chat/templates/llama3.jinja");
        const Result r =
            runHearth({QStringLiteral("--template"), templ, QStringLiteral("--messages"), messages,
                       QStringLiteral("--tools"), tools, QStringLiteral("--add-generation-prompt"),
                       QStringLiteral("--bos"), QStringLiteral("<s>"), QStringLiteral("--eos"), QStringLiteral("</s>"),
                       QStringLiteral("--now"), QStringLiteral("2025-07-15 10:30:00")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.err, QByteArray());
        QCOMPARE(r.out, expected(QStringLiteral("builtin-llama3"), QStringLiteral("tool_calls")));

        const QString vars = writeFile(dir, QStringLiteral("v.jinja"), "{{ n + 1 }} {{ who }} {{ flags|join(',') }}");
        const Result v =
            runHearth({QStringLiteral("--template"), vars, QStringLiteral("--messages"), messages,
                       QStringLiteral("--var"), QStringLiteral("n=41"), QStringLiteral("--var"),
                       QStringLiteral("who=\"you\""), QStringLiteral("--var"), QStringLiteral("flags=[true,null]")});
        QCOMPARE(v.code, 0);
        QCOMPARE(v.out, QByteArray("42 you True,None"));
    }

    void modelTemplateAndTokens()
    {
        HEARTH_REQUIRE_MODEL(path, smolLm2Path);
        QTemporaryDir dir;
        const QString messages = writeFile(dir, QStringLiteral("m.json"), messagesOf(QStringLiteral("multi_turn")));
        const Result r = runHearth({QStringLiteral("--model"), QString::fromStdString(path),
                                    QStringLiteral("--messages"), messages, QStringLiteral("--add-generation-prompt")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, expected(QStringLiteral("model-SmolLM2-135M-Instruct"), QStringLiteral("multi_turn")));
        // --model and --template are exclusive.
        const QString templ = writeFile(dir, QStringLiteral("t.jinja"), "x");
        const Result both = runHearth({QStringLiteral("--model"), QString::fromStdString(path),
                                       QStringLiteral("--template"), templ, QStringLiteral("--messages"), messages});
        QCOMPARE(both.code, 1);
        QVERIFY(both.out.isEmpty());
    }

    void modelWithoutTemplateWarnsOnStderr()
    {
        HEARTH_REQUIRE_MODEL(path, gemma3Path);
        QTemporaryDir dir;
        const QString messages = writeFile(dir, QStringLiteral("m.json"), R"([{"role":"user","content":"Hi"}])");
        const Result r = runHearth({QStringLiteral("--model"), QString::fromStdString(path),
                                    QStringLiteral("--messages"), messages, QStringLiteral("--add-generation-prompt")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, QByteArray("<bos><start_of_turn>user\nHi<end_of_turn>\n<start_of_turn>model\n"));
        QVERIFY(r.err.contains("no chat template"));
    }

    void errorsGoToStderrWithExitCode1_data()
    {
        QTest::addColumn<QByteArray>("templ");
        QTest::addColumn<QByteArray>("messages");
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("syntax") << QByteArray("{% if %}") << QByteArray("[]") << QStringList()
                                << QByteArray("line 1, column");
        QTest::newRow("raise_exception") << QByteArray("{{ raise_exception('nope') }}") << QByteArray("[]")
                                         << QStringList() << QByteArray("nope");
        QTest::newRow("bad messages") << QByteArray("x") << QByteArray("[1,") << QStringList()
                                      << QByteArray("--messages");
        QTest::newRow("bad var") << QByteArray("x") << QByteArray("[]")
                                 << QStringList{QStringLiteral("--var"), QStringLiteral("a=not json")}
                                 << QByteArray("--var a");
        QTest::newRow("no messages") << QByteArray("x") << QByteArray() << QStringList() << QByteArray("--messages");
    }

    void errorsGoToStderrWithExitCode1()
    {
        QFETCH(QByteArray, templ);
        QFETCH(QByteArray, messages);
        QFETCH(QStringList, extra);
        QFETCH(QByteArray, message);
        QTemporaryDir dir;
        QStringList args{QStringLiteral("--template"), writeFile(dir, QStringLiteral("t.jinja"), templ)};
        if (!messages.isEmpty())
            args << QStringLiteral("--messages") << writeFile(dir, QStringLiteral("m.json"), messages);
        const Result r = runHearth(args + extra);
        QCOMPARE(r.code, 1);
        QVERIFY(r.out.isEmpty());
        QVERIFY2(r.err.contains(message), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliTemplate)
#include "test_cli_template.moc"

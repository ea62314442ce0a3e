// `hearth info --json --tensors` on both real models equals what the gguf
// package's GGUFReader says (tests/data/info, written by
// scripts/refs/make_info_expectations.py); a broken file exits 1 with a
// message. Runs the built CLI, so the whole path is covered.

#include "test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

Run runHearth(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(HEARTH_CLI_PATH), args);
    Run r;
    if (!p.waitForFinished(60000))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace

class TestCliInfo : public QObject {
    Q_OBJECT

private slots:
    void matchesGgufReader_data()
    {
        QTest::addColumn<QString>("expectation");
        QTest::newRow("smollm2") << QStringLiteral("smollm2");
        QTest::newRow("gemma3") << QStringLiteral("gemma3");
    }

    void matchesGgufReader()
    {
        QFETCH(QString, expectation);
        const QJsonObject expected =
            readJson(QString::fromStdString(testsupport::sourceDir()) + QStringLiteral("/tests/data/info/") +
                     expectation + QStringLiteral(".json"));
        QVERIFY(!expected.isEmpty());
        const std::string model = testsupport::findModel(expected[QStringLiteral("model")].toString().toStdString());
        if (model.empty())
            QSKIP(testsupport::kModelsMissing);
        const Run r = runHearth({QStringLiteral("info"), QStringLiteral("--json"), QStringLiteral("--tensors"),
                                 QString::fromStdString(model)});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject got = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(got[QStringLiteral("file")].toString(), QString::fromStdString(model));
        for (auto it = expected.begin(); it != expected.end(); ++it) {
            if (it.key() == QLatin1String("model") || it.key() == QLatin1String("generator"))
                continue;
            QVERIFY2(got.contains(it.key()), qPrintable(it.key()));
            if (got[it.key()] != it.value()) {
                const QByteArray a = QJsonDocument(QJsonObject{{it.key(), got[it.key()]}}).toJson().left(600);
                const QByteArray b = QJsonDocument(QJsonObject{{it.key(), it.value()}}).toJson().left(600);
                QFAIL(qPrintable(QStringLiteral("%1 differs:\n hearth: %2\n gguf:   %3")
                                     .arg(it.key(), QString::fromUtf8(a), QString::fromUtf8(b))));
            }
        }
    }

    void textOutputNamesTheModel()
    {
        const std::string model = testsupport::smolLm2Path();
        if (model.empty())
            QSKIP(testsupport::kModelsMissing);
        const Run r = runHearth({QStringLiteral("info"), QStringLiteral("--tensors"), QString::fromStdString(model)});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("architecture:          llama"));
        QVERIFY(r.out.contains("token_embd.weight"));
    }

    void brokenFileExitsWithMessage()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken.gguf"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("GGUF\x03\0\0\0", 8);
        f.close();
        const Run r = runHearth({QStringLiteral("info"), path});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("file ends inside the tensor count"), r.err.constData());
        QVERIFY(r.err.contains(path.toUtf8()));
    }
};

QTEST_GUILESS_MAIN(TestCliInfo)
#include "test_cli_info.moc"

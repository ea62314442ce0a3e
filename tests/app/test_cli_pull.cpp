// `hearth pull` and `hearth search` against the fake hub: JSON lines, the
// recommended file, a clear refusal, and a pull killed mid-download that
// the next run resumes from its .part file.

#include "FakeHub.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestCliPull : public QObject {
    Q_OBJECT

private:
    FakeHub m_hub;
    QTemporaryDir m_models;

    QProcessEnvironment env() const
    {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("HF_ENDPOINT"), m_hub.endpoint().toString());
        e.remove(QStringLiteral("HF_TOKEN"));
        return e;
    }

    struct Result {
        int code = -1;
        QList<QJsonObject> lines;
        QString err;
    };

    Result hearth(const QStringList& args)
    {
        QProcess p;
        p.setProcessEnvironment(env());
        p.start(QStringLiteral(HEARTH_CLI), args);
        Result r;
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            return r;
        }
        r.code = p.exitCode();
        for (const QByteArray& line : p.readAllStandardOutput().split('\n'))
            if (!line.trimmed().isEmpty())
                r.lines.append(QJsonDocument::fromJson(line).object());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    static QString sha256Of(const QString& path)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        QCryptographicHash h(QCryptographicHash::Sha256);
        h.addData(&f);
        return QString::fromLatin1(h.result().toHex());
    }

private slots:
    void initTestCase()
    {
        if (!m_hub.start())
            QSKIP(qPrintable(m_hub.error()));
    }

    void init() { m_hub.reset(); }

    void search()
    {
        const Result r = hearth({QStringLiteral("search"), QStringLiteral("tiny"), QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.lines.size(), 1);
        QCOMPARE(r.lines[0].value(QLatin1String("id")).toString(), QStringLiteral("test/Tiny-GGUF"));
        QCOMPARE(r.lines[0].value(QLatin1String("downloads")).toInt(), 1200);
        QCOMPARE(
            hearth({QStringLiteral("search"), QStringLiteral("x"), QStringLiteral("--sort"), QStringLiteral("size")})
                .code,
            2);
    }

    void pullByQuantWithJson()
    {
        const Result r = hearth({QStringLiteral("pull"), QStringLiteral("test/Tiny-GGUF:q8_0"), QStringLiteral("--dir"),
                                 m_models.path(), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.lines.size() >= 3);
        const QJsonObject header = r.lines.front();
        QCOMPARE(header.value(QLatin1String("event")).toString(), QStringLiteral("header"));
        QCOMPARE(header.value(QLatin1String("file")).toString(), QStringLiteral("tiny-Q8_0.gguf"));
        QCOMPARE(header.value(QLatin1String("architecture")).toString(), QStringLiteral("llama"));
        QVERIFY(header.value(QLatin1String("header_bytes")).toDouble() <
                m_hub.fileSize(QStringLiteral("tiny-Q8_0.gguf")));
        QCOMPARE(r.lines[1].value(QLatin1String("event")).toString(), QStringLiteral("progress"));
        const QJsonObject done = r.lines.back();
        QCOMPARE(done.value(QLatin1String("event")).toString(), QStringLiteral("done"));
        const QString path = m_models.filePath(QStringLiteral("test/Tiny-GGUF/tiny-Q8_0.gguf"));
        QCOMPARE(done.value(QLatin1String("path")).toString(), path);
        QCOMPARE(sha256Of(path), m_hub.sha256(QStringLiteral("tiny-Q8_0.gguf")));
    }

    void pullRecommendsQ4KM()
    {
        QTemporaryDir dir;
        const Result r = hearth({QStringLiteral("pull"), QStringLiteral("test/Tiny-GGUF"), QStringLiteral("--dir"),
                                 dir.path(), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(r.lines.front().value(QLatin1String("file")).toString(), QStringLiteral("tiny-Q4_K_M.gguf"));
    }

    // A split set: both parts' headers planned as one model (5 layers with
    // the output layer), the whole set downloaded; -ngl is read as `hearth
    // run` reads it.
    void pullSplitSetPlansTheWholeModel()
    {
        QTemporaryDir dir;
        const Result r =
            hearth({QStringLiteral("pull"), QStringLiteral("test/Split-GGUF"), QStringLiteral("-ngl"),
                    QStringLiteral("auto"), QStringLiteral("--dir"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QJsonObject h = r.lines.front();
        QCOMPARE(h.value(QLatin1String("parts")).toInt(), 2);
        QCOMPARE(h.value(QLatin1String("layer_count")).toInt(), 5);
        const QString fit = h.value(QLatin1String("fit")).toString();
        QVERIFY2(QStringList({QStringLiteral("gpu"), QStringLiteral("split"), QStringLiteral("ram")}).contains(fit),
                 qPrintable(fit));
        const int layers = h.value(QLatin1String("gpu_layers")).toInt();
        QVERIFY(layers >= 0 && layers <= 5);
        QCOMPARE(fit == QLatin1String("ram"), layers == 0);
        const double ram = h.value(QLatin1String("ram_required")).toDouble();
        const double gpu = h.value(QLatin1String("gpu_required")).toDouble();
        QCOMPARE(ram + gpu, h.value(QLatin1String("memory_required")).toDouble());
        // Every tensor of both parts is counted: more than the weights alone.
        const double weights = double(m_hub.fileSize(QStringLiteral("llama-F32-00001-of-00002.gguf")) +
                                      m_hub.fileSize(QStringLiteral("llama-F32-00002-of-00002.gguf"))) *
                               0.9;
        QVERIFY2(ram + gpu > weights, qPrintable(QStringLiteral("%1 + %2").arg(ram).arg(gpu)));
        QVERIFY(h.value(QLatin1String("header_bytes")).toDouble() < weights / 4);
        QCOMPARE(r.lines.back().value(QLatin1String("event")).toString(), QStringLiteral("done"));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("test/Split-GGUF/llama-F32-00002-of-00002.gguf"))));

        const Result bad = hearth({QStringLiteral("pull"), QStringLiteral("test/Split-GGUF"), QStringLiteral("-ngl"),
                                   QStringLiteral("many"), QStringLiteral("--dir"), dir.path()});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains(QLatin1String("-ngl needs a number of layers or 'auto'")), qPrintable(bad.err));
    }

    void refusals()
    {
        const Result quant = hearth(
            {QStringLiteral("pull"), QStringLiteral("test/Tiny-GGUF:Q2_K"), QStringLiteral("--dir"), m_models.path()});
        QCOMPARE(quant.code, 1);
        QVERIFY2(quant.err.contains(QLatin1String("No GGUF file in test/Tiny-GGUF matches 'Q2_K'")),
                 qPrintable(quant.err));
        const Result gated = hearth(
            {QStringLiteral("pull"), QStringLiteral("test/Private-GGUF"), QStringLiteral("--dir"), m_models.path()});
        QCOMPARE(gated.code, 1);
        QVERIFY2(gated.err.contains(QLatin1String("token")), qPrintable(gated.err));
        const Result junk = hearth(
            {QStringLiteral("pull"), QStringLiteral("test/Junk-GGUF"), QStringLiteral("--dir"), m_models.path()});
        QCOMPARE(junk.code, 1);
        QVERIFY2(junk.err.contains(QLatin1String("not a valid GGUF")), qPrintable(junk.err));
        QVERIFY(!QFile::exists(m_models.filePath(QStringLiteral("test/Junk-GGUF/junk.gguf.part"))));
    }

    void killedPullResumes()
    {
        QTemporaryDir dir;
        const QString part = dir.filePath(QStringLiteral("test/Tiny-GGUF/tiny-Q4_K_M.gguf.part"));
        m_hub.control({{QStringLiteral("rate"), 1 << 20}}); // about two seconds for the file
        QProcess p;
        p.setProcessEnvironment(env());
        p.start(QStringLiteral(HEARTH_CLI), {QStringLiteral("pull"), QStringLiteral("test/Tiny-GGUF:Q4_K_M"),
                                             QStringLiteral("--dir"), dir.path(), QStringLiteral("--json")});
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(part).size() > 300000, 20000);
        p.kill(); // no chance to clean up: as a crash or a power cut
        p.waitForFinished();
        m_hub.control({{QStringLiteral("rate"), QJsonValue::Null}});
        const qint64 left = QFileInfo(part).size();
        const Result r = hearth({QStringLiteral("pull"), QStringLiteral("test/Tiny-GGUF:Q4_K_M"),
                                 QStringLiteral("--dir"), dir.path(), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(sha256Of(dir.filePath(QStringLiteral("test/Tiny-GGUF/tiny-Q4_K_M.gguf"))),
                 m_hub.sha256(QStringLiteral("tiny-Q4_K_M.gguf")));
        bool resumed = false;
        for (const QJsonValue& v : m_hub.stats().value(QLatin1String("requests")).toArray())
            resumed = resumed ||
                      v.toObject().value(QLatin1String("range")).toString() == QStringLiteral("bytes=%1-").arg(left);
        QVERIFY2(resumed, "the second run did not resume from the .part");
        QVERIFY(!QFile::exists(part));
    }
};

QTEST_GUILESS_MAIN(TestCliPull)
#include "test_cli_pull.moc"

// hearth docs and hearth embed as scripts use them (docs/cli.md): add a
// folder, index it with JSON progress, search with JSON hits naming file,
// page, label and heading, list documents with the broken ones' reasons,
// ask the real SmolLM2 and get citations only to passages it was given,
// kill an index run half-way and see the next run skip what was finished.
// Needs the embedding model (scripts/convert-models); ask needs SmolLM2.

#include "DocumentCorpus.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run {
    int code = -1;
    QByteArray out, err;
};

} // namespace

class TestCliDocs : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_db, m_docs;

    Run hearth(const QStringList& args, int timeoutMs = 240000)
    {
        QProcess p;
        p.start(QStringLiteral(HEARTH_CLI), args + QStringList{QStringLiteral("--db"), m_db});
        p.waitForFinished(timeoutMs);
        return Run{p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
    }

    static QJsonObject lastJson(const QByteArray& out)
    {
        const QList<QByteArray> lines = out.trimmed().split('\n');
        return QJsonDocument::fromJson(lines.last()).object();
    }

private slots:
    void initTestCase()
    {
        if (testsupport::findModel("all-MiniLM-L6-v2.F16.gguf").empty())
            QSKIP("all-MiniLM-L6-v2.F16.gguf not found: run scripts/setup and scripts/convert-models");
        m_db = m_dir.filePath(QStringLiteral("hearth.sqlite"));
        m_docs = m_dir.filePath(QStringLiteral("docs"));
        QDir().mkpath(m_docs);
        for (int i = 0; i < 8; ++i) {
            QList<corpus::Section> pages;
            for (int p = 0; p < 3; ++p)
                pages.append({QStringLiteral("Part %1").arg(p + 1),
                              {QStringLiteral("Manual %1, page %2: the pressure valve of unit %3 opens at %4 bar.")
                                   .arg(i)
                                   .arg(p + 1)
                                   .arg(i * 10 + p)
                                   .arg(5 + i * 3 + p)}});
            corpus::writePdf(m_docs + QStringLiteral("/manual-%1.pdf").arg(i), pages);
        }
        QFile broken(m_docs + QStringLiteral("/broken.pdf"));
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("%PDF-1.4 truncated");
    }

    void indexWithProgressAndResumeAfterKill()
    {
        QVERIFY(hearth({QStringLiteral("docs"), QStringLiteral("add"), QStringLiteral("manuals"), m_docs}).code == 0);
        // Killed once three files are done.
        QProcess p;
        p.start(QStringLiteral(HEARTH_CLI), {QStringLiteral("docs"), QStringLiteral("index"), QStringLiteral("manuals"),
                                             QStringLiteral("--json-progress"), QStringLiteral("--db"), m_db});
        int done = -1;
        while (done < 3 && p.waitForReadyRead(120000)) {
            while (p.canReadLine()) {
                const QJsonObject o = QJsonDocument::fromJson(p.readLine()).object();
                QCOMPARE(o.value(QStringLiteral("files_total")).toInt(), 9);
                done = o.value(QStringLiteral("files_done")).toInt();
            }
        }
        QVERIFY(done >= 3);
        p.kill();
        p.waitForFinished();
        const Run r = hearth(
            {QStringLiteral("docs"), QStringLiteral("index"), QStringLiteral("manuals"), QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        const QJsonObject report = lastJson(r.out);
        QVERIFY(report.value(QStringLiteral("done")).toBool());
        QCOMPARE(report.value(QStringLiteral("files")).toInt(), 9);
        // The finished files are skipped (a broken one counts as finished).
        QVERIFY2(report.value(QStringLiteral("unchanged")).toInt() >= done, r.out.constData());
        // Nothing finished before the kill is redone; everything else is done now.
        const int indexed = report.value(QStringLiteral("indexed")).toInt();
        QVERIFY(indexed <= 9 - done);
        QVERIFY(indexed + report.value(QStringLiteral("unchanged")).toInt() >= 8);
        const QJsonArray issues = report.value(QStringLiteral("issues")).toArray();
        QCOMPARE(issues.size(), 1);
        QVERIFY(issues[0].toObject().value(QStringLiteral("file")).toString().endsWith(QLatin1String("broken.pdf")));
        QCOMPARE(issues[0].toObject().value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
    }

    void searchAndList()
    {
        const Run r = hearth({QStringLiteral("docs"), QStringLiteral("search"), QStringLiteral("manuals"),
                              QStringLiteral("at what pressure does the valve of unit 51 open"), QStringLiteral("-k"),
                              QStringLiteral("3"), QStringLiteral("--json")});
        QCOMPARE(r.code, 0);
        const QJsonArray hits = lastJson(r.out).value(QStringLiteral("hits")).toArray();
        QVERIFY(!hits.isEmpty() && hits.size() <= 3);
        const QJsonObject top = hits[0].toObject();
        QVERIFY2(top.value(QStringLiteral("file")).toString().endsWith(QLatin1String("manual-5.pdf")),
                 r.out.constData());
        QCOMPARE(top.value(QStringLiteral("page")).toInt(), 2);
        QCOMPARE(top.value(QStringLiteral("page_label")).toString(), QStringLiteral("2"));
        QCOMPARE(top.value(QStringLiteral("heading")).toString(), QStringLiteral("Part 2"));
        QVERIFY(top.value(QStringLiteral("text")).toString().contains(QLatin1String("unit 51 opens at 21 bar")));
        QVERIFY(top.value(QStringLiteral("score")).toDouble() > 0);

        const Run l = hearth(
            {QStringLiteral("docs"), QStringLiteral("list"), QStringLiteral("manuals"), QStringLiteral("--json")});
        const QJsonArray docs = lastJson(l.out).value(QStringLiteral("documents")).toArray();
        QCOMPARE(docs.size(), 9);
        int indexed = 0;
        for (const QJsonValue& d : docs) {
            const QJsonObject o = d.toObject();
            if (o.value(QStringLiteral("status")).toString() == QLatin1String("indexed"))
                ++indexed;
            else
                QVERIFY(!o.value(QStringLiteral("error")).toString().isEmpty());
        }
        QCOMPARE(indexed, 8);
    }

    void askCitesOnlyGivenPassages()
    {
        const std::string smol = testsupport::smolLm2Path();
        if (smol.empty())
            QSKIP(testsupport::kModelsMissing);
        const Run r =
            hearth({QStringLiteral("docs"), QStringLiteral("ask"), QStringLiteral("manuals"),
                    QStringLiteral("At what pressure does the valve of unit 51 open?"), QStringLiteral("-m"),
                    QString::fromStdString(smol), QStringLiteral("-k"), QStringLiteral("3"), QStringLiteral("--json")});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonObject o = lastJson(r.out);
        qInfo("answer: %s", qPrintable(o.value(QStringLiteral("answer")).toString()));
        QVERIFY(!o.value(QStringLiteral("answer")).toString().isEmpty());
        const int sources = int(o.value(QStringLiteral("sources")).toArray().size());
        QVERIFY(sources >= 1 && sources <= 3);
        for (const QJsonValue& c : o.value(QStringLiteral("citations")).toArray()) {
            const int n = c.toObject().value(QStringLiteral("n")).toInt();
            QVERIFY(n >= 1 && n <= sources);
            QVERIFY(o.value(QStringLiteral("answer")).toString().contains(QStringLiteral("[%1]").arg(n)));
        }
    }

    void embedAndRemove()
    {
        QProcess p;
        p.start(QStringLiteral(HEARTH_CLI),
                {QStringLiteral("embed"), QStringLiteral("-m"),
                 QString::fromStdString(testsupport::findModel("all-MiniLM-L6-v2.F16.gguf")),
                 QStringLiteral("--json")});
        p.write("first line\nsecond line\n");
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(60000));
        const QJsonObject o = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        QCOMPARE(o.value(QStringLiteral("dimension")).toInt(), 384);
        QCOMPARE(o.value(QStringLiteral("pooling")).toString(), QStringLiteral("mean"));
        QCOMPARE(o.value(QStringLiteral("embeddings")).toArray().size(), 2);
        QCOMPARE(hearth({QStringLiteral("docs"), QStringLiteral("remove"), QStringLiteral("manuals")}).code, 0);
        const Run l = hearth({QStringLiteral("docs"), QStringLiteral("list"), QStringLiteral("--json")});
        QVERIFY(lastJson(l.out).value(QStringLiteral("collections")).toArray().isEmpty());
        QCOMPARE(
            hearth({QStringLiteral("docs"), QStringLiteral("search"), QStringLiteral("manuals"), QStringLiteral("x")})
                .code,
            1);
    }
};

QTEST_MAIN(TestCliDocs)
#include "test_cli_docs.moc"

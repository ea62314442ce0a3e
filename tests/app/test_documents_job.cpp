// IndexJob: indexing on its own thread with queued signals: a run reports
// progress and a finished report while the test's (GUI) thread keeps
// turning its event loop; paused, it waits between files and goes on when
// resumed; cancelled, it stops and says so; a watched folder re-queues its
// collection once, 2 s after a burst of changes. Needs the embedding model.

#include "test_support.h"

#include "documents/DocumentStore.h"
#include "documents/IndexJob.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace documents;

class TestDocumentsJob : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_db, m_docs, m_model;
    qint64 m_collection = 0;

    void writeNote(const QString& name, const QString& text)
    {
        QFile f(m_docs + QLatin1Char('/') + name);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(text.toUtf8());
    }

private slots:
    void initTestCase()
    {
        m_model = QString::fromStdString(testsupport::findModel("all-MiniLM-L6-v2.F16.gguf"));
        if (m_model.isEmpty())
            QSKIP("all-MiniLM-L6-v2.F16.gguf not found: run scripts/setup and scripts/convert-models");
        m_db = m_dir.filePath(QStringLiteral("hearth.sqlite"));
        m_docs = m_dir.filePath(QStringLiteral("notes"));
        QDir().mkpath(m_docs);
        for (int i = 0; i < 4; ++i)
            writeNote(QStringLiteral("note-%1.md").arg(i),
                      QStringLiteral("# Note %1\n\nThe meeting about topic %1 is on day %2.\n").arg(i).arg(i + 10));
        DocumentStore store(m_db);
        m_collection = store.ensureCollection(QStringLiteral("notes"));
        store.addSource(m_collection, m_docs);
    }

    void pausesResumesAndReports()
    {
        IndexJob job(m_db, m_model);
        QSignalSpy progress(&job, &IndexJob::progress);
        QSignalSpy finished(&job, &IndexJob::finished);
        job.setPaused(true);
        job.enqueue(m_collection); // runs (paused)
        job.enqueue(m_collection); // queued for one more run (changes since the start)
        job.enqueue(m_collection); // already queued
        QVERIFY(job.running());
        // Paused before the first file: nothing finishes.
        QVERIFY(!finished.wait(1500));
        job.setPaused(false);
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.size(), 1);
        const IndexReport r = finished[0][1].value<IndexReport>();
        QCOMPARE(r.indexed, 4);
        QVERIFY(!r.cancelled);
        QVERIFY(progress.size() >= 5); // one per file, and the last
        const IndexProgress last = progress.last()[1].value<IndexProgress>();
        QCOMPARE(last.filesDone, 4);
        QCOMPARE(last.filesTotal, 4);
        // The queued run: nothing changed, nothing embedded.
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished[1][1].value<IndexReport>().unchanged, 4);
        QVERIFY(!job.running());
        QVERIFY(!finished.wait(500));
    }

    void cancels()
    {
        writeNote(QStringLiteral("note-9.md"), QStringLiteral("# Nine\n\nA new note.\n"));
        IndexJob job(m_db, m_model);
        QSignalSpy finished(&job, &IndexJob::finished);
        job.setPaused(true);
        job.enqueue(m_collection);
        QTest::qWait(300);
        job.cancel();
        QVERIFY(finished.wait(60000));
        QVERIFY(finished[0][1].value<IndexReport>().cancelled);
    }

    void watchedFolderRequeuesOnce()
    {
        IndexJob job(m_db, m_model);
        QSignalSpy finished(&job, &IndexJob::finished);
        job.watch({m_collection});
        for (int i = 0; i < 3; ++i) {
            writeNote(QStringLiteral("burst-%1.md").arg(i),
                      QStringLiteral("# Burst %1\n\nWritten in a burst.\n").arg(i));
            QTest::qWait(200);
        }
        QVERIFY(finished.wait(120000));
        const IndexReport r = finished[0][1].value<IndexReport>();
        QCOMPARE(r.indexed, 4);        // the three new notes and note-9 (cancelled before)
        QVERIFY(!finished.wait(3000)); // one run for the burst
    }
};

QTEST_MAIN(TestDocumentsJob)
#include "test_documents_job.moc"

// A process killed with SIGKILL in the middle of a reply loses nothing that
// was already shown: crash_helper streams a reply and prints what the view
// shows; we kill it, reopen its database and find at least that text.

#include "storage/Database.h"
#include "storage/MessageStore.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QProcess>
#include <QTest>

class TestStorageCrash : public QObject {
    Q_OBJECT

private slots:
    void killedMidReplyLosesNothingShown()
    {
#ifdef Q_OS_WIN
        QSKIP("SIGKILL is POSIX; TerminateProcess would do on Windows");
#endif
        QProcess helper;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        helper.setProcessEnvironment(env);
        helper.start(QCoreApplication::applicationDirPath() + QStringLiteral("/crash_helper"), {QStringLiteral("x")});
        QVERIFY2(helper.waitForStarted(), "crash_helper did not start");

        QString dataDir;
        qint64 messageId = 0;
        int shownLength = 0;
        QByteArray shownSha;
        int batches = 0;
        while (batches < 25) {
            QVERIFY2(helper.waitForReadyRead(20000), "no output from crash_helper");
            while (helper.canReadLine()) {
                const QList<QByteArray> f = helper.readLine().trimmed().split(' ');
                if (f.value(0) == "data")
                    dataDir = QString::fromUtf8(f.value(1));
                if (f.value(0) != "shown" || f.size() != 4)
                    continue;
                messageId = f[1].toLongLong();
                shownLength = f[2].toInt();
                shownSha = f[3];
                ++batches;
            }
        }
        helper.kill(); // SIGKILL: no destructor, no flush, no finishMessage
        QVERIFY(helper.waitForFinished(5000));
        QCOMPARE(helper.exitStatus(), QProcess::CrashExit);
        QVERIFY(!dataDir.isEmpty());

        Database db(dataDir + QStringLiteral("/hearth.sqlite"));
        MessageStore messages(&db); // recovers the interrupted reply
        const std::optional<ChatMessage> m = messages.message(messageId);
        QVERIFY(m.has_value());
        QCOMPARE(m->state, MessageState::Interrupted);
        QVERIFY2(m->text.size() >= shownLength,
                 qPrintable(QStringLiteral("%1 chars kept, %2 shown").arg(m->text.size()).arg(shownLength)));
        const QByteArray keptSha =
            QCryptographicHash::hash(m->text.left(shownLength).toUtf8(), QCryptographicHash::Sha1).toHex();
        QCOMPARE(keptSha, shownSha);
        QVERIFY(!m->provenance.modelPath.isEmpty());
        QDir(dataDir).removeRecursively();
        QDir(QFileInfo(dataDir).absolutePath()).removeRecursively();
    }
};

QTEST_GUILESS_MAIN(TestStorageCrash)
#include "test_storage_crash.moc"

// Helper process for test_storage_crash: runs a real session (fake engine),
// sends a message and reports every batch of reply text the view shows as
//   shown MESSAGE_ID LENGTH SHA1_OF_THE_TEXT_SO_FAR
// until the test kills it with SIGKILL mid-reply.
//
//   crash_helper DATA_DIR

#include "AppTestSupport.h"
#include "chat/ChatController.h"
#include "settings/SettingsStore.h"

#include <QCryptographicHash>
#include <QGuiApplication>

#include <cstdio>

int main(int argc, char* argv[])
{
    QGuiApplication app(argc, argv);
    if (argc < 2)
        return 2;
    FakeEngine::Options engine;
    engine.tokensPerSecond = 200;
    engine.loadMs = 10;
    engine.fillToMaxTokens = true; // a reply long enough to be killed in the middle of
    TestSession test(engine);
    test.session->settingsStore().setGlobalValue(QStringLiteral("maxTokens"), 100000);
    std::printf("data %s\n", qPrintable(test.dataDir));
    std::fflush(stdout);
    ChatController* chat = test.session->chat();
    QObject::connect(chat, &ChatController::textShown, [chat](qint64 id, int length) {
        const QString text = chat->messages()->textOf(id);
        const QByteArray sha = QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha1).toHex();
        std::printf("shown %lld %d %s\n", static_cast<long long>(id), length, sha.constData());
        std::fflush(stdout);
    });
    if (!test.loadModel())
        return 3;
    chat->send(QStringLiteral("Write a long answer, please."));
    test.dir.setAutoRemove(false); // the test reads the database after killing us
    return app.exec();
}

// End to end in one app session, through the objects the Engines dialog
// and the model picker drive: add an endpoint (its key goes to the OS
// keychain, never to settings.ini), see its models in the picker marked as
// remote (listing them reads the key back from the keychain), load one, chat
// through it, and find the endpoint and model in the reply's provenance,
// also after a restart. Then remove it: models and key are gone. Runs on a
// private keyring (tests/common/with_keyring.sh) against the fake server.
#include "AppTestSupport.h"
#include "chat/ChatController.h"
#include "remote/EndpointListModel.h"
#include "remote/FakeOpenAiServer.h"
#include "secrets/SecretStore.h"
#include "storage/MessageStore.h"

#include <QSignalSpy>
#include <QUuid>

namespace {

int remoteRows(ModelListModel* models)
{
    int n = 0;
    for (int row = 0; row < models->rowCount(); ++row)
        n += models->data(models->index(row), ModelListModel::RemoteRole).toBool();
    return n;
}

// A new session on `dataDir`, as the app's next start makes it.
std::unique_ptr<AppSession> restart(const QString& dataDir)
{
    AppSession::Options options;
    options.dataDir = dataDir;
    options.engine = std::make_shared<FakeEngine>(TestSession::fastEngine());
    options.scanModels = false;
    options.highlight = false;
    return std::make_unique<AppSession>(options);
}

} // namespace

class TestRemoteApp : public QObject {
    Q_OBJECT

private:
    FakeOpenAiServer m_server;
    SecretStore m_secrets; // one store for the test's own reads (QtKeychain jobs are its children)

private slots:
    void initTestCase()
    {
        qputenv("HEARTH_KEYCHAIN_SERVICE",
                (QStringLiteral("Hearth test ") + QUuid::createUuid().toString(QUuid::WithoutBraces)).toUtf8());
        m_secrets.setService(SecretStore::defaultService()); // the one the session's stores use
        const SecretResult r = m_secrets.readBlocking(QStringLiteral("probe"));
        if (r.status == SecretResult::Status::Unavailable)
            QSKIP(qPrintable(r.error));
        const QString error = m_server.start({QStringLiteral("--api-key"), QStringLiteral("sesame-1234")});
        if (!error.isEmpty())
            QSKIP(qPrintable(error));
    }

    void addEndpointChatAndRemove()
    {
        TestSession test;
        AppSession& s = *test.session;
        EndpointListModel* endpoints = s.endpoints();
        ModelListModel* models = s.library()->models();
        QSignalSpy saved(endpoints, &EndpointListModel::saved);

        // A wrong URL is refused before anything is stored.
        QVERIFY(!endpoints->save({{QStringLiteral("baseUrl"), QStringLiteral("ftp://nope")}}).isEmpty());
        QCOMPARE(endpoints->rowCount(), 0);

        const QString error = endpoints->save({{QStringLiteral("name"), QStringLiteral("Fake GPU")},
                                               {QStringLiteral("baseUrl"), m_server.url()},
                                               {QStringLiteral("apiKey"), QStringLiteral("sesame-1234")},
                                               {QStringLiteral("headers"), QStringLiteral("X-Hearth-Test: yes")}});
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(saved.wait(10000));
        QCOMPARE(saved.first().at(1).toString(), QString());
        const QString id = saved.first().at(0).toString();
        QVERIFY(endpoints->data(endpoints->index(0), EndpointListModel::HasKeyRole).toBool());

        // The key is in the keychain and nowhere in the settings file.
        SecretStore& secrets = m_secrets;
        QCOMPARE(secrets.readBlocking(EndpointListModel::keyName(id)).value, QStringLiteral("sesame-1234"));
        QSettings(test.dataDir + QStringLiteral("/settings.ini"), QSettings::IniFormat).sync();
        QFile ini(test.dataDir + QStringLiteral("/settings.ini"));
        QVERIFY(ini.open(QIODevice::ReadOnly));
        const QByteArray settings = ini.readAll();
        QVERIFY(settings.contains("Fake GPU"));
        QVERIFY(!settings.contains("sesame"));

        // Its models join the picker, marked as remote.
        QVERIFY(QTest::qWaitFor([&] { return remoteRows(models) == 6; }, 10000));
        const QString status = endpoints->data(endpoints->index(0), EndpointListModel::StatusRole).toString();
        QVERIFY2(status.contains(QLatin1String("6")), qPrintable(status));
        int echoRow = -1;
        for (int row = 0; row < models->rowCount(); ++row)
            if (models->data(models->index(row), ModelListModel::NameRole).toString() == QLatin1String("echo"))
                echoRow = row;
        QVERIFY(echoRow >= 0);
        const QModelIndex echo = models->index(echoRow);
        QVERIFY(models->data(echo, ModelListModel::RemoteRole).toBool());
        QVERIFY(models->data(echo, ModelListModel::EndpointRole).toString().startsWith(QLatin1String("Fake GPU")));
        QCOMPARE(models->data(echo, ModelListModel::TrainedContextRole).toInt(), 64);
        const QString path = models->data(echo, ModelListModel::PathRole).toString();
        QCOMPARE(path, m_server.url() + QStringLiteral("/v1/models/echo"));

        // Load it (with the key read back from the keychain) and chat.
        s.library()->load(path);
        QVERIFY(QTest::qWaitFor([&] { return s.loader()->loaded() || !s.loader()->error().isEmpty(); }, 10000));
        QVERIFY2(s.loader()->loaded(), qPrintable(s.loader()->error()));
        QVERIFY2(s.loader()->summary().contains(QLatin1String("Fake GPU")), qPrintable(s.loader()->summary()));
        QCOMPARE(models->data(echo, ModelListModel::LoadedRole).toBool(), true);

        QSignalSpy finished(s.chat(), &ChatController::replyFinished);
        QVERIFY(s.chat()->send(QStringLiteral("hello remote world")));
        QVERIFY(finished.wait(10000));
        const QList<ChatMessage> messages = s.messageStore().messages(s.chat()->conversationId());
        QCOMPARE(messages.size(), 2);
        const ChatMessage& reply = messages.last();
        QCOMPARE(reply.text, QStringLiteral("You said: hello remote world"));
        QCOMPARE(reply.state, MessageState::Complete);
        QCOMPARE(reply.provenance.modelPath, path); // the endpoint's URL and the model id
        QCOMPARE(reply.provenance.modelName, QStringLiteral("echo"));
        QCOMPARE(reply.provenance.engine, QStringLiteral("remote"));
        QCOMPARE(reply.provenance.stats.generatedTokens, 4); // the server's usage
        QVERIFY(reply.provenance.stats.promptTokens > 0);
        const QJsonObject last = m_server.control(QStringLiteral("/_last"));
        const QJsonObject headers = last.value(QLatin1String("headers")).toObject();
        QCOMPARE(headers.value(QLatin1String("Authorization")).toString(), QStringLiteral("Bearer sesame-1234"));
        QCOMPARE(headers.value(QLatin1String("X-Hearth-Test")).toString(), QStringLiteral("yes"));
        QCOMPARE(last.value(QLatin1String("body")).toObject().value(QLatin1String("seed")).toInteger(),
                 qint64(reply.provenance.sampler.seed & 0x7fffffff));

        // Removing it takes its models out of the picker and its key out of the keychain.
        endpoints->remove(id);
        QCOMPARE(endpoints->rowCount(), 0);
        QCOMPARE(remoteRows(models), 0);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return secrets.readBlocking(EndpointListModel::keyName(id)).status == SecretResult::Status::NotFound;
            },
            5000));
    }

    void endpointsSurviveARestart()
    {
        TestSession test;
        QString id;
        {
            EndpointListModel* endpoints = test.session->endpoints();
            QSignalSpy saved(endpoints, &EndpointListModel::saved);
            QVERIFY(endpoints
                        ->save({{QStringLiteral("name"), QStringLiteral("Box")},
                                {QStringLiteral("baseUrl"), m_server.url() + QStringLiteral("/v1")},
                                {QStringLiteral("apiKey"), QStringLiteral("sesame-1234")},
                                {QStringLiteral("timeoutSeconds"), 30},
                                {QStringLiteral("extendedSampling"), false}})
                        .isEmpty());
            QVERIFY(saved.wait(10000));
            id = saved.first().at(0).toString();
            // The same URL twice is refused.
            QVERIFY(!endpoints->save({{QStringLiteral("baseUrl"), m_server.url()}}).isEmpty());
        }
        test.session.reset();
        const std::unique_ptr<AppSession> restarted = restart(test.dataDir);
        AppSession& again = *restarted;
        EndpointListModel* endpoints = again.endpoints();
        QCOMPARE(endpoints->rowCount(), 1);
        const QVariantMap row = endpoints->get(0);
        QCOMPARE(row.value(QStringLiteral("name")).toString(), QStringLiteral("Box"));
        QCOMPARE(row.value(QStringLiteral("timeoutSeconds")).toInt(), 30);
        QCOMPARE(row.value(QStringLiteral("extendedSampling")).toBool(), false);
        QCOMPARE(row.value(QStringLiteral("hasKey")).toBool(), true);
        QSignalSpy tested(endpoints, &EndpointListModel::testFinished);
        endpoints->testConnection({{QStringLiteral("id"), id}, {QStringLiteral("baseUrl"), m_server.url()}});
        QVERIFY(tested.wait(10000));
        QVERIFY2(tested.first().at(0).toBool(), qPrintable(tested.first().at(1).toString()));
        QCOMPARE(tested.first().at(2).toStringList().size(), 6);
        // A wrong key typed into the form fails the test with the server's reason.
        tested.clear();
        endpoints->testConnection({{QStringLiteral("id"), id},
                                   {QStringLiteral("baseUrl"), m_server.url()},
                                   {QStringLiteral("apiKey"), QStringLiteral("wrong")}});
        QVERIFY(tested.wait(10000));
        QVERIFY(!tested.first().at(0).toBool());
        QVERIFY2(tested.first().at(1).toString().contains(QLatin1String("refused the API key")),
                 qPrintable(tested.first().at(1).toString()));
        endpoints->remove(id);
    }

    // The remote model a session ended with is loaded again at the next
    // start, at once: its load waits for the keychain's read of the key
    // that start-up begins, instead of failing for want of it.
    void aRestoredRemoteModelLoadsWithItsKey()
    {
        TestSession test;
        QString id;
        QString path;
        {
            AppSession& s = *test.session;
            QSignalSpy saved(s.endpoints(), &EndpointListModel::saved);
            QVERIFY(s.endpoints()
                        ->save({{QStringLiteral("name"), QStringLiteral("Restored")},
                                {QStringLiteral("baseUrl"), m_server.url()},
                                {QStringLiteral("apiKey"), QStringLiteral("sesame-1234")}})
                        .isEmpty());
            QVERIFY(saved.wait(10000));
            id = saved.first().at(0).toString();
            ModelListModel* models = s.library()->models();
            const bool listed = QTest::qWaitFor([&] { return remoteRows(models) == 6; }, 10000);
            QVERIFY2(
                listed,
                qPrintable(
                    QStringLiteral("%1 remote rows; %2")
                        .arg(remoteRows(models))
                        .arg(s.endpoints()->data(s.endpoints()->index(0), EndpointListModel::StatusRole).toString())));
            path = m_server.url() + QStringLiteral("/v1/models/echo");
            s.library()->load(path);
            QVERIFY(QTest::qWaitFor([&] { return s.loader()->loaded() || !s.loader()->error().isEmpty(); }, 10000));
            QVERIFY2(s.loader()->loaded(), qPrintable(s.loader()->error()));
        }
        test.session.reset();
        const std::unique_ptr<AppSession> restarted = restart(test.dataDir);
        AppSession& again = *restarted;
        again.restore({}); // straight after construction, as main() does
        QVERIFY(QTest::qWaitFor([&] { return again.loader()->loaded() || !again.loader()->error().isEmpty(); }, 10000));
        QVERIFY2(again.loader()->loaded(), qPrintable(again.loader()->error()));
        QCOMPARE(again.loader()->modelPath(), path);
        QSignalSpy finished(again.chat(), &ChatController::replyFinished);
        QVERIFY(again.chat()->send(QStringLiteral("still there?")));
        QVERIFY(finished.wait(10000));
        const QJsonObject headers =
            m_server.control(QStringLiteral("/_last")).value(QLatin1String("headers")).toObject();
        QCOMPARE(headers.value(QLatin1String("Authorization")).toString(), QStringLiteral("Bearer sesame-1234"));
        again.endpoints()->remove(id);
    }
};

QTEST_MAIN(TestRemoteApp)
#include "test_remote_app.moc"

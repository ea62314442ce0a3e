// The app's local server (Settings → Local server) on the real SmolLM2,
// with its API key in a real keychain (GNOME Keyring on a private D-Bus
// session, tests/common/with_keyring.sh): switching it on with "allow
// other devices" makes a key, stores it in the keychain and serves the
// loaded model on every address behind that key; a request from the test
// with the key read back from the keychain is answered, one without it is
// refused; switching off stops it. Skips without the model or a keyring.

#include "secrets/SecretStore.h"
#include "server/LocalServer.h"
#include "test_support.h"

#include <QEventLoop>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QUuid>

namespace {

struct Reply {
    int status = 0;
    QByteArray body;
};

Reply call(const QString& url, const QByteArray& body, const QString& key)
{
    QNetworkAccessManager nam;
    QNetworkRequest req{QUrl(url)};
    req.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    if (!key.isEmpty())
        req.setRawHeader("Authorization", "Bearer " + key.toUtf8());
    req.setTransferTimeout(120000);
    QNetworkReply* r = body.isEmpty() ? nam.get(req) : nam.post(req, body);
    QEventLoop loop;
    QObject::connect(r, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    Reply out{r->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), r->readAll()};
    r->deleteLater();
    return out;
}

} // namespace

class TestLocalServer : public QObject {
    Q_OBJECT

private slots:
    void switchOnServeStop()
    {
        const std::string model = testsupport::findModel("SmolLM2-135M-Instruct.Q4_1.gguf");
        if (model.empty())
            QSKIP(testsupport::kModelsMissing);
        SecretStore secrets;
        secrets.setService(QStringLiteral("Hearth test ") + QUuid::createUuid().toString(QUuid::WithoutBraces));
        if (secrets.readBlocking(QStringLiteral("probe")).status == SecretResult::Status::Unavailable)
            QSKIP("no Secret Service");
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);

        LocalServer server(&settings, &secrets);
        server.setModelPath(QString::fromStdString(model));
        server.setPort(0);
        server.setAllowOtherDevices(true);
        QCOMPARE(server.status(), LocalServer::Stopped); // nothing starts before the switch
        server.setEnabled(true);
        QTRY_VERIFY_WITH_TIMEOUT(server.status() == LocalServer::Running || server.status() == LocalServer::Failed,
                                 180000);
        QVERIFY2(server.running(), qPrintable(server.error()));
        QVERIFY(settings.value(QStringLiteral("server/enabled")).toBool());

        // The key is in the keychain, and only there.
        const SecretResult stored = secrets.readBlocking(QStringLiteral("server/api-key"));
        QVERIFY2(stored.ok(), qPrintable(stored.error));
        QCOMPARE(stored.value, server.apiKey());
        QVERIFY(!settings.allKeys().join(QLatin1Char(' ')).contains(stored.value));

        QString base = server.address();
        QVERIFY2(base.startsWith(QLatin1String("http://0.0.0.0:")), qPrintable(base));
        base.replace(QLatin1String("0.0.0.0"), QLatin1String("127.0.0.1"));

        QCOMPARE(call(base + QStringLiteral("/models"), {}, {}).status, 401);
        QCOMPARE(call(base + QStringLiteral("/models"), {}, QStringLiteral("wrong")).status, 401);
        const Reply chat =
            call(base + QStringLiteral("/chat/completions"),
                 R"({"messages":[{"role":"user","content":"Hi"}],"max_tokens":3,"temperature":0})", stored.value);
        QCOMPARE(chat.status, 200);
        const QJsonObject j = QJsonDocument::fromJson(chat.body).object();
        QCOMPARE(j.value(QStringLiteral("object")).toString(), QStringLiteral("chat.completion"));
        QVERIFY(j.value(QStringLiteral("usage")).toObject().value(QStringLiteral("completion_tokens")).toInt() > 0);

        server.setEnabled(false);
        QCOMPARE(server.status(), LocalServer::Stopped);
        QCOMPARE(call(base + QStringLiteral("/models"), {}, stored.value).status, 0); // nobody listens
        secrets.removeBlocking(QStringLiteral("server/api-key"));
    }

    void needsAModel()
    {
        SecretStore secrets;
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        LocalServer server(&settings, &secrets);
        server.setEnabled(true);
        QCOMPARE(server.status(), LocalServer::Failed);
        QVERIFY(!server.error().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLocalServer)
#include "test_local_server.moc"

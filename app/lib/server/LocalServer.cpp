#include "LocalServer.h"

#include "ApiServer.h"
#include "ModelRouter.h"
#include "secrets/SecretStore.h"

#include <QFileInfo>
#include <QRandomGenerator>
#include <QSettings>

using namespace hearth::server;

namespace {

const QString kKeyName = QStringLiteral("server/api-key");

QString randomKey()
{
    QByteArray bytes(24, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(bytes.data()), bytes.size() / 4);
    return QStringLiteral("hearth-") +
           QString::fromLatin1(bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

} // namespace

LocalServer::LocalServer(QSettings* settings, SecretStore* secrets, QObject* parent)
    : QObject(parent), m_settings(settings), m_secrets(secrets)
{
    m_port = m_settings->value(QStringLiteral("server/port"), 8080).toInt();
    m_allowOthers = m_settings->value(QStringLiteral("server/allowOtherDevices"), false).toBool();
    m_enabled = m_settings->value(QStringLiteral("server/enabled"), false).toBool();
    m_poll.setInterval(200);
    connect(&m_poll, &QTimer::timeout, this, &LocalServer::poll);
}

LocalServer::~LocalServer()
{
    stop();
}

void LocalServer::setPort(int port)
{
    port = qBound(0, port, 65535);
    if (port == m_port)
        return;
    m_port = port;
    m_settings->setValue(QStringLiteral("server/port"), port);
    emit settingsChanged();
    if (m_status != Stopped && m_status != Failed)
        start();
}

void LocalServer::setAllowOtherDevices(bool on)
{
    if (on == m_allowOthers)
        return;
    m_allowOthers = on;
    m_settings->setValue(QStringLiteral("server/allowOtherDevices"), on);
    emit settingsChanged();
    if (m_status != Stopped && m_status != Failed)
        start();
}

void LocalServer::setEnabled(bool on)
{
    if (on == m_enabled)
        return;
    m_enabled = on;
    m_settings->setValue(QStringLiteral("server/enabled"), on);
    emit settingsChanged();
    if (on)
        start();
    else
        stop();
}

void LocalServer::setModelPath(const QString& path)
{
    if (path == m_modelPath)
        return;
    m_modelPath = path;
    emit modelPathChanged();
    if (!m_enabled)
        return;
    if (path.isEmpty())
        stop();
    else
        start();
}

void LocalServer::setKey(const QString& key)
{
    if (key == m_apiKey)
        return;
    m_apiKey = key;
    emit apiKeyChanged();
}

void LocalServer::start()
{
    stop();
    if (m_modelPath.isEmpty()) {
        fail(tr("Load a model first: the local server serves the loaded model."));
        return;
    }
    m_status = Starting;
    m_error.clear();
    emit stateChanged();
    const uint64_t generation = ++m_generation;
    m_secrets->read(kKeyName, [this, generation](const SecretResult& r) {
        if (generation != m_generation)
            return;
        if (r.ok()) {
            setKey(r.value);
            launch();
            return;
        }
        if (!m_allowOthers) { // loopback needs no key
            setKey(QString());
            launch();
            return;
        }
        if (r.status != SecretResult::Status::NotFound) {
            fail(tr("The API key could not be read from the keychain: %1").arg(r.error));
            return;
        }
        const QString key = randomKey();
        m_secrets->write(kKeyName, key, [this, generation, key](const SecretResult& w) {
            if (generation != m_generation)
                return;
            if (!w.ok()) {
                fail(tr("The API key could not be stored in the keychain: %1").arg(w.error));
                return;
            }
            setKey(key);
            launch();
        });
    });
}

void LocalServer::launch()
{
    ServerOptions so;
    so.host = m_allowOthers ? "0.0.0.0" : "127.0.0.1";
    so.port = m_port;
    if (m_allowOthers) {
        if (m_apiKey.isEmpty()) {
            fail(tr("Other devices need an API key, and none could be made."));
            return;
        }
        so.apiKeys.push_back(m_apiKey.toStdString());
    }
    LoadConfig lc;
    lc.engine.slotCount = 2;
    QString id = QFileInfo(m_modelPath).fileName();
    if (id.endsWith(QLatin1String(".gguf")))
        id.chop(5);
    m_router = std::make_unique<ModelRouter>(std::vector<ModelFile>{{id.toStdString(), m_modelPath.toStdString()}}, lc,
                                             0, /*routerMode=*/false);
    m_server = std::make_unique<ApiServer>(so, *m_router);
    try {
        m_server->bind();
    } catch (const std::exception& e) {
        m_server.reset();
        m_router.reset();
        fail(QString::fromUtf8(e.what()));
        return;
    }
    const QString host = m_allowOthers ? QStringLiteral("0.0.0.0") : QStringLiteral("127.0.0.1");
    m_address = QStringLiteral("http://%1:%2/v1").arg(host).arg(m_server->port());
    m_http = std::thread([server = m_server.get()] { server->run(); });
    m_router->startLoading(0);
    m_poll.start();
    emit stateChanged();
}

void LocalServer::poll()
{
    if (!m_router)
        return;
    const ModelState st = m_router->list().front();
    if (st.status == ModelStatus::Loaded && m_status != Running) {
        m_status = Running;
        emit stateChanged();
    } else if (st.status == ModelStatus::Failed) {
        const QString why = QString::fromStdString(st.error);
        stop();
        fail(tr("The server could not load the model: %1").arg(why));
    }
}

void LocalServer::stop()
{
    ++m_generation;
    m_poll.stop();
    if (m_server) {
        m_server->stop();
        if (m_http.joinable())
            m_http.join();
    }
    m_server.reset();
    m_router.reset();
    if (m_status != Stopped) {
        m_status = Stopped;
        m_address.clear();
        emit stateChanged();
    }
}

void LocalServer::fail(const QString& message)
{
    m_status = Failed;
    m_error = message;
    m_address.clear();
    emit stateChanged();
}

void LocalServer::newApiKey()
{
    const bool wasOn = m_status == Starting || m_status == Running;
    const QString key = randomKey();
    m_secrets->write(kKeyName, key, [this, key, wasOn](const SecretResult& w) {
        if (!w.ok()) {
            fail(tr("The API key could not be stored in the keychain: %1").arg(w.error));
            return;
        }
        setKey(key);
        if (wasOn)
            start();
    });
}

// The app's local server (Settings → Local server): `hearth serve` inside
// the desktop app, serving the model the app has loaded (its file, mapped
// again: the pages are the page cache's, so the second mapping costs only
// the server's KV cache and scratch).
//
// "Allow other devices" listens on every address and then requires an API
// key, which lives in the OS keychain (SecretStore, key "server/api-key"):
// one is made on first use and shown so the user can copy it. Port and the
// switches persist in QSettings (server/enabled, server/port,
// server/allowOtherDevices).
//
// Threads: a GUI-thread object; the HTTP server runs on its own thread and
// the model loads on the router's loader thread; state is polled a few
// times a second (never blocking the GUI thread). stop() joins the HTTP
// thread, which returns at once.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>
#include <QtQml/qqmlregistration.h>

#include <memory>
#include <thread>

class QSettings;
class SecretStore;

namespace hearth::server {
class ApiServer;
class ModelRouter;
} // namespace hearth::server

class LocalServer : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by the session")
    Q_PROPERTY(Status status READ status NOTIFY stateChanged)
    Q_PROPERTY(bool running READ running NOTIFY stateChanged)
    Q_PROPERTY(QString address READ address NOTIFY stateChanged)
    Q_PROPERTY(QString error READ error NOTIFY stateChanged)
    Q_PROPERTY(bool enabled READ enabled WRITE setEnabled NOTIFY settingsChanged)
    Q_PROPERTY(int port READ port WRITE setPort NOTIFY settingsChanged)
    Q_PROPERTY(bool allowOtherDevices READ allowOtherDevices WRITE setAllowOtherDevices NOTIFY settingsChanged)
    Q_PROPERTY(QString apiKey READ apiKey NOTIFY apiKeyChanged)
    Q_PROPERTY(QString modelPath READ modelPath WRITE setModelPath NOTIFY modelPathChanged)

public:
    enum Status {
        Stopped,
        Starting, // reading the key, binding, loading the model
        Running,
        Failed
    };
    Q_ENUM(Status)

    LocalServer(QSettings* settings, SecretStore* secrets, QObject* parent = nullptr);
    ~LocalServer() override;

    Status status() const { return m_status; }
    bool running() const { return m_status == Running; }
    QString address() const { return m_address; }
    QString error() const { return m_error; }
    // The switch (persisted as server/enabled): on, the server runs whenever
    // a model is loaded.
    bool enabled() const { return m_enabled; }
    void setEnabled(bool on);
    int port() const { return m_port; }
    void setPort(int port);
    bool allowOtherDevices() const { return m_allowOthers; }
    void setAllowOtherDevices(bool on);
    QString apiKey() const { return m_apiKey; }
    QString modelPath() const { return m_modelPath; }
    // The model to serve; a running server restarts with the new one ("" stops it).
    void setModelPath(const QString& path);

    // Starts (or, while running, keeps) the server; the outcome arrives as
    // stateChanged (Running with address, or Failed with error).
    Q_INVOKABLE void start();
    Q_INVOKABLE void stop();
    // Replaces the stored key with a new one (a running server restarts).
    Q_INVOKABLE void newApiKey();

signals:
    void stateChanged();
    void settingsChanged();
    void apiKeyChanged();
    void modelPathChanged();

private:
    void launch(); // after the key is known
    void poll();
    void fail(const QString& message);
    void setKey(const QString& key);

    QSettings* m_settings;
    SecretStore* m_secrets;
    Status m_status = Stopped;
    QString m_address, m_error, m_apiKey, m_modelPath;
    int m_port = 8080;
    bool m_allowOthers = false;
    bool m_enabled = false;
    uint64_t m_generation = 0; // start() calls, so a stale keychain answer is ignored
    std::unique_ptr<hearth::server::ModelRouter> m_router;
    std::unique_ptr<hearth::server::ApiServer> m_server;
    std::thread m_http;
    QTimer m_poll;
};

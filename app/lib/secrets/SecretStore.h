// Secrets (API keys, access tokens) kept in the operating system's keychain
// through QtKeychain: the Keychain on macOS, the Credential Manager on
// Windows, the Secret Service (GNOME Keyring, KWallet) on Linux. Nothing
// secret is ever written to settings.ini, the database or a log.
//
// Every entry lives under the service "Hearth" (tests and portable installs
// pick another with setService or $HEARTH_KEYCHAIN_SERVICE) and a key such
// as "server/api-key" or "hub/token".
//
// The calls are asynchronous: each starts a keychain job and reports through
// the given callback on the caller's thread, which must run an event loop
// (a keychain may ask the user to unlock it). The *Blocking variants spin a
// local event loop for the command-line tool and tests; never call them on
// the GUI thread.
//
// Thread-safety: use an instance from the thread that created it.
#pragma once

#include <QObject>
#include <QString>

#include <functional>

struct SecretResult {
    enum class Status {
        Ok,
        NotFound,
        Unavailable,
        Failed
    };
    Status status = Status::Failed;
    QString value; // the secret, for a successful read
    QString error; // a sentence for the user when status is not Ok / NotFound

    bool ok() const { return status == Status::Ok; }
};

class SecretStore : public QObject {
    Q_OBJECT

public:
    using Callback = std::function<void(const SecretResult&)>;

    explicit SecretStore(QObject* parent = nullptr);

    QString service() const { return m_service; }
    void setService(const QString& service) { m_service = service; }

    void read(const QString& key, Callback done);
    void write(const QString& key, const QString& value, Callback done);
    void remove(const QString& key, Callback done);

    SecretResult readBlocking(const QString& key);
    SecretResult writeBlocking(const QString& key, const QString& value);
    SecretResult removeBlocking(const QString& key);

    // The service name used when none is set: $HEARTH_KEYCHAIN_SERVICE, else
    // "Hearth".
    static QString defaultService();

private:
    SecretResult waitFor(const std::function<void(Callback)>& start);

    QString m_service;
};

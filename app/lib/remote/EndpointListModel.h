// Settings → Engines: the OpenAI-compatible servers the user added (name,
// base URL, optional headers, an extra trusted certificate, timeout), each
// with the models its /v1/models lists, for the model picker. The API key
// goes to the OS keychain (SecretStore, entry "endpoint/<id>/api-key"),
// never to settings.ini; the rest is in QSettings under endpoints/<id>/.
//
// lookup() is what the RemoteEngine calls on the inference worker to find
// the endpoint of a model URL, with the key read from the keychain on the
// GUI thread (asynchronously) when the endpoint's models were listed, kept
// in memory only. Everything else: GUI thread, asynchronous (keychain jobs
// and HTTP requests report back by signals).
#pragma once

#include "models/ModelEntry.h"
#include "remote/RemoteCall.h"
#include "remote/RemoteEngine.h"

#include <QAbstractListModel>
#include <QNetworkAccessManager>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>

#include <memory>

class QSettings;
class SecretStore;

class EndpointListModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by the session")
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
    Q_PROPERTY(bool testing READ testing NOTIFY testingChanged)

public:
    enum Roles {
        IdRole = Qt::UserRole + 1, // QString: stable id
        NameRole,                  // QString
        BaseUrlRole,               // QString: as typed
        HeadersRole,               // QString: "Name: value" lines
        HasKeyRole,                // bool: an API key is in the keychain
        HasCertificateRole,        // bool: an extra certificate is trusted
        TimeoutRole,               // int: seconds
        ExtendedSamplingRole,      // bool: top_k, min_p, repeat_penalty are sent
        ModelsRole,                // QStringList: model ids from the last listing
        StatusRole,                // QString: "3 models" or why listing failed
        StatusOkRole,              // bool
    };
    Q_ENUM(Roles)

    explicit EndpointListModel(QSettings* settings, QObject* parent = nullptr);
    ~EndpointListModel() override;

    bool testing() const { return m_testing > 0; }
    // For the RemoteEngine; safe to call from any thread.
    RemoteEngine::EndpointLookup lookup() const;
    // One picker entry per model of every endpoint (from the last listing).
    QList<ModelEntry> remoteModels() const;
    // The path (URL) of the picker entry for endpoint `id`'s model `modelId`.
    QString modelPath(const QString& id, const QString& modelId) const;

    // Adds (fields.id empty) or changes an endpoint. Fields: id, name,
    // baseUrl, apiKey ("" keeps the stored one), clearKey, headers,
    // certificateFile (a PEM file to trust; "" keeps), clearCertificate,
    // timeoutSeconds, extendedSampling. Returns "" or why the fields are
    // wrong; `saved` follows once the key is in the keychain, then the
    // models are listed.
    Q_INVOKABLE QString save(const QVariantMap& fields);
    Q_INVOKABLE void remove(const QString& id);
    // Lists the models with the given (unsaved) fields; `id` supplies the
    // stored key when apiKey is "". Reports through testFinished.
    Q_INVOKABLE void testConnection(const QVariantMap& fields);
    Q_INVOKABLE void refreshModels();
    Q_INVOKABLE int rowOf(const QString& id) const;
    Q_INVOKABLE QVariantMap get(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    static QString keyName(const QString& id) { return QStringLiteral("endpoint/%1/api-key").arg(id); }

signals:
    void countChanged();
    void testingChanged();
    void saved(const QString& id, const QString& error);
    void testFinished(bool ok, const QString& message, const QStringList& models);
    void remoteModelsChanged();

private:
    struct Row {
        RemoteEndpoint endpoint; // apiKey always "" here
        bool hasKey = false;
        QList<RemoteModel> models;
        QString status;
        bool ok = false;
    };
    struct Shared; // the endpoints the worker's lookup sees

    void load();
    void persist(const Row& row);
    void publish();
    void listModels(int row);
    void fetch(const RemoteEndpoint& endpoint, std::function<void(const RemoteFailure&, QList<RemoteModel>)> done);
    // Reads a form's fields into `e`; "" or why they are wrong.
    QString readFields(const QVariantMap& fields, RemoteEndpoint& e) const;

    QSettings* m_settings;
    SecretStore* m_secrets;
    QNetworkAccessManager m_network;
    QList<Row> m_rows;
    std::shared_ptr<Shared> m_shared;
    int m_testing = 0;
};

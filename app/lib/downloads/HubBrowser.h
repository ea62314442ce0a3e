// What the "Get models" page binds to: a search on the hub, one
// repository's GGUF files (split sets as one) with size, a rough fit and the
// recommended file, the selected file's header check (architecture, quant,
// parameters, trained context, template, fit: a few hundred KB read, never
// the weights), the token for gated repositories, and the downloads list.
//
// Results are snapshots (lists of maps) replaced wholesale per answer; the
// downloads list is a live model (DownloadsModel).
//
// Thread-safety: GUI thread only; every hub call is asynchronous.
#pragma once

#include "DownloadsModel.h"
#include "HubClient.h"

#include <QObject>
#include <QVariantList>
#include <QVariantMap>
#include <QtQml/qqmlregistration.h>

class SecretStore;

class HubBrowser : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QVariantList results READ results NOTIFY resultsChanged)
    Q_PROPERTY(QString repo READ repo NOTIFY filesChanged)
    Q_PROPERTY(QVariantList files READ files NOTIFY filesChanged)
    Q_PROPERTY(int recommended READ recommended NOTIFY filesChanged)
    Q_PROPERTY(QVariantMap header READ header NOTIFY headerChanged)
    // The file the header is of (-1: none yet), and why it could not be read.
    Q_PROPERTY(int headerIndex READ headerIndex NOTIFY headerChanged)
    Q_PROPERTY(QString headerError READ headerError NOTIFY headerChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    Q_PROPERTY(bool needsToken READ needsToken NOTIFY errorChanged)
    Q_PROPERTY(DownloadsModel* downloads READ downloads CONSTANT)
    // The -ngl setting the fit figures assume (the app's GPU layers setting).
    Q_PROPERTY(int gpuLayers READ gpuLayers WRITE setGpuLayers NOTIFY filesChanged)

public:
    explicit HubBrowser(QObject* parent = nullptr);

    QVariantList results() const { return m_results; }
    QString repo() const { return m_repo; }
    QVariantList files() const;
    int recommended() const { return m_recommended; }
    QVariantMap header() const { return m_header; }
    int headerIndex() const { return m_header.value(QStringLiteral("index"), -1).toInt(); }
    QString headerError() const { return m_header.value(QStringLiteral("error")).toString(); }
    bool busy() const { return m_pending > 0; }
    QString error() const { return m_error.message; }
    bool needsToken() const { return m_error.kind == HubErrorKind::Auth; }
    DownloadsModel* downloads() const { return m_downloads; }
    int gpuLayers() const { return m_hub->fitGpuLayers(); }
    void setGpuLayers(int layers);

    // sort: "downloads", "likes" or "updated".
    Q_INVOKABLE void search(const QString& query, const QString& sort = QStringLiteral("downloads"));
    Q_INVOKABLE void openRepo(const QString& repo);
    // Reads file `index`'s header from the hub (into header).
    Q_INVOKABLE void checkFile(int index);
    Q_INVOKABLE void download(int index);
    // Uses `token` from now on and keeps it in the keychain ("hub/token").
    Q_INVOKABLE void setToken(const QString& token);
    Q_INVOKABLE void clearError();

signals:
    void resultsChanged();
    void filesChanged();
    void headerChanged();
    void busyChanged();
    void errorChanged();

private:
    void setError(const HubError& error);
    void begin();
    void end();

    HubClient* m_hub;
    DownloadsModel* m_downloads;
    SecretStore* m_secrets;
    QVariantList m_results;
    QString m_repo, m_revision = QStringLiteral("main");
    QList<ModelFileChoice> m_choices;
    int m_recommended = -1;
    QVariantMap m_header;
    int m_pending = 0;
    int m_searchSerial = 0, m_repoSerial = 0, m_headerSerial = 0; // answers to older asks are dropped
    HubError m_error;
};

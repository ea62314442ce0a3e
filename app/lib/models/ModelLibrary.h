// The model picker's data: the models folders, scanned in the background
// by reading GGUF headers only (through the cache), plus single files the
// user opened or dropped (kept where they are and remembered). openFile()
// is the one path for a drop, "Open…" and a file named on the command
// line: validate, list, load.
//
// Persisted in QSettings: library/folders, library/files. GUI thread.
#pragma once

#include "models/ModelListModel.h"

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <QUrl>
#include <QtQml/qqmlregistration.h>

#include <atomic>
#include <memory>

class InferenceEngine;
class ModelCache;
class ModelLoader;
class QSettings;
class SettingsStore;

class ModelLibrary : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by the session")
    Q_PROPERTY(ModelListModel* models READ models CONSTANT)
    Q_PROPERTY(QStringList folders READ folders NOTIFY foldersChanged)
    Q_PROPERTY(bool scanning READ scanning NOTIFY scanningChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    Q_PROPERTY(int gpuLayers READ gpuLayers NOTIFY gpuLayersChanged)

public:
    ModelLibrary(std::shared_ptr<InferenceEngine> engine, std::shared_ptr<ModelCache> cache, ModelLoader* loader,
                 SettingsStore* settings, QSettings* store, QObject* parent = nullptr);
    ~ModelLibrary() override;

    ModelListModel* models() { return &m_models; }
    QStringList folders() const { return m_folders; }
    bool scanning() const { return m_scanning; }
    QString error() const { return m_error; }

    Q_INVOKABLE void rescan();
    Q_INVOKABLE void addFolder(const QUrl& folder);
    Q_INVOKABLE void removeFolder(const QString& folder);
    // Validates a file (a drop, "Open…", the command line), adds it where it
    // is and loads it. A file that is not a valid model sets `error`.
    Q_INVOKABLE void openFile(const QUrl& file);
    Q_INVOKABLE void openPath(const QString& path) { openFile(QUrl::fromLocalFile(path)); }
    // Lists a file Hearth has just written (a quantized model) without
    // loading it: its header is read off the GUI thread, the entry is added
    // (or replaced) and, outside the folders, remembered like an opened file.
    // A bad file sets `error`. Emits fileAdded(path) once it is listed.
    Q_INVOKABLE void addFile(const QString& path);
    Q_INVOKABLE void load(const QString& path);
    Q_INVOKABLE void clearError();
    // Whether a drag carries something worth offering a drop for.
    Q_INVOKABLE bool acceptsUrl(const QUrl& url) const;

    int gpuLayers() const; // the global -ngl setting the fit estimates assume

signals:
    void foldersChanged();
    void scanningChanged();
    void errorChanged();
    void scanFinished();
    void gpuLayersChanged();
    void fileAdded(const QString& path);

private:
    void setError(const QString& error);
    void setScanning(bool scanning);
    int contextSize() const;
    // Adds a valid entry to the list and, outside the folders, to library/files.
    void remember(const ModelEntry& entry);

    std::shared_ptr<InferenceEngine> m_engine;
    std::shared_ptr<ModelCache> m_cache;
    ModelLoader* m_loader;
    SettingsStore* m_settings;
    QSettings* m_store;
    ModelListModel m_models;
    QStringList m_folders;
    QStringList m_files;
    bool m_scanning = false;
    bool m_rescanQueued = false;
    QString m_error;
    QFutureWatcher<QList<ModelEntry>> m_scan;
    QFutureWatcher<ModelEntry> m_inspect;
    QList<QFutureWatcher<ModelEntry>*> m_adds; // addFile()s under way (children; waited for at the end)
    std::shared_ptr<std::atomic<bool>> m_cancel = std::make_shared<std::atomic<bool>>(false);
};

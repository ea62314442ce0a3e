#include "models/ModelLibrary.h"

#include "ModelPaths.h"
#include "models/ModelCache.h"
#include "models/ModelLoader.h"
#include "models/ModelScanner.h"
#include "settings/SettingsStore.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

ModelLibrary::ModelLibrary(std::shared_ptr<InferenceEngine> engine, std::shared_ptr<ModelCache> cache,
                           ModelLoader* loader, SettingsStore* settings, QSettings* store, QObject* parent)
    : QObject(parent)
    , m_engine(std::move(engine))
    , m_cache(std::move(cache))
    , m_loader(loader)
    , m_settings(settings)
    , m_store(store)
    , m_models(this)
{
    m_folders =
        m_store->value(QStringLiteral("library/folders"), QStringList{ModelPaths::defaultModelsDir()}).toStringList();
    m_files = m_store->value(QStringLiteral("library/files")).toStringList();
    connect(&m_scan, &QFutureWatcher<QList<ModelEntry>>::finished, this, [this] {
        m_models.setEntries(m_scan.result());
        m_models.setLoadedPath(m_loader->modelPath());
        setScanning(false);
        emit scanFinished();
        if (std::exchange(m_rescanQueued, false))
            rescan();
    });
    connect(m_loader, &ModelLoader::modelChanged, this, [this] { m_models.setLoadedPath(m_loader->modelPath()); });
    connect(m_loader, &ModelLoader::sha256Known, &m_models, &ModelListModel::setSha256);
    // The fit estimate assumes the global context and GPU layers: new ones, new estimates.
    connect(m_settings, &SettingsStore::changed, this, [this](const QString& modelPath, const QString& key) {
        if (modelPath.isEmpty() && (key == QLatin1String("contextSize") || key == QLatin1String("gpuLayers")))
            rescan();
        if (modelPath.isEmpty() && key == QLatin1String("gpuLayers"))
            emit gpuLayersChanged();
    });
}

ModelLibrary::~ModelLibrary()
{
    m_cancel->store(true);
    m_scan.waitForFinished();
    m_inspect.waitForFinished();
    for (QFutureWatcher<ModelEntry>* add : std::as_const(m_adds))
        add->waitForFinished();
}

int ModelLibrary::contextSize() const
{
    return m_settings->globalValue(QStringLiteral("contextSize")).toInt();
}

int ModelLibrary::gpuLayers() const
{
    return m_settings->globalValue(QStringLiteral("gpuLayers")).toInt();
}

void ModelLibrary::setScanning(bool scanning)
{
    if (scanning != m_scanning) {
        m_scanning = scanning;
        emit scanningChanged();
    }
}

void ModelLibrary::setError(const QString& error)
{
    if (error != m_error) {
        m_error = error;
        emit errorChanged();
    }
}

void ModelLibrary::clearError()
{
    setError({});
}

void ModelLibrary::rescan()
{
    if (m_scanning) {
        m_rescanQueued = true;
        return;
    }
    setScanning(true);
    m_scan.setFuture(QtConcurrent::run([folders = m_folders, files = m_files, cache = m_cache, engine = m_engine,
                                        context = contextSize(), ngl = gpuLayers(), cancel = m_cancel] {
        return ModelScanner::scan(folders, files, *cache, *engine, context, *cancel, ngl);
    }));
}

void ModelLibrary::addFolder(const QUrl& folder)
{
    const QString path = QDir::cleanPath(folder.isLocalFile() ? folder.toLocalFile() : folder.toString());
    if (path.isEmpty() || m_folders.contains(path))
        return;
    if (!QFileInfo(path).isDir()) {
        setError(tr("%1 is not a folder.").arg(path));
        return;
    }
    setError({});
    m_folders.append(path);
    m_store->setValue(QStringLiteral("library/folders"), m_folders);
    emit foldersChanged();
    rescan();
}

void ModelLibrary::removeFolder(const QString& folder)
{
    if (m_folders.removeAll(folder) == 0)
        return;
    m_store->setValue(QStringLiteral("library/folders"), m_folders);
    emit foldersChanged();
    rescan();
}

bool ModelLibrary::acceptsUrl(const QUrl& url) const
{
    return url.isLocalFile() && url.toLocalFile().endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive);
}

void ModelLibrary::openFile(const QUrl& file)
{
    const QString path = file.isLocalFile() ? file.toLocalFile() : file.toString();
    setError({});
    // Reading a header is quick but touches the disk: not on the GUI thread.
    m_inspect.disconnect(this);
    connect(&m_inspect, &QFutureWatcher<ModelEntry>::finished, this, [this] {
        const ModelEntry entry = m_inspect.result();
        if (!entry.isValid()) {
            setError(entry.error);
            return;
        }
        remember(entry);
        load(entry.path);
    });
    m_inspect.setFuture(
        QtConcurrent::run([path, cache = m_cache, engine = m_engine, context = contextSize(), ngl = gpuLayers()] {
            if (!path.endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive) && !QFileInfo(path).isFile()) {
                ModelEntry e;
                e.path = path;
                e.error = ModelLibrary::tr("%1 is not a file.").arg(path);
                return e;
            }
            return ModelScanner::inspect(path, *cache, *engine, context, ngl);
        }));
}

void ModelLibrary::remember(const ModelEntry& entry)
{
    m_models.upsert(entry);
    const bool inFolder = std::any_of(m_folders.cbegin(), m_folders.cend(), [&](const QString& folder) {
        return entry.path.startsWith(QDir(folder).canonicalPath() + QLatin1Char('/'));
    });
    if (!inFolder && !m_files.contains(entry.path)) {
        m_files.append(entry.path);
        m_store->setValue(QStringLiteral("library/files"), m_files);
    }
}

void ModelLibrary::addFile(const QString& path)
{
    // One watcher per call: an add never drops the answer of another, or of openFile().
    auto* watcher = new QFutureWatcher<ModelEntry>(this);
    connect(watcher, &QFutureWatcher<ModelEntry>::finished, this, [this, watcher] {
        m_adds.removeOne(watcher);
        watcher->deleteLater();
        const ModelEntry entry = watcher->result();
        if (!entry.isValid()) {
            setError(entry.error);
            return;
        }
        remember(entry);
        m_models.setLoadedPath(m_loader->modelPath());
        emit fileAdded(entry.path);
    });
    m_adds.append(watcher);
    watcher->setFuture(
        QtConcurrent::run([path, cache = m_cache, engine = m_engine, context = contextSize(), ngl = gpuLayers()] {
            return ModelScanner::inspect(path, *cache, *engine, context, ngl);
        }));
}

void ModelLibrary::load(const QString& path)
{
    m_loader->load(path);
}

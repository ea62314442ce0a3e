#include "models/ModelLoader.h"

#include "engine/InferenceService.h"
#include "models/ModelCache.h"
#include "models/ModelScanner.h"
#include "remote/RemoteEndpoint.h"
#include "settings/SettingsStore.h"
#include "ui/Format.h"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

ModelLoader::ModelLoader(InferenceService* service, SettingsStore* settings, std::shared_ptr<ModelCache> cache,
                         QObject* parent)
    : QObject(parent), m_service(service), m_settings(settings), m_cache(std::move(cache))
{
}

ModelLoader::~ModelLoader()
{
    m_hashCancel->store(true);
    m_hashWatcher.waitForFinished();
}

QString ModelLoader::modelName() const
{
    if (!m_facts.name.isEmpty())
        return m_facts.name;
    return m_loadingPath.isEmpty() ? QString() : QFileInfo(m_loadingPath).completeBaseName();
}

QString ModelLoader::summary() const
{
    if (m_facts.path.isEmpty())
        return {};
    if (!m_facts.endpoint.isEmpty()) // a remote model: the server holds the rest
        return m_facts.contextSize > 0 ? tr("remote on %1 · context %2").arg(m_facts.endpoint).arg(m_facts.contextSize)
                                       : tr("remote on %1").arg(m_facts.endpoint);
    return tr("%1 · %2 parameters · %3 · context %4")
        .arg(m_facts.architecture, Format::count(m_facts.parameters), m_facts.quant)
        .arg(m_facts.contextSize);
}

void ModelLoader::setStatus(Status status)
{
    if (status != m_status) {
        m_status = status;
        emit statusChanged();
    }
}

void ModelLoader::setError(const QString& error)
{
    if (error != m_error) {
        m_error = error;
        emit errorChanged();
    }
}

void ModelLoader::load(const QString& path)
{
    if (m_reply)
        m_reply->cancel(); // its failure (cancelled) is ignored: m_reply changes below
    m_loadingPath = path;
    m_facts = {};
    m_sha256.clear();
    m_progress = 0;
    setError({});
    setStatus(Loading);
    emit progressChanged();
    emit modelChanged();

    LoadReply* reply = m_service->load(path, m_settings->loadParams(path));
    m_reply = reply;
    connect(reply, &LoadReply::progress, this, [this, reply](double fraction) {
        if (reply != m_reply)
            return;
        m_progress = fraction;
        emit progressChanged();
    });
    connect(reply, &LoadReply::finished, this, [this, reply](const ModelFacts& facts) {
        if (reply != m_reply)
            return;
        m_facts = facts;
        m_progress = 1;
        emit progressChanged();
        emit modelChanged();
        setStatus(Loaded);
        if (!isRemoteModelPath(facts.path)) // a server's model has no file to hash
            startHashing(facts.path);
    });
    connect(reply, &LoadReply::failed, this, [this, reply](const QString& message, bool cancelled) {
        if (reply != m_reply)
            return;
        m_loadingPath.clear();
        emit modelChanged();
        setError(cancelled ? QString() : message);
        setStatus(cancelled ? Empty : Failed);
    });
}

void ModelLoader::cancel()
{
    if (m_reply)
        m_reply->cancel();
}

void ModelLoader::unload()
{
    cancel();
    m_reply = nullptr;
    m_service->unload();
    m_facts = {};
    m_loadingPath.clear();
    m_sha256.clear();
    emit modelChanged();
    setStatus(Empty);
}

void ModelLoader::reload()
{
    if (!modelPath().isEmpty())
        load(modelPath());
}

void ModelLoader::startHashing(const QString& path)
{
    const QFileInfo fi(path);
    const qint64 size = fi.size();
    const QDateTime modified = fi.lastModified();
    if (const QString known = m_cache->sha256(path, size, modified); !known.isEmpty()) {
        m_sha256 = known;
        emit sha256Known(path, known);
        return;
    }
    m_hashWatcher.disconnect(this);
    connect(&m_hashWatcher, &QFutureWatcher<QString>::finished, this, [this, path, size, modified] {
        m_hashing = false;
        const QString sha = m_hashWatcher.result();
        if (sha.isEmpty())
            return;
        m_cache->setSha256(path, size, modified, sha);
        m_cache->save();
        if (path == m_facts.path)
            m_sha256 = sha;
        emit sha256Known(path, sha);
    });
    m_hashing = true;
    m_hashWatcher.setFuture(
        QtConcurrent::run([path, cancel = m_hashCancel] { return ModelScanner::sha256(path, *cancel); }));
}

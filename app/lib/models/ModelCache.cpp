#include "models/ModelCache.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace {

QJsonObject toJson(const ModelEntry& e)
{
    return {{QStringLiteral("path"), e.path},
            {QStringLiteral("size"), e.fileSize},
            {QStringLiteral("modified"), e.modified.toMSecsSinceEpoch()},
            {QStringLiteral("name"), e.name},
            {QStringLiteral("architecture"), e.architecture},
            {QStringLiteral("quant"), e.quant},
            {QStringLiteral("parameters"), e.parameters},
            {QStringLiteral("trainedContext"), e.trainedContext},
            {QStringLiteral("requiredBytes"), e.requiredBytes},
            {QStringLiteral("estimateContext"), e.estimateContext},
            {QStringLiteral("estimateGpuLayers"), e.estimateGpuLayers},
            {QStringLiteral("sha256"), e.sha256},
            {QStringLiteral("error"), e.error}};
}

ModelEntry fromJson(const QJsonObject& o)
{
    ModelEntry e;
    e.path = o.value(QStringLiteral("path")).toString();
    e.fileSize = qint64(o.value(QStringLiteral("size")).toDouble());
    e.modified = QDateTime::fromMSecsSinceEpoch(qint64(o.value(QStringLiteral("modified")).toDouble()));
    e.name = o.value(QStringLiteral("name")).toString();
    e.architecture = o.value(QStringLiteral("architecture")).toString();
    e.quant = o.value(QStringLiteral("quant")).toString();
    e.parameters = qint64(o.value(QStringLiteral("parameters")).toDouble());
    e.trainedContext = o.value(QStringLiteral("trainedContext")).toInt();
    e.requiredBytes = qint64(o.value(QStringLiteral("requiredBytes")).toDouble());
    e.estimateContext = o.value(QStringLiteral("estimateContext")).toInt();
    e.estimateGpuLayers = o.value(QStringLiteral("estimateGpuLayers")).toInt();
    e.sha256 = o.value(QStringLiteral("sha256")).toString();
    e.error = o.value(QStringLiteral("error")).toString();
    return e;
}

constexpr int kVersion = 2; // of the file's format and of what its entries mean

} // namespace

ModelCache::ModelCache(QString file) : m_file(std::move(file))
{
    load();
}

void ModelCache::load()
{
    QFile f(m_file);
    if (m_file.isEmpty() || !f.open(QIODevice::ReadOnly))
        return;
    const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    // Version 2: names from HeaderFacts::displayName; older entries are read again.
    if (root.value(QStringLiteral("version")).toInt() != kVersion)
        return;
    const QJsonArray entries = root.value(QStringLiteral("models")).toArray();
    for (const QJsonValue& v : entries) {
        const ModelEntry e = fromJson(v.toObject());
        if (!e.path.isEmpty())
            m_entries.insert(e.path, e);
    }
}

void ModelCache::save() const
{
    if (m_file.isEmpty())
        return;
    QJsonArray entries;
    {
        QMutexLocker lock(&m_mutex);
        for (const ModelEntry& e : m_entries)
            if (QFileInfo::exists(e.path)) // forget files that are gone
                entries.append(toJson(e));
    }
    QDir().mkpath(QFileInfo(m_file).absolutePath());
    QSaveFile f(m_file);
    if (f.open(QIODevice::WriteOnly)) {
        f.write(QJsonDocument(QJsonObject{{QStringLiteral("version"), kVersion}, {QStringLiteral("models"), entries}})
                    .toJson(QJsonDocument::Compact));
        f.commit();
    }
}

std::optional<ModelEntry> ModelCache::find(const QString& path, qint64 size, const QDateTime& modified) const
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_entries.constFind(path);
    if (it == m_entries.cend() || it->fileSize != size ||
        it->modified.toMSecsSinceEpoch() != modified.toMSecsSinceEpoch())
        return std::nullopt;
    if (it->architecture.isEmpty() && it->error.isEmpty())
        return std::nullopt; // only a hash is known
    return *it;
}

QString ModelCache::sha256(const QString& path, qint64 size, const QDateTime& modified) const
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_entries.constFind(path);
    if (it == m_entries.cend() || it->fileSize != size ||
        it->modified.toMSecsSinceEpoch() != modified.toMSecsSinceEpoch())
        return {};
    return it->sha256;
}

void ModelCache::put(const ModelEntry& entry)
{
    QMutexLocker lock(&m_mutex);
    ModelEntry& slot = m_entries[entry.path];
    const QString knownHash =
        slot.fileSize == entry.fileSize && slot.modified == entry.modified ? slot.sha256 : QString();
    slot = entry;
    if (slot.sha256.isEmpty())
        slot.sha256 = knownHash;
}

void ModelCache::setSha256(const QString& path, qint64 size, const QDateTime& modified, const QString& sha256)
{
    QMutexLocker lock(&m_mutex);
    ModelEntry& slot = m_entries[path];
    if (slot.path.isEmpty()) {
        slot.path = path;
        slot.fileSize = size;
        slot.modified = modified;
    }
    if (slot.fileSize == size && slot.modified.toMSecsSinceEpoch() == modified.toMSecsSinceEpoch())
        slot.sha256 = sha256;
}

#include "models/ModelScanner.h"

#include "engine/HeaderFacts.h"
#include "gauges/SystemMemory.h"
#include "gguf/model_info.h"
#include "gguf/split_name.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSet>

namespace ModelScanner {

ModelEntry inspect(const QString& path, ModelCache& cache, const InferenceEngine& engine, int contextSize,
                   int gpuLayers)
{
    const QFileInfo fi(path);
    const QString canonical = fi.exists() ? fi.canonicalFilePath() : fi.absoluteFilePath();
    const qint64 size = fi.size();
    const QDateTime modified = fi.lastModified();
    // A GPU estimate depends on the device's free memory now: never cached.
    if (auto cached = cache.find(canonical, size, modified);
        cached && cached->estimateContext == contextSize && cached->estimateGpuLayers == 0 && gpuLayers == 0) {
        cached->availableBytes = SystemMemory::availableBytes();
        return *cached;
    }
    ModelEntry e;
    e.path = canonical;
    e.fileSize = size;
    e.modified = modified;
    e.name = fi.completeBaseName();
    e.estimateContext = contextSize;
    e.estimateGpuLayers = gpuLayers;
    try {
        const hearth::gguf::ModelInfo info = HeaderFacts::readHeader(canonical);
        const ModelFacts facts = HeaderFacts::factsFrom(info, contextSize);
        e.name = facts.name;
        e.architecture = facts.architecture;
        e.quant = facts.quant;
        e.parameters = facts.parameters;
        e.trainedContext = facts.trainedContext;
        const FitEstimate fit = engine.estimate(canonical, {contextSize, 0, gpuLayers});
        e.requiredBytes = fit.requiredBytes;
        e.availableBytes = fit.availableBytes;
        e.gpuRequiredBytes = fit.gpuRequiredBytes;
        e.gpuAvailableBytes = fit.gpuAvailableBytes;
        e.gpuLayers = fit.gpuLayers;
        e.layerCount = fit.layerCount;
    } catch (const EngineError& error) {
        e.error = error.message();
    }
    cache.put(e);
    return e;
}

QList<ModelEntry> scan(const QStringList& folders, const QStringList& files, ModelCache& cache,
                       const InferenceEngine& engine, int contextSize, const std::atomic<bool>& cancel, int gpuLayers)
{
    QStringList paths;
    for (const QString& folder : folders) {
        QDirIterator it(folder, {QStringLiteral("*.gguf"), QStringLiteral("*.GGUF")}, QDir::Files | QDir::Readable,
                        QDirIterator::Subdirectories | QDirIterator::FollowSymlinks);
        while (it.hasNext()) {
            const QString path = it.next();
            // A later part of a split model is not a model of its own: the first part loads them all.
            const std::optional<hearth::gguf::SplitName> split = hearth::gguf::parseSplitName(path.toStdString());
            if (!split || split->part == 1)
                paths.append(path);
        }
    }
    paths += files;

    QList<ModelEntry> entries;
    QSet<QString> seen;
    for (const QString& path : std::as_const(paths)) {
        if (cancel.load())
            break;
        if (!QFileInfo::exists(path))
            continue;
        ModelEntry e = inspect(path, cache, engine, contextSize, gpuLayers);
        if (seen.contains(e.path))
            continue;
        seen.insert(e.path);
        entries.append(std::move(e));
    }
    std::sort(entries.begin(), entries.end(), [](const ModelEntry& a, const ModelEntry& b) {
        const int c = QString::compare(a.name, b.name, Qt::CaseInsensitive);
        return c != 0 ? c < 0 : a.path < b.path;
    });
    cache.save();
    return entries;
}

QString sha256(const QString& path, const std::atomic<bool>& cancel)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    QByteArray block(4 << 20, Qt::Uninitialized);
    while (!f.atEnd()) {
        if (cancel.load())
            return {};
        const qint64 n = f.read(block.data(), block.size());
        if (n < 0)
            return {};
        hash.addData(QByteArrayView(block.constData(), n));
    }
    return QString::fromLatin1(hash.result().toHex());
}

} // namespace ModelScanner

// Finds model files and reads what the picker shows from their headers
// only, through the cache. Runs on a worker thread (QtConcurrent); pure
// functions of their arguments apart from the cache, which is thread-safe.
#pragma once

#include "engine/InferenceEngine.h"
#include "models/ModelCache.h"

#include <QStringList>

#include <atomic>

namespace ModelScanner {

// Every *.gguf under `folders` (recursively; of a split model only the
// first part) plus `files`, each inspected; sorted by name. Stops early when
// `cancel` becomes true.
QList<ModelEntry> scan(const QStringList& folders, const QStringList& files, ModelCache& cache,
                       const InferenceEngine& engine, int contextSize, const std::atomic<bool>& cancel,
                       int gpuLayers = 0);

// Header facts and fit estimate of one file (for a context of `contextSize`
// and `gpuLayers` as -ngl counts them: the GPU term), from the cache when the
// file is unchanged and nothing goes to the GPU. A bad file gives an entry
// whose `error` says what is wrong.
ModelEntry inspect(const QString& path, ModelCache& cache, const InferenceEngine& engine, int contextSize,
                   int gpuLayers = 0);

// SHA-256 of a file, read in 4 MiB blocks; "" if cancelled or unreadable.
QString sha256(const QString& path, const std::atomic<bool>& cancel);

} // namespace ModelScanner

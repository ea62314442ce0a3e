// The app-level engine interface: what the inference worker drives. It
// mirrors the engine's session API (core/runtime): load with progress and
// cancellation, chat generation that streams UTF-8-complete text pieces with
// live statistics, stop, unload, memory figures and a fit estimate.
//
// Implementations: FakeEngine (always built: tests, benchmarks, the offline
// UI build) and, once core/runtime exists, an adapter over it. Adding the
// adapter means one class implementing these methods plus one line in
// EngineFactory.
//
// Threading contract: load(), unload() and generate() are called on the
// inference worker's thread only, one at a time; they block. memory(),
// estimate() and kind() may be called from any thread at any time (the gauge
// sampler and the model scanner do).
#pragma once

#include "engine/EngineTypes.h"

#include <atomic>
#include <functional>

class InferenceEngine {
public:
    // fraction in [0, 1], called on the loading thread, at most ~100 times.
    using Progress = std::function<void(double fraction)>;
    // One piece of reply text (whole UTF-8 characters) with the statistics so far.
    using PieceSink = std::function<void(const QString& piece, const GenerationStats& soFar)>;

    virtual ~InferenceEngine() = default;

    // "fake" or "cpu": recorded with each reply and shown in About.
    virtual QString kind() const = 0;

    // Validates and loads `path`, replacing the model loaded before. Throws
    // EngineError with a clear message for a bad file, EngineCancelled when
    // `cancel` became true (checked between steps; the previous model is then
    // unloaded too).
    virtual ModelFacts load(const QString& path, const LoadParams& params, const Progress& progress,
                            const std::atomic<bool>& cancel) = 0;
    virtual void unload() = 0;
    virtual bool isLoaded() const = 0;

    // Generates the assistant's reply to `turns` (chat template applied by the
    // engine, cached prefix reused). Calls `sink` for every piece; returns the
    // final statistics. Returns within one token once `stop` is true (stop
    // reason Stopped). Throws EngineError when no model is loaded.
    virtual GenerationStats generate(const QList<ChatTurn>& turns, const SamplerSettings& sampler,
                                     const PieceSink& sink, const std::atomic<bool>& stop) = 0;

    // Current figures; zero when nothing is loaded. Any thread; cheap.
    virtual MemoryFigures memory() const = 0;

    // Memory needed to load `path` with `params`, from the header only.
    // Any thread. Throws EngineError for a file that is not a valid model.
    virtual FitEstimate estimate(const QString& path, const LoadParams& params) const = 0;
};

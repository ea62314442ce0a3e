// An engine that behaves like the real one without running a model: it
// validates and summarizes the GGUF header (so bad files fail the same way),
// "loads" with progress and cancellation, and streams realistic Markdown
// (FakeMarkdown) at a configurable rate, honouring stop within one piece,
// max tokens and the context size (with context shifts). Kept permanently:
// tests, benchmarks and the offline UI build use it.
//
// Thread-safety: as InferenceEngine; memory() reads atomics.
#pragma once

#include "engine/InferenceEngine.h"

#include <QMutex>

class FakeEngine : public InferenceEngine {
public:
    struct Options {
        double tokensPerSecond = 40;         // generation rate; <= 0: as fast as possible
        double promptTokensPerSecond = 4000; // simulated prompt processing speed
        int loadMs = 600;                    // simulated load time
        bool fillToMaxTokens = false;        // keep writing until max tokens (benchmarks)
        bool citeSources = true;             // answers to numbered sources cite them (as large models do)
        // From HEARTH_FAKE_TPS, HEARTH_FAKE_LOAD_MS, HEARTH_FAKE_FILL=1,
        // HEARTH_FAKE_CITE=0 where set.
        static Options fromEnvironment();
    };

    explicit FakeEngine(Options options = Options::fromEnvironment());

    QString kind() const override { return QStringLiteral("fake"); }
    ModelFacts load(const QString& path, const LoadParams& params, const Progress& progress,
                    const std::atomic<bool>& cancel) override;
    void unload() override;
    bool isLoaded() const override { return m_loaded.load(); }
    GenerationStats generate(const QList<ChatTurn>& turns, const SamplerSettings& sampler, const PieceSink& sink,
                             const std::atomic<bool>& stop) override;
    MemoryFigures memory() const override;
    FitEstimate estimate(const QString& path, const LoadParams& params) const override;

private:
    // Sleeps until `deadlineMs` on `clock`, waking every few ms to check `stop`.
    static bool waitUntil(qint64 deadlineMs, const class QElapsedTimer& clock, const std::atomic<bool>& stop);

    Options m_options;
    std::atomic<bool> m_loaded{false};
    std::atomic<qint64> m_weightsMapped{0};
    std::atomic<qint64> m_weightsResident{0};
    std::atomic<qint64> m_kvCache{0};
    std::atomic<qint64> m_scratch{0};
    int m_contextSize = 0; // worker thread only
    int m_contextUsed = 0; // tokens kept from earlier turns (prefix reuse)
};

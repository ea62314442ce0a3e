// The app's engine when remote endpoints exist: local files go to the
// local engine (CoreEngine or FakeEngine), model URLs (http/https, see
// RemoteEndpoint::modelUrl) to the RemoteEngine. Loading one unloads the
// other, so one model is active at a time, as before. kind() stays the local
// engine's; each load's ModelFacts::engine says which one loaded it.
//
// Threading: as InferenceEngine. memory(), estimate(), kind() from any
// thread; the active engine changes only in load()/unload() on the worker.
#pragma once

#include "engine/InferenceEngine.h"

#include <memory>

class EngineRouter : public InferenceEngine {
public:
    EngineRouter(std::shared_ptr<InferenceEngine> local, std::shared_ptr<InferenceEngine> remote);

    QString kind() const override { return m_local->kind(); }
    ModelFacts load(const QString& path, const LoadParams& params, const Progress& progress,
                    const std::atomic<bool>& cancel) override;
    void unload() override;
    bool isLoaded() const override;
    GenerationStats generate(const QList<ChatTurn>& turns, const SamplerSettings& sampler, const PieceSink& sink,
                             const std::atomic<bool>& stop) override;
    MemoryFigures memory() const override { return m_local->memory(); } // a remote model uses none here
    FitEstimate estimate(const QString& path, const LoadParams& params) const override;

    InferenceEngine& local() const { return *m_local; }

private:
    InferenceEngine& engineFor(const QString& path) const;

    std::shared_ptr<InferenceEngine> m_local, m_remote;
    std::atomic<InferenceEngine*> m_active{nullptr};
};

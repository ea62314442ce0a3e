#include "remote/EngineRouter.h"

#include "remote/RemoteEndpoint.h"

EngineRouter::EngineRouter(std::shared_ptr<InferenceEngine> local, std::shared_ptr<InferenceEngine> remote)
    : m_local(std::move(local)), m_remote(std::move(remote))
{
}

InferenceEngine& EngineRouter::engineFor(const QString& path) const
{
    return isRemoteModelPath(path) ? *m_remote : *m_local;
}

ModelFacts EngineRouter::load(const QString& path, const LoadParams& params, const Progress& progress,
                              const std::atomic<bool>& cancel)
{
    InferenceEngine& target = engineFor(path);
    InferenceEngine& other = &target == m_local.get() ? *m_remote : *m_local;
    m_active = nullptr;
    other.unload(); // one model at a time: free the local one's memory
    ModelFacts facts = target.load(path, params, progress, cancel);
    m_active = &target;
    return facts;
}

void EngineRouter::unload()
{
    m_active = nullptr;
    m_local->unload();
    m_remote->unload();
}

bool EngineRouter::isLoaded() const
{
    InferenceEngine* active = m_active.load();
    return active && active->isLoaded();
}

GenerationStats EngineRouter::generate(const QList<ChatTurn>& turns, const SamplerSettings& sampler,
                                       const PieceSink& sink, const std::atomic<bool>& stop)
{
    InferenceEngine* active = m_active.load();
    if (!active)
        throw EngineError(QStringLiteral("No model is loaded."));
    return active->generate(turns, sampler, sink, stop);
}

FitEstimate EngineRouter::estimate(const QString& path, const LoadParams& params) const
{
    return engineFor(path).estimate(path, params);
}

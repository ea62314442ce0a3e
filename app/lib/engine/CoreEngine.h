// The real engine behind InferenceEngine: core/runtime on the CPU backend,
// with the layers the GPU layers setting asks for on the Vulkan GPU (when
// there is none, the first load says so once and runs on the CPU).
// One loaded model, one context and one session (sequence 0); each request
// renders the whole conversation with the model's chat template and the
// session evaluates only what its cache does not hold yet (a new turn costs
// its new tokens). Built only where core/runtime exists (CMake checks).
//
// Thread-safety: as InferenceEngine. load/generate/unload on the worker
// thread; memory() reads figures the worker refreshes (after a load, and a
// few times a second while generating); estimate() uses its own one-thread
// backend under a mutex.
#pragma once

#include "engine/InferenceEngine.h"

#include <memory>

namespace hearth {
class Backend;
class Context;
class LoadedModel;
class Session;
namespace cpu {
class CpuBackend;
}
} // namespace hearth

class CoreEngine : public InferenceEngine {
public:
    CoreEngine();
    ~CoreEngine() override;

    QString kind() const override { return QStringLiteral("cpu"); }
    ModelFacts load(const QString& path, const LoadParams& params, const Progress& progress,
                    const std::atomic<bool>& cancel) override;
    void unload() override;
    bool isLoaded() const override { return m_loaded.load(); }
    GenerationStats generate(const QList<ChatTurn>& turns, const SamplerSettings& sampler, const PieceSink& sink,
                             const std::atomic<bool>& stop) override;
    MemoryFigures memory() const override;
    FitEstimate estimate(const QString& path, const LoadParams& params) const override;

private:
    void refreshMemory(); // worker thread: reads the context's figures into the atomics

    std::unique_ptr<hearth::cpu::CpuBackend> m_backend;
    std::unique_ptr<hearth::Backend> m_device; // the GPU, while layers are on it
    std::shared_ptr<const hearth::LoadedModel> m_model;
    std::unique_ptr<hearth::Context> m_context;
    std::unique_ptr<hearth::Session> m_session;
    std::atomic<bool> m_loaded{false};
    std::atomic<qint64> m_weightsMapped{0}, m_weightsResident{0}, m_kv{0}, m_scratch{0}, m_gpuUsed{0}, m_gpuTotal{0};
};

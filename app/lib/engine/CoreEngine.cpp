#include "engine/CoreEngine.h"

#include "chat/value.h"
#include "cpu/cpu_backend.h"
#include "engine/FitEstimator.h"
#include "engine/HeaderFacts.h"
#include "gguf/model_info.h"
#include "runtime/loaded_model.h"
#include "runtime/memory.h"
#include "runtime/text_generation.h"
#include "util/error.h"

#include <QElapsedTimer>
#include <QFileInfo>

#include <algorithm>

#if defined(HEARTH_HAVE_VULKAN)
#include "vulkan/vulkan_backend.h"
#endif

namespace {

std::string roleName(ChatTurn::Role role)
{
    switch (role) {
    case ChatTurn::Role::System: return "system";
    case ChatTurn::Role::Assistant: return "assistant";
    case ChatTurn::Role::User: break;
    }
    return "user";
}

StopReason stopReason(hearth::StopReason r)
{
    switch (r) {
    case hearth::StopReason::EndOfGeneration:
    case hearth::StopReason::Caller: return StopReason::EndOfGeneration; // a stop string
    case hearth::StopReason::MaxTokens: return StopReason::MaxTokens;
    case hearth::StopReason::Cancelled: return StopReason::Stopped;
    case hearth::StopReason::ContextFull: return StopReason::MaxTokens;
    }
    return StopReason::None;
}

// The prompt tokens of `turns` with the model's template (generation
// prompt added), as llama.cpp's chat would make them.
std::vector<hearth::TokenId> promptTokens(const hearth::LoadedModel& model, const QList<ChatTurn>& turns)
{
    hearth::chat::Value messages = hearth::chat::Value::array();
    for (const ChatTurn& t : turns) {
        hearth::chat::Value m = hearth::chat::Value::object();
        m.set("role", hearth::chat::Value(roleName(t.role)));
        m.set("content", hearth::chat::Value(t.text.toStdString()));
        messages.push(std::move(m));
    }
    const hearth::Tokenizer& tok = model.tokenizer();
    hearth::chat::RenderOptions options;
    options.addGenerationPrompt = true;
    if (tok.bos() >= 0)
        options.bosToken = std::string(tok.tokenText(tok.bos()));
    if (tok.eos() >= 0)
        options.eosToken = std::string(tok.tokenText(tok.eos()));
    return model.tokenizePrompt(model.chatTemplate().render(messages, options));
}

// The GPU for `layers` (-ngl count, -1 auto), or null with `notice` set
// the first time a GPU was asked for and none was found.
std::unique_ptr<hearth::Backend> openGpu(int layers, QString& notice)
{
    if (layers == 0)
        return nullptr;
    static std::atomic<bool> told{false};
#if defined(HEARTH_HAVE_VULKAN)
    try {
        return hearth::vulkan::createBackend();
    } catch (const std::exception& e) {
        if (!told.exchange(true))
            notice =
                QStringLiteral("No Vulkan GPU was found (%1): running on the CPU.").arg(QString::fromUtf8(e.what()));
    }
#else
    if (!told.exchange(true))
        notice = QStringLiteral("This build has no GPU backend: running on the CPU.");
#endif
    return nullptr;
}

} // namespace

CoreEngine::CoreEngine() = default;

CoreEngine::~CoreEngine()
{
    unload();
}

ModelFacts CoreEngine::load(const QString& path, const LoadParams& params, const Progress& progress,
                            const std::atomic<bool>& cancel)
{
    unload();
    QString notice;
    try {
        m_backend = std::make_unique<hearth::cpu::CpuBackend>(params.threads);
        m_device = openGpu(params.gpuLayers, notice);
        hearth::LoadOptions options;
        options.progress = [&](double fraction, const char*) {
            if (progress)
                progress(fraction);
        };
        options.cancel = &cancel;
        hearth::ContextParams cp;
        cp.nCtx = params.contextSize;
        options.device = m_device.get();
        options.gpuLayers = m_device ? params.gpuLayers : 0;
        options.context = cp;
        m_model = hearth::LoadedModel::load(path.toStdString(), *m_backend, options);
        m_context = std::make_unique<hearth::Context>(m_model->modelShared(), *m_backend, cp);
        m_session = std::make_unique<hearth::Session>(*m_context, 0);
    } catch (const hearth::Cancelled&) {
        unload();
        throw EngineCancelled();
    } catch (const std::exception& e) {
        unload();
        throw EngineError(QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(e.what())));
    }
    m_loaded = true;
    refreshMemory();

    const hearth::gguf::ModelInfo info = hearth::gguf::summarize(m_model->file());
    ModelFacts f;
    f.path = path;
    f.name = HeaderFacts::displayName(info);
    f.architecture = QString::fromStdString(info.architecture);
    f.quant = QString::fromStdString(info.quantLabel());
    f.parameters = info.parameters;
    f.fileSize = qint64(info.fileSize);
    f.trainedContext = int(std::min<int64_t>(info.contextLength, 1 << 30));
    f.contextSize = int(m_context->size());
    f.chatTemplate =
        QString::fromUtf8(m_model->chatTemplate().name().data(), qsizetype(m_model->chatTemplate().name().size()));
    f.warning = QString::fromStdString(m_model->templateWarning());
    for (const QString& extra : {notice, QString::fromStdString(m_model->placementNote())})
        if (!extra.isEmpty())
            f.warning += (f.warning.isEmpty() ? QString() : QStringLiteral(" ")) + extra;
    f.memory = memory();
    return f;
}

void CoreEngine::unload()
{
    m_loaded = false;
    m_session.reset();
    m_context.reset();
    m_model.reset();
    m_device.reset();
    m_backend.reset();
    m_weightsMapped = m_weightsResident = m_kv = m_scratch = m_gpuUsed = m_gpuTotal = 0;
}

void CoreEngine::refreshMemory()
{
    if (!m_context)
        return;
    const hearth::MemoryUsage m = m_context->memory();
    m_weightsMapped = qint64(m.weightsMapped);
    m_weightsResident = qint64(m.weightsResident);
    m_kv = qint64(m.kv);
    m_scratch = qint64(m.scratch);
    m_gpuUsed = qint64(m.deviceWeights + m.deviceKv + m.deviceScratch);
    m_gpuTotal = m_device && m_model->model().placement().usesDevice() ? qint64(m_device->device().memoryTotal) : 0;
}

MemoryFigures CoreEngine::memory() const
{
    MemoryFigures m;
    m.weightsMapped = m_weightsMapped;
    m.weightsResident = m_weightsResident;
    m.kvCache = m_kv;
    m.scratch = m_scratch;
    m.gpuUsed = m_gpuUsed;
    m.gpuTotal = m_gpuTotal;
    return m;
}

FitEstimate CoreEngine::estimate(const QString& path, const LoadParams& params) const
{
    try {
        const hearth::gguf::File file(path.toStdString());
        return FitEstimator::estimate(file, params.contextSize, params.gpuLayers);
    } catch (const std::exception& e) {
        throw EngineError(QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(e.what())));
    }
}

GenerationStats CoreEngine::generate(const QList<ChatTurn>& turns, const SamplerSettings& sampler,
                                     const PieceSink& sink, const std::atomic<bool>& stop)
{
    if (!m_loaded)
        throw EngineError(QStringLiteral("No model is loaded."));
    hearth::GenerationParams gp;
    gp.maxTokens = sampler.maxTokens;
    gp.sampling.temperature = float(sampler.temperature);
    gp.sampling.topK = sampler.topK;
    gp.sampling.topP = float(sampler.topP);
    gp.sampling.minP = float(sampler.minP);
    gp.sampling.repeatPenalty = float(sampler.repeatPenalty);
    gp.sampling.seed = uint32_t(sampler.seed & 0x7fffffff);

    // Live statistics for the gauges while the reply streams.
    GenerationStats live;
    live.contextSize = int(m_context->size());
    QElapsedTimer clock, sinceMemory;
    clock.start();
    sinceMemory.start();
    hearth::TextCallbacks callbacks;
    callbacks.onToken = [&](hearth::TokenId) {
        const double now = double(clock.nsecsElapsed()) / 1e6;
        if (live.generatedTokens++ == 0) {
            live.timeToFirstTokenMs = now;
            live.promptMs = now;
        }
        live.generationMs = now - live.timeToFirstTokenMs;
        live.contextUsed = int(m_session->history().size());
        return !stop.load();
    };
    callbacks.onText = [&](std::string_view piece) {
        if (sinceMemory.elapsed() > 250) {
            sinceMemory.restart();
            refreshMemory();
        }
        sink(QString::fromUtf8(piece.data(), qsizetype(piece.size())), live);
        return !stop.load();
    };
    callbacks.onContextShift = [&](const hearth::ContextShiftEvent&) { ++live.contextShifts; };

    hearth::TextResult result;
    try {
        const std::vector<hearth::TokenId> prompt = promptTokens(*m_model, turns);
        live.promptTokens = int(prompt.size());
        result = hearth::generateText(*m_session, m_model->tokenizer(), prompt, gp, {}, callbacks, &stop);
    } catch (const std::exception& e) {
        throw EngineError(QString::fromStdString(e.what()));
    }
    refreshMemory();
    const hearth::GenerationStats& s = result.stats;
    GenerationStats out;
    out.promptTokens = int(s.promptEvaluated); // what this turn evaluated (the rest was cached)
    out.promptMs = s.promptMs;
    out.timeToFirstTokenMs = s.generatedTokens > 0 ? s.timeToFirstTokenMs : -1;
    out.generatedTokens = int(s.generatedTokens);
    out.generationMs = s.generationMs;
    out.contextUsed = int(s.contextUsed);
    out.contextSize = int(s.contextSize);
    out.contextShifts = s.contextShifts;
    out.stopReason = stop.load() ? StopReason::Stopped : stopReason(s.stop);
    return out;
}

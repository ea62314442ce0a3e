// Value types that cross the app-level engine interface (InferenceEngine)
// and the inference worker's queued signals. Plain data, cheap to copy,
// registered as metatypes so queued connections can carry them.
#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

#include <stdexcept>

// How to load a model. Mirrors the engine's session parameters.
struct LoadParams {
    int contextSize = 4096; // tokens of KV cache to allocate; 0 = the model's trained context
    int threads = 0;        // worker threads; 0 = one per core
    int gpuLayers = 0;      // layers on the GPU as -ngl counts them; -1 as many as fit
};

// Bytes the loaded model uses, by kind. The gauges and the fit estimate
// show the same figures.
struct MemoryFigures {
    qint64 weightsMapped = 0;   // bytes of weights mapped from the file
    qint64 weightsResident = 0; // bytes of weights in RAM now (grows while loading)
    qint64 kvCache = 0;         // bytes allocated for the KV cache
    qint64 scratch = 0;         // activations and logits buffers
    qint64 gpuUsed = 0;         // of the above, bytes on the GPU (weights, KV, scratch)
    qint64 gpuTotal = 0;        // the GPU's memory (0: no GPU in use)
    qint64 total() const { return weightsResident + kvCache + scratch; }
    bool operator==(const MemoryFigures&) const = default;
};

// What the engine learned while loading: shown in the header and recorded
// with every reply (provenance).
struct ModelFacts {
    QString path;
    QString name;         // general.name, else the file name
    QString architecture; // general.architecture ("llama", "gemma3", ...)
    QString quant;        // "Q4_K_M", "Q8_0", ...
    qint64 parameters = 0;
    qint64 fileSize = 0;
    int trainedContext = 0; // the context length the model was trained with
    int contextSize = 0;    // the context allocated for this load
    QString chatTemplate;   // "file" or the name of the built-in fallback
    QString warning;        // something the user should know (a fallback template, ...)
    QString engine;         // the engine that loaded it ("remote"); "" = the app's engine kind
    QString endpoint;       // a remote model's server ("name (host:port)"); "" for a file
    MemoryFigures memory;
};

// "Will it fit, and where", answered from the GGUF header alone, before
// loading (core/runtime/fit_plan.h decides the layers on the GPU).
struct FitEstimate {
    enum class Place {
        Gpu,   // every layer on the GPU
        Split, // gpuLayers of layerCount on the GPU, the rest in RAM
        Ram,   // nothing on the GPU
        None,  // does not fit
    };
    qint64 requiredBytes = 0;                           // weights + KV cache + scratch, RAM and GPU together
    qint64 availableBytes = 0;                          // memory the system reports as available now
    qint64 gpuRequiredBytes = 0, gpuAvailableBytes = 0; // the part on the GPU, and its free memory
    int gpuLayers = 0, layerCount = 0;                  // layers on the GPU, of n_layer + 1 (0: unknown)
    qint64 ramRequiredBytes() const { return requiredBytes - gpuRequiredBytes; }
    bool fits() const
    {
        return requiredBytes > 0 && ramRequiredBytes() <= availableBytes && gpuRequiredBytes <= gpuAvailableBytes;
    }
    Place place() const
    {
        if (!fits())
            return Place::None;
        if (gpuLayers <= 0)
            return Place::Ram;
        return gpuLayers >= layerCount ? Place::Gpu : Place::Split;
    }
};

// Sampler settings of one generation; stored with each reply.
struct SamplerSettings {
    double temperature = 0.7;
    int topK = 40;
    double topP = 0.95;
    double minP = 0.05;
    double repeatPenalty = 1.1;
    int maxTokens = 1024;
    quint64 seed = 0; // the seed actually used (never "random" here)
};

struct ChatTurn {
    enum class Role {
        System,
        User,
        Assistant
    };
    Role role = Role::User;
    QString text;
};

enum class StopReason {
    None,
    EndOfGeneration,
    MaxTokens,
    Stopped,
    Failed
};

// Timings and counts of one generation. Live while streaming, final at the end.
struct GenerationStats {
    int promptTokens = 0;
    double promptMs = 0;
    double timeToFirstTokenMs = -1; // -1 until the first piece
    int generatedTokens = 0;
    double generationMs = 0; // from the first generated token to now / the end
    int contextUsed = 0;
    int contextSize = 0;
    int contextShifts = 0; // how often the oldest tokens were dropped to make room
    StopReason stopReason = StopReason::None;

    double tokensPerSecond() const { return generationMs > 0 ? generatedTokens * 1000.0 / generationMs : 0; }
    double promptTokensPerSecond() const { return promptMs > 0 ? promptTokens * 1000.0 / promptMs : 0; }
};

QString stopReasonName(StopReason reason); // "end", "max-tokens", "stopped", "failed", ""
StopReason stopReasonFromName(const QString& name);

// A refusal with a message a person can act on (bad file, unknown
// architecture, out of memory, ...).
class EngineError : public std::runtime_error {
public:
    explicit EngineError(const QString& message) : std::runtime_error(message.toStdString()) {}
    QString message() const { return QString::fromStdString(what()); }
};

// Thrown by a load that its caller cancelled.
class EngineCancelled : public EngineError {
public:
    EngineCancelled() : EngineError(QStringLiteral("cancelled")) {}
};

Q_DECLARE_METATYPE(LoadParams)
Q_DECLARE_METATYPE(ModelFacts)
Q_DECLARE_METATYPE(MemoryFigures)
Q_DECLARE_METATYPE(SamplerSettings)
Q_DECLARE_METATYPE(ChatTurn)
Q_DECLARE_METATYPE(GenerationStats)

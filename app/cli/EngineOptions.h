// What `hearth run`, `chat` and `perplexity` share: the model, thread,
// context and sampling options, loading a model with progress on stderr,
// and Ctrl-C handling that works the same on POSIX and Windows.
#pragma once

#include "cpu/cpu_backend.h"
#include "runtime/loaded_model.h"
#include "runtime/session.h"

#include <QCommandLineParser>

#include <atomic>
#include <memory>

namespace cli {

// -ngl / --gpu-layers, --device, --verbose: llama.cpp's spelling. Adding
// them makes the parser read single-dash words as long options ("-ngl").
struct GpuOptions {
    QCommandLineOption layers{{QStringLiteral("ngl"), QStringLiteral("gpu-layers"), QStringLiteral("n-gpu-layers")},
                              QStringLiteral("Layers on the GPU: N (the last N layers; more than the model has "
                                             "also takes the output layer) or 'auto' (as many as fit). Default 0."),
                              QStringLiteral("N")};
    QCommandLineOption device{{QStringLiteral("dev"), QStringLiteral("device")},
                              QStringLiteral("GPU to use: VulkanN or part of its name (--list-devices); 'none' "
                                             "for the CPU only."),
                              QStringLiteral("NAME")};
    QCommandLineOption verbose{QStringLiteral("verbose"),
                               QStringLiteral("Log GPU details (device, pipelines compiled or cached).")};
    void add(QCommandLineParser& p) const;
    // The -ngl value (kGpuLayersAuto for 'auto'); false after printing why.
    bool read(const QCommandLineParser& p, int& layers) const;
    // The GPU backend when -ngl asks for one, or null after a notice (no
    // Vulkan, no GPU): the run goes on on the CPU with layers set to 0.
    std::unique_ptr<hearth::Backend> open(const QCommandLineParser& p, int& layers) const;
};

// Prints the GPU devices (hearth --list-devices).
void listDevices();

// -ctk / --cache-type-k and -ctv / --cache-type-v: llama.cpp's spelling of
// the KV cache's type, f16 (default), f32 or q8_0 (half of f16's memory).
// Hearth keeps K and V in one type, so the two must agree when both are set.
struct KvCacheOptions {
    QCommandLineOption k{{QStringLiteral("ctk"), QStringLiteral("cache-type-k")},
                         QStringLiteral("KV cache type: f16 (default), f32 or q8_0."),
                         QStringLiteral("TYPE")};
    QCommandLineOption v{{QStringLiteral("ctv"), QStringLiteral("cache-type-v")},
                         QStringLiteral("The same as -ctk (K and V share one type)."),
                         QStringLiteral("TYPE")};
    void add(QCommandLineParser& p) const;
    // The type asked for (f16 when neither is set); false after printing why.
    bool read(const QCommandLineParser& p, hearth::GgmlType& type) const;
};

struct EngineOptions {
    QCommandLineOption model{{QStringLiteral("m"), QStringLiteral("model")},
                             QStringLiteral("GGUF model file (with --endpoint: the server's model id)."),
                             QStringLiteral("FILE")};
    QCommandLineOption threads{{QStringLiteral("t"), QStringLiteral("threads")},
                               QStringLiteral("Threads (default: all cores)."),
                               QStringLiteral("N")};
    QCommandLineOption ctx{{QStringLiteral("c"), QStringLiteral("ctx-size")},
                           QStringLiteral("Context size in tokens (default: the model's, at most 4096)."),
                           QStringLiteral("N")};
    GpuOptions gpu;
    KvCacheOptions kv;
    void add(QCommandLineParser& p) const;
};

struct SamplingOptions {
    QCommandLineOption temp{QStringLiteral("temp"), QStringLiteral("Temperature; 0 is greedy (default 0.8)."),
                            QStringLiteral("T")};
    QCommandLineOption topK{QStringLiteral("top-k"), QStringLiteral("Top-k, 0 = off (default 40)."),
                            QStringLiteral("K")};
    QCommandLineOption topP{QStringLiteral("top-p"), QStringLiteral("Top-p, 1 = off (default 0.95)."),
                            QStringLiteral("P")};
    QCommandLineOption minP{QStringLiteral("min-p"), QStringLiteral("Min-p, 0 = off (default 0.05)."),
                            QStringLiteral("P")};
    QCommandLineOption repeat{QStringLiteral("repeat-penalty"), QStringLiteral("Repetition penalty (default 1.0)."),
                              QStringLiteral("R")};
    QCommandLineOption seed{QStringLiteral("seed"), QStringLiteral("Random seed (default: random)."),
                            QStringLiteral("S")};
    QCommandLineOption maxTokens{{QStringLiteral("n"), QStringLiteral("n-predict")},
                                 QStringLiteral("Tokens to generate, -1 = until the model stops."),
                                 QStringLiteral("N")};
    void add(QCommandLineParser& p) const;
    // Fills `g` from the parser; false (after printing why) on a bad value.
    bool read(const QCommandLineParser& p, hearth::GenerationParams& g, int defaultMax) const;
};

struct Engine {
    std::unique_ptr<hearth::cpu::CpuBackend> backend;
    std::unique_ptr<hearth::Backend> device; // the GPU, when layers are offloaded
    std::shared_ptr<hearth::LoadedModel> model;
    std::unique_ptr<hearth::Context> context;
};

// Loads the model named by the options (progress on stderr). Returns false
// after printing the error.
bool loadEngine(const QCommandLineParser& p, const EngineOptions& o, Engine& e, int64_t minCtx = 0);

// Ctrl-C: the first press while generating sets the flag; a press while
// nothing runs (or a second press) exits.
std::atomic<bool>& interruptFlag();
void installInterruptHandler();
void setGenerating(bool on);

// "prompt: N tokens (M cached) in X ms ..." for stderr.
QString statsLine(const hearth::GenerationStats& s);

} // namespace cli

// Serves one loaded model to many requests at once: `slots` sequences of
// one Context (one KV cache, sequence ids 0..slotCount-1) decoded together by
// continuous batching. Each step builds one batch from the next token of
// every generating slot plus prompt tokens of the slots still reading their
// prompt (up to the context's batch size), runs it as one forward pass, and
// samples each slot's next token from its own row of logits. A request that
// arrives while others generate joins at the next step.
//
// Each slot keeps the tokens its cells hold; a new job goes to the idle slot
// whose cache shares the longest prefix with its prompt and evaluates only
// the rest (a chat's next turn costs only its new tokens). A slot holds at
// most contextSize / slots tokens: a longer prompt is refused (400 with both
// numbers), a generation that reaches it stops with finish_reason "length".
// Jobs beyond the free slots wait in a queue of bounded length (then 503).
//
// An encoder model (bert: no causal attention, no next token) loads as an
// embedding engine instead: no slots, no engine thread; embed() runs on the
// calling thread, one request at a time, and submit() refuses jobs.
//
// Threads: one engine thread runs every step; submit(), embed() and
// metrics() may be called from any thread. Destruction cancels what is
// queued or running.
#pragma once

#include "Job.h"

#include "runtime/embedder.h"
#include "runtime/loaded_model.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace hearth::server {

struct EngineOptions {
    int slotCount = 1;
    int maxQueue = 64; // jobs waiting for a slot beyond those running
    ContextParams context;
};

// What a model load needs besides the file.
struct LoadConfig {
    int threads = 0;   // CPU threads (0: all cores)
    int gpuLayers = 0; // as -ngl; kGpuLayersAuto for "as many as fit"
    // Opens the GPU backend when gpuLayers asks for one (null: CPU only).
    std::function<std::unique_ptr<Backend>()> openDevice;
    EngineOptions engine;
};

// Counters for /metrics (totals since start, gauges now).
struct EngineMetrics {
    uint64_t promptTokens = 0, generatedTokens = 0, requests = 0, cancelled = 0;
    double promptSeconds = 0, generationSeconds = 0;
    uint64_t decodeCalls = 0, busySlotSteps = 0; // busy slots summed over decode calls
    int running = 0, queued = 0;
    int64_t kvUsedCells = 0, kvCells = 0;
};

class BatchEngine {
public:
    BatchEngine(std::shared_ptr<const LoadedModel> model, std::unique_ptr<Backend> host,
                std::unique_ptr<Backend> device, const EngineOptions& options);
    // An embedding engine; `embedder` runs on `host`.
    BatchEngine(std::unique_ptr<Embedder> embedder, std::unique_ptr<Backend> host);
    ~BatchEngine();
    BatchEngine(const BatchEngine&) = delete;
    BatchEngine& operator=(const BatchEngine&) = delete;

    // Loads `path` (throws hearth::Error / hearth::Cancelled): an embedding
    // engine for an encoder model, else a generative one.
    static std::unique_ptr<BatchEngine> load(const std::string& path, const LoadConfig& config,
                                             const std::atomic<bool>* cancel = nullptr);

    bool embeddingOnly() const { return m_embedder != nullptr; }
    // The generative model; throws ApiError 400 for an embedding engine.
    const LoadedModel& model() const;
    const Tokenizer& tokenizer() const;
    // The architecture (general.architecture), e.g. "llama", "bert".
    const std::string& architecture() const;
    int slotCount() const { return static_cast<int>(m_slots.size()); }
    // Generative: KV cells of all slots; embedding: tokens one input may have.
    int64_t contextSize() const { return m_contextSize; }
    int64_t slotContext() const { return m_slots.empty() ? m_contextSize : m_contextSize / slotCount(); }

    // Embedding engine only: one unit vector of embeddingDimension() floats
    // per input, row after row. Each input is the model's token ids, 1 to
    // contextSize() of them, inside the vocabulary (the caller checks).
    int64_t embeddingDimension() const;
    std::vector<float> embed(std::span<const std::vector<TokenId>> inputs);

    // Queues the jobs of one request together. Throws ApiError: 400 for a
    // prompt that does not fit a slot or names tokens outside the
    // vocabulary, more jobs than slots; 503 when the queue is full.
    void submit(const std::vector<std::shared_ptr<Job>>& jobs);

    EngineMetrics metrics() const;
    // Jobs queued or running.
    int inFlight() const;

private:
    struct Slot;
    void validate(const Job& job) const;
    void run();
    void assignJobs();
    void start(Slot& slot, std::shared_ptr<Job> job);
    void step();
    void sample(Slot& slot, int output);
    void sendText(Slot& slot, std::string text, bool last);
    // Ends the slot's job; flushText sends what the decoder and the stop
    // matcher hold back (not after a stop string or a cancel).
    void finish(Slot& slot, const char* reason, bool flushText = true);
    void fail(Slot& slot, const std::string& message);

    std::unique_ptr<Backend> m_host, m_device;
    std::shared_ptr<const LoadedModel> m_model;
    std::unique_ptr<Embedder> m_embedder; // embedding engine only, uses m_host
    std::mutex m_embedMutex;              // one embed() at a time
    std::unique_ptr<Context> m_ctx;
    int64_t m_contextSize = 0;
    int m_maxQueue;
    std::vector<std::unique_ptr<Slot>> m_slots; // engine thread only

    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::shared_ptr<Job>> m_queue; // guarded by m_mutex
    int m_inFlight = 0;                       // guarded by m_mutex
    bool m_stop = false;                      // guarded by m_mutex
    EngineMetrics m_metrics;                  // guarded by m_mutex
    uint64_t m_finished = 0;                  // guarded by m_mutex (slot LRU order)
    std::thread m_thread;
};

} // namespace hearth::server

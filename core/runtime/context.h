// A context runs a model: it owns the KV cache, the scratch area and the
// graph recorder, and evaluates batches of tokens (any mix of sequences)
// in one op list per micro-batch of at most nBatch tokens. This is the
// token-level engine API; Session (session.h) builds the text and chat API
// on it.
//
// Placement: the model's (Model::placement()) decides which layers run on a
// device; the context puts their KV rows there, keeps a device scratch area
// beside the host one, and runs each pass through a Scheduler.
//
// Thread-safety: one thread at a time. Ownership: shares the model; uses the
// backends, which must outlive it.
#pragma once

#include "backend/backend.h"
#include "kv/kv_cache.h"
#include "model/graph.h"
#include "model/model.h"
#include "runtime/scheduler.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace hearth {

using TokenId = int32_t;

struct ContextParams {
    int64_t nCtx = 0;     // cells of the KV cache; 0: the model's training context, at most 4096
    int64_t nBatch = 512; // tokens per forward pass (larger batches are split)
    GgmlType kvType = GgmlType::F16;
};

// One token of a batch.
struct BatchToken {
    TokenId token = 0;
    int32_t pos = 0;
    int32_t seq = 0;
    bool logits = false; // return this token's logits
};

// Memory a context uses, by kind. Weights are the model's (mapped from the
// file); resident is how much of them is in RAM now.
struct MemoryUsage {
    uint64_t weightsMapped = 0;
    uint64_t weightsResident = 0;
    uint64_t kv = 0;
    uint64_t scratch = 0; // activations, work area, logits
    // The parts of the above on a device (already counted in them).
    uint64_t deviceWeights = 0, deviceKv = 0, deviceScratch = 0;
};

class Context {
public:
    // `backend` is the host backend; the model's placement names the device.
    Context(std::shared_ptr<const Model> model, Backend& backend, ContextParams params);

    const Model& model() const { return *m_model; }
    Backend& backend() { return m_backend; }
    KvCache& kv() { return *m_kv; }
    const KvCache& kv() const { return *m_kv; }
    int64_t size() const { return m_kv->size(); }
    int64_t batchSize() const { return m_params.nBatch; }

    // Evaluates the batch: writes its K/V into free cells and computes the
    // logits of the tokens marked so. Returns false when `abort` became true
    // (tokens of the interrupted micro-batch are removed from the cache).
    // Throws hearth::Error when the cache has no room (shift or clear first).
    bool decode(std::span<const BatchToken> batch, const std::atomic<bool>* abort = nullptr);
    // Convenience: tokens of one sequence at consecutive positions from pos0;
    // logits for the last token only, or for all.
    bool decode(std::span<const TokenId> tokens, int32_t pos0, int seq, bool allLogits,
                const std::atomic<bool>* abort = nullptr);

    // Logits of the i-th output of the last decode() (in batch order).
    std::span<const float> logits(int64_t i) const;
    int64_t outputCount() const { return m_nOutputs; }
    // Counts successful decode() calls (sessions use it to know whether the
    // current logits are still theirs).
    uint64_t decodeCount() const { return m_decodeCount; }
    int64_t vocabSize() const { return m_model->params().nVocab; }

    // Re-rotates K for positions moved by KvCache::shiftSequence(). decode()
    // calls it when needed.
    void applyShift();

    MemoryUsage memory() const;
    // Scratch bytes a context of these dimensions reserves, for estimates.
    static uint64_t scratchBytesFor(const Model& model, Backend& backend, const ContextParams& params);

private:
    bool runMicroBatch(std::span<const BatchToken> batch, const std::atomic<bool>* abort);
    void prepareInputs(std::span<const BatchToken> batch);
    void reserve();

    std::shared_ptr<const Model> m_model;
    Backend& m_backend;
    ContextParams m_params;
    Scheduler m_scheduler;
    std::unique_ptr<KvCache> m_kv;
    Graph m_graph;
    std::unique_ptr<Buffer> m_scratch, m_deviceScratch;
    std::vector<float> m_logits; // [n_vocab, outputs]
    int64_t m_nOutputs = 0;
    bool m_discardOutputs = false; // the micro-batch wants no logits (see prepareInputs)
    uint64_t m_decodeCount = 0;

    // Inputs of the micro-batch being run (the op list points into them).
    std::vector<int32_t> m_tokens, m_pos, m_seq, m_slots, m_outRows;
    ForwardInputs m_in;
};

// The context size used when params.nCtx is 0.
int64_t defaultContextSize(const ModelParams& hp);

} // namespace hearth

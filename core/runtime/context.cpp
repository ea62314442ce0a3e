#include "runtime/context.h"

#include "util/error.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace hearth {

namespace {

struct Reservation {
    size_t activations = 0, deviceActivations = 0;
    size_t work = 0, deviceWork = 0;
};

Placement placementFor(const Model& model, Backend& host)
{
    Placement p = model.placement();
    p.host = &host;
    p.nLayer = model.params().nLayer;
    return p;
}

// Records the largest forward pass the context can be asked for (a full
// micro-batch attending over a full cache) without running it, to size the
// scratch area and the backend's work area once.
Reservation measure(const Model& model, Backend& backend, const ContextParams& params)
{
    Scheduler scheduler(placementFor(model, backend));
    const ModelParams& hp = model.params();
    const int64_t n = params.nBatch;
    std::vector<int32_t> zeros(static_cast<size_t>(n), 0);
    std::vector<int32_t> rows(static_cast<size_t>(n > 1 ? n - 1 : 1), 0);
    ForwardInputs in;
    in.nTokens = n;
    in.tokens = in.positions = in.cells = zeros.data();
    in.nCtx = params.nCtx;
    for (int64_t l = 0; l < hp.nLayer; ++l) {
        in.kCache.push_back(Tensor::dense(params.kvType, hp.kvWidthK(l), params.nCtx));
        in.vCache.push_back(Tensor::dense(params.kvType, hp.kvWidthV(l), params.nCtx));
    }
    in.mask.nCells = static_cast<int>(params.nCtx);
    Reservation r;
    Graph g;
    // Every row's logits, and a selection of rows (one more activation).
    for (const bool all : {true, false}) {
        in.nOutputs = all ? n : static_cast<int64_t>(rows.size());
        in.outputRows = all ? nullptr : rows.data();
        in.logits = Tensor::dense(GgmlType::F32, hp.nVocab, in.nOutputs);
        static uint8_t hostLogits; // stands for the caller's logits (measured, never written)
        in.logits.data = &hostLogits;
        g.begin();
        model.forward(g, in);
        scheduler.split(g);
        g.finish(nullptr, 0);
        r.activations = std::max(r.activations, g.peakBytes(Scheduler::kHost));
        r.deviceActivations = std::max(r.deviceActivations, g.peakBytes(Scheduler::kDevice));
        r.work = std::max(r.work, scheduler.workBytes(g.ops(), Scheduler::kHost));
        r.deviceWork = std::max(r.deviceWork, scheduler.workBytes(g.ops(), Scheduler::kDevice));
    }
    OpList shift;
    Op op;
    op.kind = OpKind::RopeShift;
    op.dst = in.kCache.front();
    op.attn.headDimK = static_cast<int>(hp.headDimK);
    shift.ops.push_back(op);
    r.work = std::max(r.work, backend.workBytes(shift));
    if (Backend* device = scheduler.placement().device; device && scheduler.placement().usesDevice())
        r.deviceWork = std::max(r.deviceWork, device->workBytes(shift));
    return r;
}

} // namespace

int64_t defaultContextSize(const ModelParams& hp)
{
    return std::min<int64_t>(hp.nCtxTrain, 4096);
}

Context::Context(std::shared_ptr<const Model> model, Backend& backend, ContextParams params)
    : m_model(std::move(model)), m_backend(backend), m_params(params), m_scheduler(placementFor(*m_model, backend))
{
    const ModelParams& hp = m_model->params();
    if (m_params.nCtx <= 0)
        m_params.nCtx = defaultContextSize(hp);
    if (m_params.nCtx > (int64_t{1} << 24))
        throw Error("context size " + std::to_string(m_params.nCtx) + " is too large");
    m_params.nBatch = std::clamp<int64_t>(m_params.nBatch, 1, m_params.nCtx);
    m_kv = std::make_unique<KvCache>(hp, m_params.nCtx, m_params.kvType, m_scheduler.placement());
    m_logits.resize(static_cast<size_t>(hp.nVocab));
    reserve();
}

void Context::prepareInputs(std::span<const BatchToken> batch)
{
    const auto n = static_cast<int64_t>(batch.size());
    const int64_t nVocab = m_model->params().nVocab;
    m_tokens.resize(batch.size());
    m_pos.resize(batch.size());
    m_seq.resize(batch.size());
    m_slots.resize(batch.size());
    m_outRows.clear();
    for (size_t i = 0; i < batch.size(); ++i) {
        const BatchToken& b = batch[i];
        if (b.token < 0 || b.token >= nVocab)
            throw Error("token id " + std::to_string(b.token) + " is outside the vocabulary (" +
                        std::to_string(nVocab) + " tokens)");
        if (b.seq < 0 || b.seq >= kMaxSequences)
            throw Error("sequence id " + std::to_string(b.seq) + " is out of range");
        if (b.pos < 0)
            throw Error("negative position " + std::to_string(b.pos));
        m_tokens[i] = b.token;
        m_pos[i] = b.pos;
        m_seq[i] = b.seq;
        if (b.logits)
            m_outRows.push_back(static_cast<int32_t>(i));
    }
    m_in.nTokens = n;
    m_in.tokens = m_tokens.data();
    m_in.positions = m_pos.data();
    m_in.cells = m_slots.data();
    // A micro-batch that wants no logits still computes the last token's
    // (and drops them): an empty row list would read as "every row" and
    // write a whole batch of logits into room for none.
    m_discardOutputs = m_outRows.empty();
    if (m_discardOutputs)
        m_outRows.push_back(static_cast<int32_t>(n - 1));
    m_in.nOutputs = static_cast<int64_t>(m_outRows.size());
    m_in.outputRows = m_in.nOutputs == n ? nullptr : m_outRows.data();
    m_in.nCtx = m_params.nCtx;
}

bool Context::runMicroBatch(std::span<const BatchToken> batch, const std::atomic<bool>* abort)
{
    prepareInputs(batch);
    const auto n = static_cast<int64_t>(batch.size());
    if (!m_kv->place(n, m_pos.data(), m_seq.data(), m_slots.data()))
        throw Error("the context is full (" + std::to_string(m_kv->size()) +
                    " cells): shift or clear it before evaluating more tokens");

    const ModelParams& hp = m_model->params();
    const int64_t extent = m_kv->extent();
    m_in.kCache.clear();
    m_in.vCache.clear();
    for (int64_t l = 0; l < hp.nLayer; ++l) {
        m_in.kCache.push_back(m_kv->k(l).rowRange(0, extent));
        m_in.vCache.push_back(m_kv->v(l).rowRange(0, extent));
    }
    m_in.mask = AttentionMask{static_cast<int>(extent), m_kv->cellPositions(), m_kv->cellSequences(), m_pos.data(),
                              m_seq.data()};

    const size_t needed = static_cast<size_t>(hp.nVocab) * static_cast<size_t>(m_nOutputs + m_in.nOutputs);
    if (m_logits.size() < needed)
        m_logits.resize(needed);
    m_in.logits = Tensor::dense(GgmlType::F32, hp.nVocab, m_in.nOutputs);
    m_in.logits.data = reinterpret_cast<uint8_t*>(m_logits.data() + static_cast<size_t>(hp.nVocab * m_nOutputs));

    m_graph.begin();
    m_model->forward(m_graph, m_in);
    m_scheduler.split(m_graph);
    const Graph::Area areas[2] = {
        {m_scratch->data(), m_scratch->size()},
        {m_deviceScratch ? m_deviceScratch->data() : nullptr, m_deviceScratch ? m_deviceScratch->size() : 0}};
    const OpList& ops = m_graph.finish(std::span<const Graph::Area>(areas, m_deviceScratch ? 2 : 1));
    if (!m_scheduler.execute(ops, ExecuteOptions{abort})) {
        m_kv->release(m_slots.data(), n);
        return false;
    }
    m_nOutputs += m_discardOutputs ? 0 : m_in.nOutputs;
    return true;
}

bool Context::decode(std::span<const BatchToken> batch, const std::atomic<bool>* abort)
{
    m_nOutputs = 0;
    if (m_kv->hasPendingShift())
        applyShift();
    for (size_t start = 0; start < batch.size(); start += static_cast<size_t>(m_params.nBatch)) {
        const size_t len = std::min(batch.size() - start, static_cast<size_t>(m_params.nBatch));
        if (!runMicroBatch(batch.subspan(start, len), abort))
            return false;
    }
    ++m_decodeCount;
    return true;
}

bool Context::decode(std::span<const TokenId> tokens, int32_t pos0, int seq, bool allLogits,
                     const std::atomic<bool>* abort)
{
    std::vector<BatchToken> batch(tokens.size());
    for (size_t i = 0; i < tokens.size(); ++i)
        batch[i] = BatchToken{tokens[i], pos0 + static_cast<int32_t>(i), seq, allLogits || i + 1 == tokens.size()};
    return decode(batch, abort);
}

void Context::reserve()
{
    const Reservation r = measure(*m_model, m_backend, m_params);
    m_scratch = m_backend.allocate(r.activations, BufferUsage::Scratch);
    m_backend.reserveWork(r.work);
    if (Backend* device = m_scheduler.placement().device; device && m_scheduler.placement().usesDevice()) {
        m_deviceScratch = device->allocate(std::max<size_t>(r.deviceActivations, 64), BufferUsage::Scratch);
        device->reserveWork(r.deviceWork);
    }
}

uint64_t Context::scratchBytesFor(const Model& model, Backend& backend, const ContextParams& params)
{
    ContextParams p = params;
    if (p.nCtx <= 0)
        p.nCtx = defaultContextSize(model.params());
    p.nBatch = std::clamp<int64_t>(p.nBatch, 1, p.nCtx);
    const Reservation r = measure(model, backend, p);
    return r.activations + r.work + r.deviceActivations + r.deviceWork +
           static_cast<uint64_t>(model.params().nVocab) * sizeof(float);
}

std::span<const float> Context::logits(int64_t i) const
{
    if (i < 0 || i >= m_nOutputs)
        throw Error("no logits for output " + std::to_string(i));
    const auto v = static_cast<size_t>(vocabSize());
    return {m_logits.data() + v * static_cast<size_t>(i), v};
}

void Context::applyShift()
{
    const ModelParams& hp = m_model->params();
    OpList ops;
    for (int64_t l = 0; l < hp.nLayer; ++l) {
        Op op;
        op.kind = OpKind::RopeShift;
        op.dst = m_kv->k(l);
        op.ids = m_kv->pendingShift().data();
        op.rope = m_model->layerRope(l, m_params.nCtx);
        op.attn.headDimK = static_cast<int>(hp.headDimK);
        op.layer = static_cast<int>(l);
        ops.ops.push_back(op);
    }
    for (const int side : {Scheduler::kHost, Scheduler::kDevice}) {
        Backend* b = side == Scheduler::kHost ? &m_backend : m_scheduler.placement().device;
        if (b)
            b->reserveWork(m_scheduler.workBytes(ops, side));
    }
    m_scheduler.execute(ops);
    m_kv->shiftApplied();
}

MemoryUsage Context::memory() const
{
    MemoryUsage m;
    const gguf::File& f = m_model->file();
    for (const auto& t : f.tensors())
        m.weightsMapped += t.bytes;
    for (size_t s = 0; s < f.splitCount(); ++s)
        m.weightsResident += f.mapping(s).residentBytes();
    m.weightsResident = std::min(m.weightsResident, m.weightsMapped);
    m.kv = m_kv->bytes();
    m.deviceKv = m_kv->deviceBytes();
    m.deviceWeights = m_model->deviceWeightBytes();
    // The backend's scratch (this context's activation area and the work
    // area the backend shares between its contexts) and the logits.
    m.scratch = m_backend.allocatedBytes(BufferUsage::Scratch) + m_logits.capacity() * sizeof(float);
    if (Backend* device = m_scheduler.placement().device; device && m_scheduler.placement().usesDevice()) {
        m.deviceScratch = device->allocatedBytes(BufferUsage::Scratch);
        m.scratch += m.deviceScratch;
    }
    return m;
}

} // namespace hearth

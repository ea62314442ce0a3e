#include "BatchEngine.h"

#include "ApiError.h"

#include "cpu/cpu_backend.h"
#include "runtime/stop_matcher.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace hearth::server {

namespace {

using Clock = std::chrono::steady_clock;

double msBetween(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double, std::milli>(b - a).count();
}

size_t commonPrefix(const std::vector<TokenId>& a, const std::vector<TokenId>& b)
{
    size_t n = 0;
    while (n < a.size() && n < b.size() && a[n] == b[n])
        ++n;
    return n;
}

// log-softmax of the chosen token and the `top` most likely ones.
TokenInfo logprobsOf(std::span<const float> logits, TokenId chosen, int top)
{
    const float maxLogit = *std::max_element(logits.begin(), logits.end());
    double sum = 0.0;
    for (const float l : logits)
        sum += std::exp(static_cast<double>(l - maxLogit));
    const auto lp = [&](TokenId t) {
        return static_cast<float>(static_cast<double>(logits[static_cast<size_t>(t)] - maxLogit) - std::log(sum));
    };
    TokenInfo info;
    info.chosen = TokenLogprob{chosen, lp(chosen)};
    if (top > 0) {
        std::vector<TokenId> ids(logits.size());
        for (size_t i = 0; i < ids.size(); ++i)
            ids[i] = static_cast<TokenId>(i);
        const auto k = std::min<size_t>(static_cast<size_t>(top), ids.size());
        std::partial_sort(
            ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(k), ids.end(),
            [&](TokenId a, TokenId b) { return logits[static_cast<size_t>(a)] > logits[static_cast<size_t>(b)]; });
        for (size_t i = 0; i < k; ++i)
            info.top.push_back(TokenLogprob{ids[i], lp(ids[i])});
    }
    return info;
}

} // namespace

struct BatchEngine::Slot {
    enum class State {
        Idle,
        Prompt,   // evaluating job->params().prompt[history.size()...]
        Generate, // `pending` is sampled and waits to be evaluated
    };
    int seq = 0;
    State state = State::Idle;
    std::vector<TokenId> history; // what the cache holds for seq, position i = history[i]
    std::shared_ptr<Job> job;
    std::optional<Sampler> sampler;
    std::optional<StreamingDecoder> decoder;
    std::optional<StopMatcher> matcher;
    std::vector<TokenInfo> pendingInfo; // logprobs not yet sent with text
    TokenId pending = 0;
    int output = -1; // this step's row of logits, -1: none
    JobSummary summary;
    Clock::time_point queued, started, firstToken;
    uint64_t lastUsed = 0; // step counter when it last finished a job
};

BatchEngine::BatchEngine(std::shared_ptr<const LoadedModel> model, std::unique_ptr<Backend> host,
                         std::unique_ptr<Backend> device, const EngineOptions& options)
    : m_host(std::move(host))
    , m_device(std::move(device))
    , m_model(std::move(model))
    , m_maxQueue(std::max(0, options.maxQueue))
{
    const int slotCount = std::clamp(options.slotCount, 1, kMaxSequences);
    m_ctx = std::make_unique<Context>(m_model->modelShared(), *m_host, options.context);
    m_contextSize = m_ctx->size();
    if (m_contextSize / slotCount < 2)
        throw Error("a context of " + std::to_string(m_contextSize) + " tokens is too small for " +
                    std::to_string(slotCount) + " slots");
    for (int i = 0; i < slotCount; ++i) {
        auto s = std::make_unique<Slot>();
        s->seq = i;
        m_slots.push_back(std::move(s));
    }
    m_metrics.kvCells = m_contextSize;
    m_thread = std::thread([this] { run(); });
}

BatchEngine::BatchEngine(std::unique_ptr<Embedder> embedder, std::unique_ptr<Backend> host)
    : m_host(std::move(host)), m_embedder(std::move(embedder)), m_maxQueue(0)
{
    m_contextSize = m_embedder->maxTokens();
}

BatchEngine::~BatchEngine()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_cv.notify_all();
    if (m_thread.joinable())
        m_thread.join();
    // What never got a slot, and what was running, hears why.
    for (const auto& job : m_queue)
        job->post(JobEvent{JobEvent::Kind::Failed, {}, {}, {}, "the model was unloaded"});
    for (const auto& s : m_slots)
        if (s->job)
            s->job->post(JobEvent{JobEvent::Kind::Failed, {}, {}, {}, "the model was unloaded"});
    m_slots.clear();
    m_ctx.reset();
    m_model.reset();
    m_embedder.reset();
}

std::unique_ptr<BatchEngine> BatchEngine::load(const std::string& path, const LoadConfig& config,
                                               const std::atomic<bool>* cancel)
{
    auto host = std::make_unique<cpu::CpuBackend>(config.threads);
    int layers = config.gpuLayers;
    std::unique_ptr<Backend> device = layers != 0 && config.openDevice ? config.openDevice() : nullptr;
    if (!device)
        layers = 0;
    {
        // An encoder answers embeddings only (no KV cache, no next token).
        auto file = std::make_shared<const gguf::File>(path);
        std::shared_ptr<const Model> probe = Model::create(file, *host);
        if (!probe->params().causal) {
            auto embedder = std::make_unique<Embedder>(std::move(probe), *host);
            return std::make_unique<BatchEngine>(std::move(embedder), std::move(host));
        }
    }
    LoadOptions lo;
    lo.cancel = cancel;
    lo.device = device.get();
    lo.gpuLayers = layers;
    lo.context = config.engine.context;
    std::shared_ptr<const LoadedModel> model = LoadedModel::load(path, *host, lo);
    return std::make_unique<BatchEngine>(std::move(model), std::move(host), std::move(device), config.engine);
}

const LoadedModel& BatchEngine::model() const
{
    if (!m_model)
        throw badRequest("this is an embedding model ('" + architecture() +
                             "'): it answers POST /v1/embeddings only; chat, completions and templates need a "
                             "generative model",
                         "model");
    return *m_model;
}

const Tokenizer& BatchEngine::tokenizer() const
{
    return m_embedder ? m_embedder->tokenizer() : m_model->tokenizer();
}

const std::string& BatchEngine::architecture() const
{
    return m_embedder ? m_embedder->model().params().arch : m_model->model().params().arch;
}

int64_t BatchEngine::embeddingDimension() const
{
    return m_embedder ? m_embedder->dimension() : 0;
}

std::vector<float> BatchEngine::embed(std::span<const std::vector<TokenId>> inputs)
{
    if (!m_embedder)
        throw badRequest("this model is generative ('" + architecture() + "'), not an embedding model", "model");
    int64_t tokens = 0;
    for (const auto& in : inputs)
        tokens += static_cast<int64_t>(in.size());
    std::lock_guard embedding(m_embedMutex);
    const Clock::time_point start = Clock::now();
    std::vector<float> out = m_embedder->embedTokens(inputs);
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::lock_guard lock(m_mutex);
    m_metrics.requests += 1;
    m_metrics.promptTokens += static_cast<uint64_t>(tokens);
    m_metrics.promptSeconds += seconds;
    return out;
}

void BatchEngine::validate(const Job& job) const
{
    const JobParams& p = job.params();
    const auto vocab = static_cast<int64_t>(m_model->model().params().nVocab);
    if (p.prompt.empty())
        throw badRequest("the prompt is empty", "prompt");
    for (const TokenId t : p.prompt)
        if (t < 0 || t >= vocab)
            throw badRequest("token id " + std::to_string(t) + " is outside the vocabulary (" + std::to_string(vocab) +
                                 " tokens)",
                             "prompt");
    for (const auto& [t, bias] : p.generation.sampling.logitBias)
        if (t < 0 || t >= vocab)
            throw badRequest("logit_bias names token " + std::to_string(t) + ", outside the vocabulary (" +
                                 std::to_string(vocab) + " tokens)",
                             "logit_bias");
    const auto n = static_cast<int64_t>(p.prompt.size());
    if (n >= slotContext()) {
        ApiError e(400, "exceed_context_size_error",
                   "the request has " + std::to_string(n) + " prompt tokens, but a slot's context holds " +
                       std::to_string(slotContext()) + " (" + std::to_string(m_contextSize) + " over " +
                       std::to_string(slotCount()) +
                       " slots): shorten the prompt or start the server with a larger -c");
        e.extra = {{"n_prompt_tokens", n}, {"n_ctx", slotContext()}};
        throw e;
    }
}

void BatchEngine::submit(const std::vector<std::shared_ptr<Job>>& jobs)
{
    (void)model(); // an embedding engine: 400
    if (jobs.empty())
        throw badRequest("'n' must be at least 1", "n");
    if (static_cast<int>(jobs.size()) > slotCount())
        throw badRequest("'n' is " + std::to_string(jobs.size()) + ", more than the server's " +
                             std::to_string(slotCount()) + " slots (-np)",
                         "n");
    for (const auto& j : jobs)
        validate(*j);
    {
        std::lock_guard lock(m_mutex);
        if (m_stop)
            throw unavailable("the model is being unloaded");
        if (m_inFlight + static_cast<int>(jobs.size()) > slotCount() + m_maxQueue)
            throw unavailable("the server is busy: " + std::to_string(m_inFlight) + " requests running or queued (" +
                              std::to_string(slotCount()) + " slots, queue of " + std::to_string(m_maxQueue) +
                              "); try again later");
        m_inFlight += static_cast<int>(jobs.size());
        m_metrics.requests += jobs.size();
        for (const auto& j : jobs)
            m_queue.push_back(j);
    }
    m_cv.notify_all();
}

EngineMetrics BatchEngine::metrics() const
{
    std::lock_guard lock(m_mutex);
    EngineMetrics m = m_metrics;
    m.queued = static_cast<int>(m_queue.size());
    m.running = m_inFlight - m.queued;
    return m;
}

int BatchEngine::inFlight() const
{
    std::lock_guard lock(m_mutex);
    return m_inFlight;
}

void BatchEngine::run()
{
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            const auto busy = [&] {
                return std::any_of(m_slots.begin(), m_slots.end(), [](const auto& s) { return s->job != nullptr; });
            };
            m_cv.wait(lock, [&] { return m_stop || !m_queue.empty() || busy(); });
            if (m_stop)
                return;
        }
        assignJobs();
        step();
    }
}

void BatchEngine::assignJobs()
{
    for (;;) {
        std::shared_ptr<Job> job;
        Slot* best = nullptr;
        {
            std::lock_guard lock(m_mutex);
            // Drop queued jobs whose client went away.
            while (!m_queue.empty() && m_queue.front()->cancelled()) {
                JobEvent done{JobEvent::Kind::Done, {}, {}, {}, {}};
                done.summary.finishReason = "cancelled";
                m_queue.front()->post(std::move(done));
                m_queue.pop_front();
                --m_inFlight;
                ++m_metrics.cancelled;
            }
            if (m_queue.empty())
                return;
            // The idle slot whose cache shares most with the prompt, else
            // the one idle longest.
            size_t bestCommon = 0;
            const auto& prompt = m_queue.front()->params().prompt;
            for (const auto& s : m_slots) {
                if (s->job)
                    continue;
                const size_t c = commonPrefix(s->history, prompt);
                if (!best || c > bestCommon || (c == bestCommon && s->lastUsed < best->lastUsed)) {
                    best = s.get();
                    bestCommon = c;
                }
            }
            if (!best)
                return;
            job = m_queue.front();
            m_queue.pop_front();
        }
        start(*best, std::move(job));
    }
}

void BatchEngine::start(Slot& slot, std::shared_ptr<Job> job)
{
    const JobParams& p = job->params();
    slot.job = std::move(job);
    slot.summary = JobSummary{};
    slot.summary.slot = slot.seq;
    slot.summary.promptTokens = static_cast<int64_t>(p.prompt.size());
    slot.started = Clock::now();
    // Keep the cached prefix; the prompt's last token is always evaluated
    // again, for its logits.
    size_t common = commonPrefix(slot.history, p.prompt);
    if (common == p.prompt.size())
        --common;
    if (common < slot.history.size()) {
        m_ctx->kv().removeSequence(slot.seq, static_cast<int32_t>(common), -1);
        slot.history.resize(common);
    }
    slot.summary.cachedTokens = static_cast<int64_t>(common);
    slot.sampler.emplace(p.generation.sampling, static_cast<int32_t>(m_ctx->vocabSize()));
    const int32_t lastN = p.generation.sampling.penaltyLastN;
    const size_t from = lastN < 0 ? 0 : p.prompt.size() - std::min(p.prompt.size(), static_cast<size_t>(lastN));
    for (size_t i = from; i < p.prompt.size(); ++i)
        slot.sampler->accept(p.prompt[i]);
    slot.decoder.emplace(m_model->tokenizer());
    slot.matcher.emplace(p.stop);
    slot.pendingInfo.clear();
    slot.state = Slot::State::Prompt;
    if (p.generation.maxTokens == 0)
        finish(slot, "length");
}

void BatchEngine::step()
{
    // Clients that went away free their slot before any work is done.
    for (const auto& s : m_slots)
        if (s->job && s->job->cancelled())
            finish(*s, "cancelled", /*flushText=*/false);

    std::vector<BatchToken> batch;
    std::vector<std::pair<Slot*, size_t>> parts; // slot, tokens it put in the batch
    int outputs = 0;
    for (const auto& s : m_slots) {
        s->output = -1;
        if (s->job && s->state == Slot::State::Generate) {
            batch.push_back(BatchToken{s->pending, static_cast<int32_t>(s->history.size()), s->seq, true});
            parts.emplace_back(s.get(), 1);
            s->output = outputs++;
        }
    }
    size_t budget = static_cast<size_t>(m_ctx->batchSize()) - std::min(batch.size(), size_t(m_ctx->batchSize()));
    for (const auto& s : m_slots) {
        if (!s->job || s->state != Slot::State::Prompt || budget == 0)
            continue;
        const auto& prompt = s->job->params().prompt;
        const size_t done = s->history.size();
        const size_t k = std::min(budget, prompt.size() - done);
        for (size_t i = 0; i < k; ++i) {
            const bool last = done + i + 1 == prompt.size();
            batch.push_back(BatchToken{prompt[done + i], static_cast<int32_t>(done + i), s->seq, last});
            if (last)
                s->output = outputs++;
        }
        parts.emplace_back(s.get(), k);
        budget -= k;
    }
    if (batch.empty())
        return;
    // A batch that wants no logits (the middle of a long prompt) is the
    // context's to handle (Context::prepareInputs).

    try {
        m_ctx->decode(batch);
    } catch (const std::exception& e) {
        for (const auto& [s, n] : parts)
            fail(*s, std::string("the engine failed: ") + e.what());
        return;
    }
    size_t at = 0;
    for (const auto& [s, n] : parts) {
        for (size_t i = 0; i < n; ++i)
            s->history.push_back(batch[at + i].token);
        at += n;
    }
    {
        std::lock_guard lock(m_mutex);
        ++m_metrics.decodeCalls;
        m_metrics.busySlotSteps += parts.size();
        m_metrics.kvUsedCells = m_ctx->kv().usedCells();
    }
    for (const auto& [s, n] : parts)
        if (s->output >= 0)
            sample(*s, s->output);
}

void BatchEngine::sample(Slot& slot, int output)
{
    const JobParams& p = slot.job->params();
    const std::span<const float> logits = m_ctx->logits(output);
    const TokenId token = slot.sampler->sample(logits);
    slot.sampler->accept(token);
    const Clock::time_point now = Clock::now();
    if (slot.state == Slot::State::Prompt) {
        slot.firstToken = now;
        slot.summary.promptMs = msBetween(slot.started, now);
        std::lock_guard lock(m_mutex);
        m_metrics.promptTokens += static_cast<uint64_t>(slot.summary.promptTokens - slot.summary.cachedTokens);
        m_metrics.promptSeconds += slot.summary.promptMs / 1000.0;
    }
    slot.state = Slot::State::Generate;
    if (m_model->tokenizer().isEndOfGeneration(token)) {
        finish(slot, "stop");
        return;
    }
    ++slot.summary.generatedTokens;
    if (p.logprobs >= 0)
        slot.pendingInfo.push_back(logprobsOf(logits, token, p.logprobs));
    bool hit = false;
    std::string text = slot.matcher->push(slot.decoder->push(token), hit);
    if (hit) {
        sendText(slot, std::move(text), /*last=*/true);
        finish(slot, "stop", /*flushText=*/false);
        return;
    }
    sendText(slot, std::move(text), /*last=*/false);
    // Prompt and reply together fit the slot (the reply's last token
    // is never evaluated, so the cache holds one token less).
    const int32_t maxTokens = p.generation.maxTokens;
    if ((maxTokens >= 0 && slot.summary.generatedTokens >= maxTokens) ||
        static_cast<int64_t>(slot.history.size()) + 1 >= slotContext()) {
        finish(slot, "length");
        return;
    }
    slot.pending = token;
}

void BatchEngine::sendText(Slot& slot, std::string text, bool last)
{
    if (text.empty() && (slot.pendingInfo.empty() || !last))
        return;
    JobEvent e;
    e.kind = JobEvent::Kind::Piece;
    e.text = std::move(text);
    e.tokens = std::exchange(slot.pendingInfo, {});
    slot.job->post(std::move(e));
}

void BatchEngine::finish(Slot& slot, const char* reason, bool flushText)
{
    if (flushText) {
        // What the decoder and the stop matcher still hold.
        bool hit = false;
        std::string rest = slot.matcher->push(slot.decoder->flush(), hit);
        if (!hit)
            rest += slot.matcher->flush();
        sendText(slot, std::move(rest), /*last=*/true);
    }
    const Clock::time_point now = Clock::now();
    JobSummary& sum = slot.summary;
    sum.finishReason = reason;
    sum.queueMs = msBetween(slot.job->submitted(), slot.started);
    if (sum.generatedTokens > 0)
        sum.generationMs = msBetween(slot.firstToken, now);
    slot.job->post(JobEvent{JobEvent::Kind::Done, {}, {}, sum, {}});
    slot.job.reset();
    slot.sampler.reset();
    slot.decoder.reset();
    slot.matcher.reset();
    slot.state = Slot::State::Idle;
    std::lock_guard lock(m_mutex);
    slot.lastUsed = ++m_finished;
    --m_inFlight;
    m_metrics.generatedTokens += static_cast<uint64_t>(sum.generatedTokens);
    m_metrics.generationSeconds += sum.generationMs / 1000.0;
    if (sum.finishReason == "cancelled")
        ++m_metrics.cancelled;
}

void BatchEngine::fail(Slot& slot, const std::string& message)
{
    // The slot's cells may hold a half-written pass: forget them all.
    m_ctx->kv().removeSequence(slot.seq, 0, -1);
    slot.history.clear();
    slot.job->post(JobEvent{JobEvent::Kind::Failed, {}, {}, {}, message});
    slot.job.reset();
    slot.state = Slot::State::Idle;
    std::lock_guard lock(m_mutex);
    --m_inFlight;
}

} // namespace hearth::server

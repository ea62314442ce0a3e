#include "BenchRunner.h"

#include "runtime/context.h"
#include "util/system_memory.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>

using namespace hearth;

namespace cli {

namespace {

using Clock = std::chrono::steady_clock;

// Random token ids as llama-bench draws them (any id of the vocabulary),
// from a fixed seed so that every run decodes the same tokens.
class TokenSource {
public:
    TokenSource(const LoadedModel& model, uint32_t seed)
        : m_rng(seed)
        , m_vocab(static_cast<int32_t>(model.model().params().nVocab))
        , m_bos(model.tokenizer().addBos() ? model.tokenizer().bos() : -1)
    {
    }
    TokenId next() { return static_cast<TokenId>(m_rng() % static_cast<uint32_t>(m_vocab)); }
    // The first token of a sequence: BOS when the model adds one.
    TokenId first() { return m_bos >= 0 ? m_bos : next(); }

private:
    std::mt19937 m_rng;
    int32_t m_vocab;
    TokenId m_bos;
};

// The prompt in batches of nBatch from position pos0, each one decode()
// call; logits for the last token of each batch only. False when stopped.
bool runPrompt(Context& ctx, TokenSource& src, int nPrompt, int nBatch, int pos0, const std::atomic<bool>* stop)
{
    std::vector<TokenId> tokens(static_cast<size_t>(nBatch));
    for (int done = 0; done < nPrompt;) {
        const int n = std::min(nPrompt - done, nBatch);
        for (int i = 0; i < n; ++i)
            tokens[static_cast<size_t>(i)] = done == 0 && i == 0 ? src.first() : src.next();
        if (!ctx.decode(std::span<const TokenId>(tokens.data(), static_cast<size_t>(n)), pos0 + done, /*seq=*/0,
                        /*allLogits=*/false, stop))
            return false;
        done += n;
    }
    return true;
}

// nGen single-token decodes at positions pos0.. (what generation costs
// without the sampler). False when stopped.
bool runGeneration(Context& ctx, TokenSource& src, int nGen, int pos0, const std::atomic<bool>* stop)
{
    TokenId token = src.first();
    for (int i = 0; i < nGen; ++i) {
        if (!ctx.decode(std::span<const TokenId>(&token, 1), pos0 + i, /*seq=*/0, /*allLogits=*/false, stop))
            return false;
        token = src.next();
    }
    return true;
}

// One run of t on a cache holding exactly t.nDepth cells (positions
// 0..nDepth-1), which it leaves so again.
bool runOnce(Context& ctx, TokenSource& src, const BenchTest& t, int nBatch, const std::atomic<bool>* stop)
{
    const bool ok = (t.nPrompt <= 0 || runPrompt(ctx, src, t.nPrompt, nBatch, t.nDepth, stop)) &&
                    (t.nGen <= 0 || runGeneration(ctx, src, t.nGen, t.nDepth + t.nPrompt, stop));
    if (t.nDepth > 0)
        ctx.kv().removeSequence(/*seq=*/0, t.nDepth, -1);
    else
        ctx.kv().clear();
    return ok;
}

} // namespace

BenchResult runBenchTest(const LoadedModel& model, cpu::CpuBackend& backend, const BenchTest& test,
                         const BenchSettings& settings, const std::atomic<bool>* stop)
{
    BenchResult r;
    r.test = test;
    r.nBatch = settings.nBatch;
    r.kvType = settings.kvType;
    r.nCtx = settings.nCtx > 0 ? settings.nCtx : static_cast<int64_t>(test.nPrompt) + test.nGen + test.nDepth;
    backend.setThreads(test.threads);
    if (settings.measureRss)
        r.peakRssSinceStart = !resetProcessPeakResident();

    ContextParams cp;
    cp.nCtx = r.nCtx;
    cp.nBatch = settings.nBatch;
    cp.kvType = settings.kvType;
    Context ctx(model.modelShared(), backend, cp);
    TokenSource src(model, settings.seed);

    if (settings.warmup) {
        // As llama-bench: the whole prompt, or a single generated token,
        // from an empty cache.
        const BenchTest warm{test.nPrompt, test.nPrompt > 0 ? 0 : std::min(test.nGen, 1), test.threads};
        if (!runOnce(ctx, src, warm, settings.nBatch, stop)) {
            r.interrupted = true;
            return r;
        }
    }
    if (test.nDepth > 0 && !runPrompt(ctx, src, test.nDepth, settings.nBatch, 0, stop)) {
        r.interrupted = true;
        return r;
    }
    for (int rep = 0; rep < settings.reps; ++rep) {
        const auto t0 = Clock::now();
        if (!runOnce(ctx, src, test, settings.nBatch, stop)) {
            r.interrupted = true;
            break;
        }
        const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
        r.samplesNs.push_back(static_cast<uint64_t>(ns));
    }
    if (settings.measureRss)
        r.peakRss = processPeakResidentBytes();
    return r;
}

double mean(const std::vector<double>& v)
{
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double sampleStddev(const std::vector<double>& v)
{
    if (v.size() < 2)
        return 0.0;
    const double m = mean(v);
    double sq = 0.0;
    for (const double x : v)
        sq += (x - m) * (x - m);
    return std::sqrt(sq / static_cast<double>(v.size() - 1));
}

std::vector<double> BenchResult::samplesTs() const
{
    const double tokens = test.nPrompt + test.nGen;
    std::vector<double> ts;
    ts.reserve(samplesNs.size());
    for (const uint64_t ns : samplesNs)
        ts.push_back(1e9 * tokens / static_cast<double>(ns));
    return ts;
}

double BenchResult::avgTs() const
{
    return mean(samplesTs());
}

double BenchResult::stddevTs() const
{
    return sampleStddev(samplesTs());
}

uint64_t BenchResult::avgNs() const
{
    std::vector<double> ns(samplesNs.begin(), samplesNs.end());
    return static_cast<uint64_t>(std::llround(mean(ns)));
}

uint64_t BenchResult::stddevNs() const
{
    std::vector<double> ns(samplesNs.begin(), samplesNs.end());
    return static_cast<uint64_t>(std::llround(sampleStddev(ns)));
}

} // namespace cli

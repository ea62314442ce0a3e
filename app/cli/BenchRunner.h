// The measurements of `hearth bench`, made the way llama.cpp's llama-bench
// makes them so that the two tools' figures can be put side by side:
//
//   pp N  a prompt of N random tokens (BOS first when the model adds one),
//         submitted in batches of nBatch from an empty cache;
//   tg N  N tokens decoded one at a time from an empty cache (no prompt),
//         BOS (or a random token) first, then random tokens; no sampling;
//   @ dD  (-d, llama-bench's --n-depth) either of them after D tokens are
//         already in the cache: a prompt of D random tokens, processed as
//         pp is but not timed, so that attention spans D more cells.
//
// Each test gets its own context of nCtx cells (llama-bench's n_prompt +
// n_gen + n_depth unless set), a warm-up run (the whole prompt for pp, one
// token for tg, from an empty cache), then `reps` timed runs, each from the
// depth's cache: the depth prompt runs once, and each run's own cells are
// removed after it (llama-bench restores a saved state; the cells kept are
// the same). Everything goes through Context::decode, the path the app's
// sessions use.
//
// Thread-safety: one test at a time per backend.
#pragma once

#include "cpu/cpu_backend.h"
#include "runtime/loaded_model.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace cli {

struct BenchTest {
    int nPrompt = 0; // > 0 for a pp test
    int nGen = 0;    // > 0 for a tg test
    int threads = 1;
    int nDepth = 0; // tokens already in the cache when the test starts
};

struct BenchSettings {
    int reps = 5;
    int nBatch = 512; // tokens per forward pass
    int64_t nCtx = 0; // 0: nPrompt + nGen of the test
    bool warmup = true;
    bool measureRss = false;
    hearth::GgmlType kvType = hearth::GgmlType::F16; // -ctk / -ctv
    uint32_t seed = 1;                               // of the random tokens (fixed, so runs are repeatable)
};

struct BenchResult {
    BenchTest test;
    int gpuLayers = 0; // layers on the GPU as -ngl counts them
    int nBatch = 0;
    int64_t nCtx = 0;
    hearth::GgmlType kvType = hearth::GgmlType::F16;
    std::vector<uint64_t> samplesNs; // one per rep
    // Peak resident set size of the process during the test, from context
    // creation to the last rep (weights already loaded); 0 when not measured.
    uint64_t peakRss = 0;
    bool peakRssSinceStart = false; // the OS could not restart the peak: it is the process's lifetime peak
    bool interrupted = false;

    std::vector<double> samplesTs() const; // tokens per second, one per rep
    double avgTs() const;
    double stddevTs() const; // sample standard deviation (n - 1), 0 for one rep
    uint64_t avgNs() const;
    uint64_t stddevNs() const;
};

// Runs one test. Throws hearth::Error from the engine (a context that does
// not fit, ...). `stop` (Ctrl-C) ends it early with `interrupted` set.
BenchResult runBenchTest(const hearth::LoadedModel& model, hearth::cpu::CpuBackend& backend, const BenchTest& test,
                         const BenchSettings& settings, const std::atomic<bool>* stop);

// Mean and sample standard deviation, as llama-bench computes them.
double mean(const std::vector<double>& v);
double sampleStddev(const std::vector<double>& v);

} // namespace cli

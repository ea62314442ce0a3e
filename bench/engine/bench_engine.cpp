// bench_engine MODEL.gguf [-t N] [-p 512] [-n 128] [-r REPS]
// Prompt processing (pp) and generation (tg) speed of the engine, printed
// as one JSON object per test with llama-bench's field names; compare.py
// runs it next to llama.cpp on the same file and threads. (`hearth bench`
// with a table comes with issue 7.)

#include "cpu/cpu_backend.h"
#include "gguf/gguf.h"
#include "model/model.h"
#include "runtime/context.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

using namespace hearth;

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_engine MODEL.gguf [-t N] [-p 512] [-n 128] [-r REPS]\n");
        return 2;
    }
    int threads = 2, pp = 512, tg = 128, reps = 1;
    for (int i = 2; i + 1 < argc; i += 2) {
        const int v = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "-t"))
            threads = v;
        else if (!std::strcmp(argv[i], "-p"))
            pp = v;
        else if (!std::strcmp(argv[i], "-n"))
            tg = v;
        else if (!std::strcmp(argv[i], "-r"))
            reps = v;
    }
    cpu::CpuBackend backend(threads);
    std::shared_ptr<const Model> model = Model::create(std::make_shared<gguf::File>(argv[1]), backend);
    Context ctx(model, backend, ContextParams{pp + tg + 16, 512, GgmlType::F16});
    const auto vocab = static_cast<int32_t>(ctx.vocabSize());
    std::vector<TokenId> prompt(static_cast<size_t>(pp));
    for (int i = 0; i < pp; ++i)
        prompt[static_cast<size_t>(i)] = (i * 7919 + 13) % vocab;
    using Clock = std::chrono::steady_clock;
    for (int r = 0; r < reps; ++r) {
        ctx.kv().clear();
        auto t0 = Clock::now();
        if (pp > 0)
            ctx.decode(prompt, 0, 0, false);
        const double ppS = std::chrono::duration<double>(Clock::now() - t0).count();
        ctx.kv().clear();
        t0 = Clock::now();
        for (int i = 0; i < tg; ++i) {
            const TokenId t = (i * 31 + 7) % vocab;
            ctx.decode(std::span<const TokenId>(&t, 1), i, 0, false);
        }
        const double tgS = std::chrono::duration<double>(Clock::now() - t0).count();
        if (pp > 0)
            std::printf("{\"model_filename\": \"%s\", \"n_threads\": %d, \"n_prompt\": %d, \"n_gen\": 0, "
                        "\"avg_ts\": %.3f}\n",
                        argv[1], threads, pp, pp / ppS);
        if (tg > 0)
            std::printf("{\"model_filename\": \"%s\", \"n_threads\": %d, \"n_prompt\": 0, \"n_gen\": %d, "
                        "\"avg_ts\": %.3f}\n",
                        argv[1], threads, tg, tg / tgS);
    }
    return 0;
}

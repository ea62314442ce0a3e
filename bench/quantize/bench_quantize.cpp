// bench_quantize IN.gguf OUT.gguf TYPE [--threads N]: runs the quantizer of
// `hearth quantize` (quantize::quantizeModel, the same options) without the
// CLI's per-tensor printing, and prints the wall time. Only hearth_core is
// linked, so bench/quantize_vs_llama_cpp.py can time Hearth's quantizer in a
// build that has not made the app yet (--hearth build/dev/bench/bench_quantize).
#include "quantize/quantizer.h"
#include "util/error.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

int main(int argc, char** argv)
{
    using namespace hearth;
    if (argc != 4 && !(argc == 6 && std::strcmp(argv[4], "--threads") == 0)) {
        std::fprintf(stderr, "usage: %s IN.gguf OUT.gguf TYPE [--threads N]\n", argv[0]);
        return 2;
    }
    const std::optional<quantize::Mix> mix = quantize::parseMix(argv[3]);
    if (!mix) {
        std::fprintf(stderr, "unknown TYPE %s (one of %s)\n", argv[3], quantize::mixNames().c_str());
        return 2;
    }
    quantize::QuantizeOptions o;
    o.input = argv[1];
    o.output = argv[2];
    o.mix = *mix;
    o.threads = argc == 6 ? std::atoi(argv[5]) : 0;
    try {
        const auto t0 = std::chrono::steady_clock::now();
        const quantize::QuantizeResult r = quantize::quantizeModel(o);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("%zu tensors, %.2f -> %.2f bpw, %.3f s\n", r.tensors.size(), r.bpwIn(), r.bpwOut(), s);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_quantize: %s\n", e.what());
        return 1;
    }
    return 0;
}

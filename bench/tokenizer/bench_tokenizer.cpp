// Tokenization throughput on one core: encodes a text file with a model's
// tokenizer, best of N runs, and prints MB/s. bench/tokenizer/compare.py runs
// it next to llama.cpp on the same text.
//
//   bench_tokenizer MODEL.gguf TEXT_FILE [RUNS] [--parse-special]

#include "gguf/gguf.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s MODEL.gguf TEXT_FILE [RUNS] [--parse-special]\n", argv[0]);
        return 2;
    }
    const int runs = argc > 3 && std::strcmp(argv[3], "--parse-special") != 0 ? std::atoi(argv[3]) : 5;
    const bool parseSpecial = std::strcmp(argv[argc - 1], "--parse-special") == 0;
    try {
        std::ifstream in(argv[2], std::ios::binary);
        std::stringstream buffer;
        buffer << in.rdbuf();
        const std::string text = buffer.str();
        const hearth::gguf::File file(argv[1]);
        const auto load0 = std::chrono::steady_clock::now();
        const auto tok = hearth::Tokenizer::fromGguf(file);
        const double loadMs =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - load0).count();
        double best = 1e30;
        size_t tokens = 0;
        for (int r = 0; r < std::max(1, runs); ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            tokens = tok->encode(text, /*addSpecial=*/false, parseSpecial).size();
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        std::printf("bytes=%zu tokens=%zu best_s=%.6f mb_per_s=%.3f load_ms=%.1f\n", text.size(), tokens, best,
                    static_cast<double>(text.size()) / best / 1e6, loadMs);
    } catch (const hearth::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}

// libFuzzer target for the GGUF reader (scripts/fuzz-gguf runs it). Each
// input is parsed as an in-memory GGUF file. A refusal must be a
// hearth::Error; an accepted file must survive everything `hearth info` and
// a model loader do with a header (summary, metadata display, the first row
// of every tensor dequantized), and writing it again with gguf::Writer must
// give a file that parses to the same keys and tensors. ASan and UBSan (on
// in the fuzz build) turn any memory or undefined-behaviour error into a
// finding; libFuzzer's -rss_limit_mb/-malloc_limit_mb catch absurd
// allocations and -timeout hangs.

#include "gguf/gguf.h"
#include "gguf/gguf_writer.h"
#include "gguf/model_info.h"
#include "quant/types.h"
#include "util/error.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

using namespace hearth;

namespace {

[[noreturn]] void finding(const char* what)
{
    std::fprintf(stderr, "fuzz_gguf: %s\n", what);
    std::abort();
}

void exercise(const gguf::File& f)
{
    const gguf::ModelInfo info = gguf::summarize(f);
    (void)info.quantLabel();
    for (const gguf::KeyValue& kv : f.metadata())
        (void)kv.value.toDisplayString();
    std::vector<float> row;
    for (const gguf::TensorInfo& t : f.tensors()) {
        const TypeTraits& traits = typeTraits(t.type);
        if (!traits.dequantize || t.ne[0] == 0 || t.ne[0] > 4096 || t.elements() == 0)
            continue;
        row.resize(static_cast<size_t>(t.ne[0]));
        traits.dequantize(t.data, row.data(), t.ne[0]);
    }
}

void rewriteAndCompare(const gguf::File& f)
{
    const std::vector<uint8_t> again = gguf::copyOf(f).bytes();
    try {
        const gguf::File g("rewritten", again);
        size_t splitKeys = 0;
        for (const gguf::KeyValue& kv : f.metadata())
            splitKeys += kv.key.starts_with("split.") ? 1 : 0;
        if (g.metadata().size() != f.metadata().size() - splitKeys || g.tensors().size() != f.tensors().size())
            finding("the rewritten file has other keys or tensors");
        for (size_t i = 0; i < f.tensors().size(); ++i)
            if (g.tensors()[i].name != f.tensors()[i].name || g.tensors()[i].bytes != f.tensors()[i].bytes)
                finding("a rewritten tensor differs");
    } catch (const Error& e) {
        // The memory bound depends on the file's size, and the rewritten file
        // drops gaps and trailing bytes, so it may be refused for density.
        if (std::strstr(e.what(), "bytes of memory"))
            return;
        std::fprintf(stderr, "%s\n", e.what());
        finding("the reader refused what the writer wrote");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    try {
        const gguf::File f("input.gguf", std::span<const uint8_t>(data, size));
        exercise(f);
        rewriteAndCompare(f);
    } catch (const Error& e) {
        if (e.what()[0] == '\0')
            finding("an error without a message");
    }
    return 0;
}

#include "runtime/gpu_layers.h"

#include "kv/kv_cache.h"

#include <algorithm>
#include <charconv>
#include <string>

namespace hearth {

uint64_t DeviceNeeds::bytesFor(int64_t count) const
{
    if (count <= 0)
        return 0;
    const auto n = static_cast<int64_t>(layer.size());
    uint64_t b = scratch;
    for (int64_t l = std::max<int64_t>(0, n - count); l < n; ++l)
        b += layer[static_cast<size_t>(l)];
    return b + (count > n ? output : 0);
}

uint64_t DeviceNeeds::hostBytesSavedBy(int64_t count) const
{
    if (count <= 0)
        return 0;
    return bytesFor(count) - scratch - (count > static_cast<int64_t>(layer.size()) ? outputShared : 0);
}

int64_t DeviceNeeds::countThatFits(uint64_t free, uint64_t margin) const
{
    int64_t best = 0;
    for (int64_t c = 1; c <= maxCount(); ++c)
        if (bytesFor(c) + margin <= free)
            best = c;
    return best;
}

DeviceNeeds deviceNeeds(const gguf::File& file, const ModelParams& hp, const ContextParams& params, uint64_t scratch)
{
    DeviceNeeds d;
    d.layer.assign(static_cast<size_t>(hp.nLayer), 0);
    const int64_t cells = params.nCtx > 0 ? params.nCtx : defaultContextSize(hp);
    for (int64_t l = 0; l < hp.nLayer; ++l)
        d.layer[static_cast<size_t>(l)] =
            (rowBytes(params.kvType, hp.kvWidthK(l)) + rowBytes(params.kvType, hp.kvWidthV(l))) *
            static_cast<uint64_t>(cells);
    bool tied = true;
    for (const auto& t : file.tensors()) {
        if (t.name.rfind("blk.", 0) == 0) {
            int64_t l = -1;
            std::from_chars(t.name.data() + 4, t.name.data() + t.name.size(), l);
            if (l >= 0 && l < hp.nLayer)
                d.layer[static_cast<size_t>(l)] += t.bytes;
        } else if (t.name == "output.weight" || t.name == "output_norm.weight") {
            d.output += t.bytes;
            tied = tied && t.name != "output.weight";
        }
    }
    if (tied)
        if (const gguf::TensorInfo* e = file.findTensor("token_embd.weight")) {
            d.output += e->bytes;
            d.outputShared = e->bytes;
        }
    d.scratch = scratch;
    return d;
}

uint64_t autoMargin(uint64_t freeBytes)
{
    return std::max<uint64_t>(freeBytes / 10, std::min<uint64_t>(uint64_t{64} << 20, freeBytes / 4));
}

} // namespace hearth

// A llama-shaped GGUF with F16 weights (or another type) for the quantize
// tests of the app: test_quantize_job and the Qt Quick test's TestEnv. The
// header carries what the picker reads (context, embedding, heads, a
// tokenizer); the weights are deterministic noise, rows of `embd` (a
// multiple of 256, so every mix's types fit). Header-only.
#pragma once

#include "gguf/gguf_writer.h"
#include "quant/types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace testsupport {

struct QuantizeModel {
    std::string name = "Quantize Test Model";
    hearth::GgmlType weights = hearth::GgmlType::F16; // the 2-D weights; norms stay F32
    uint32_t fileType = 1;                            // general.file_type (1 = mostly F16)
    int64_t embd = 256;
    int64_t ff = 512;
    int64_t vocab = 64;
    uint32_t layers = 2;
};

inline std::vector<uint8_t> quantizeFixtureData(hearth::GgmlType type, int64_t n, uint32_t seed)
{
    std::vector<float> v(static_cast<size_t>(n));
    uint32_t s = seed * 2654435761u + 1;
    for (float& x : v) {
        s = s * 1664525u + 1013904223u;
        x = (static_cast<float>(s >> 8) / 16777216.0f - 0.5f) * 0.2f;
    }
    std::vector<uint8_t> out(hearth::rowBytes(type, n));
    hearth::typeTraits(type).quantize(v.data(), out.data(), n);
    return out;
}

// Writes `m` to `path` (throws hearth::Error if it cannot).
inline void writeQuantizeModel(const std::string& path, const QuantizeModel& m = {})
{
    hearth::gguf::Writer w;
    w.addString("general.architecture", "llama");
    w.addString("general.name", m.name);
    w.addUInt32("general.file_type", m.fileType);
    w.addUInt32("llama.context_length", 2048);
    w.addUInt32("llama.embedding_length", static_cast<uint32_t>(m.embd));
    w.addUInt32("llama.feed_forward_length", static_cast<uint32_t>(m.ff));
    w.addUInt32("llama.block_count", m.layers);
    w.addUInt32("llama.attention.head_count", 4);
    w.addUInt32("llama.attention.head_count_kv", 1);
    w.addString("tokenizer.ggml.model", "gpt2");
    std::vector<std::string> tokens;
    for (int64_t i = 0; i < m.vocab; ++i)
        tokens.push_back("t" + std::to_string(i));
    w.addStringArray("tokenizer.ggml.tokens", tokens);
    uint32_t seed = 1;
    const auto tensor = [&](const std::string& name, std::vector<int64_t> ne, hearth::GgmlType t) {
        int64_t n = 1;
        for (int64_t d : ne)
            n *= d;
        w.addTensor(name, t, ne, quantizeFixtureData(t, n, seed++));
    };
    tensor("token_embd.weight", {m.embd, m.vocab}, m.weights);
    for (uint32_t i = 0; i < m.layers; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        tensor(b + "attn_norm.weight", {m.embd}, hearth::GgmlType::F32);
        tensor(b + "attn_q.weight", {m.embd, m.embd}, m.weights);
        tensor(b + "attn_k.weight", {m.embd, m.embd / 4}, m.weights);
        tensor(b + "attn_v.weight", {m.embd, m.embd / 4}, m.weights);
        tensor(b + "attn_output.weight", {m.embd, m.embd}, m.weights);
        tensor(b + "ffn_norm.weight", {m.embd}, hearth::GgmlType::F32);
        tensor(b + "ffn_gate.weight", {m.embd, m.ff}, m.weights);
        tensor(b + "ffn_up.weight", {m.embd, m.ff}, m.weights);
        tensor(b + "ffn_down.weight", {m.ff, m.embd}, m.weights);
    }
    tensor("output_norm.weight", {m.embd}, hearth::GgmlType::F32);
    tensor("output.weight", {m.embd, m.vocab}, m.weights);
    w.write(path);
}

} // namespace testsupport

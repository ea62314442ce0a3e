#include "tiny_gguf.h"

#include <cstring>
#include <fstream>
#include <vector>

namespace testsupport {
namespace {

// GGUF value types and the F32 tensor type (see docs of the format).
constexpr uint32_t kUInt32 = 4, kString = 8, kArray = 9;
constexpr uint32_t kF32 = 0;
constexpr uint64_t kAlignment = 32;

struct Bytes {
    std::vector<char> data;
    template <typename T>
    void put(T v)
    {
        const char* p = reinterpret_cast<const char*>(&v);
        data.insert(data.end(), p, p + sizeof(T));
    }
    void str(const std::string& s)
    {
        put<uint64_t>(s.size());
        data.insert(data.end(), s.begin(), s.end());
    }
    void kvU32(const std::string& key, uint32_t v)
    {
        str(key);
        put<uint32_t>(kUInt32);
        put<uint32_t>(v);
    }
    void kvStr(const std::string& key, const std::string& v)
    {
        str(key);
        put<uint32_t>(kString);
        str(v);
    }
};

} // namespace

bool writeTinyGguf(const std::string& path, const TinyModel& m)
{
    const std::string a = m.architecture;
    Bytes kv;
    uint64_t kvCount = 0;
    auto u32 = [&](const std::string& key, uint32_t v) { kv.kvU32(key, v), ++kvCount; };
    auto str = [&](const std::string& key, const std::string& v) { kv.kvStr(key, v), ++kvCount; };
    str("general.architecture", a);
    str("general.name", m.name);
    u32("general.file_type", m.fileType);
    u32(a + ".context_length", m.contextLength);
    u32(a + ".embedding_length", m.embeddingLength);
    u32(a + ".block_count", m.blockCount);
    u32(a + ".attention.head_count", m.headCount);
    u32(a + ".attention.head_count_kv", m.headCountKv);
    u32(a + ".feed_forward_length", m.embeddingLength * 2);
    str("tokenizer.ggml.model", "gpt2");
    if (m.chatTemplate)
        str("tokenizer.chat_template", "{% for m in messages %}{{ m.content }}{% endfor %}");
    kv.str("tokenizer.ggml.tokens");
    kv.put<uint32_t>(kArray);
    kv.put<uint32_t>(kString);
    kv.put<uint64_t>(m.vocabSize);
    for (uint32_t i = 0; i < m.vocabSize; ++i)
        kv.str("t" + std::to_string(i));
    ++kvCount;

    // Tensors: token embeddings and one norm per block, F32.
    struct Tensor {
        std::string name;
        std::vector<uint64_t> dims;
    };
    std::vector<Tensor> tensors{{"token_embd.weight", {m.embeddingLength, m.vocabSize}}};
    for (uint32_t b = 0; b < m.blockCount; ++b)
        tensors.push_back({"blk." + std::to_string(b) + ".attn_norm.weight", {m.embeddingLength}});

    Bytes out;
    out.data = {'G', 'G', 'U', 'F'};
    out.put<uint32_t>(3);
    out.put<uint64_t>(tensors.size());
    out.put<uint64_t>(kvCount);
    out.data.insert(out.data.end(), kv.data.begin(), kv.data.end());
    uint64_t offset = 0;
    std::vector<uint64_t> sizes;
    for (const Tensor& t : tensors) {
        out.str(t.name);
        out.put<uint32_t>(uint32_t(t.dims.size()));
        uint64_t elements = 1;
        for (uint64_t d : t.dims) {
            out.put<uint64_t>(d);
            elements *= d;
        }
        out.put<uint32_t>(kF32);
        out.put<uint64_t>(offset);
        sizes.push_back(elements * 4);
        offset += (elements * 4 + kAlignment - 1) / kAlignment * kAlignment;
    }
    while (out.data.size() % kAlignment != 0)
        out.data.push_back(0);
    for (uint64_t size : sizes) {
        std::vector<float> values(size / 4, 0.5f);
        const char* p = reinterpret_cast<const char*>(values.data());
        out.data.insert(out.data.end(), p, p + size);
        while (out.data.size() % kAlignment != 0)
            out.data.push_back(0);
    }
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(out.data.data(), std::streamsize(out.data.size()));
    return bool(f);
}

} // namespace testsupport

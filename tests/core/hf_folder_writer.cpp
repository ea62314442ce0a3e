#include "hf_folder_writer.h"

#include "util/half.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace hftest {

namespace {

// xorshift64* with Box-Muller: the same values on every standard library.
class Rng {
public:
    explicit Rng(uint64_t seed) : m_state(seed * 0x9e3779b97f4a7c15ull + 1) {}
    double uniform()
    {
        m_state ^= m_state >> 12;
        m_state ^= m_state << 25;
        m_state ^= m_state >> 27;
        return static_cast<double>((m_state * 2685821657736338717ull) >> 11) * 0x1.0p-53;
    }
    float normal()
    {
        const double u = std::max(uniform(), 1e-300), v = uniform();
        return static_cast<float>(std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v));
    }

private:
    uint64_t m_state;
};

} // namespace

Tensor randomTensor(const std::string& name, const std::string& dtype, std::vector<int64_t> shape, uint64_t seed,
                    float scale, float offset)
{
    Tensor t{name, dtype, std::move(shape), {}, {}};
    int64_t n = 1;
    for (int64_t d : t.shape)
        n *= d;
    Rng rng(seed);
    for (int64_t i = 0; i < n; ++i) {
        float v = rng.normal() * scale + offset;
        if (dtype == "F32") {
            t.data.resize(t.data.size() + 4);
            std::memcpy(t.data.data() + t.data.size() - 4, &v, 4);
        } else {
            const uint16_t h = dtype == "F16" ? hearth::f32ToF16(v) : hearth::f32ToBf16(v);
            v = dtype == "F16" ? hearth::f16ToF32(h) : hearth::bf16ToF32(h);
            t.data.push_back(static_cast<uint8_t>(h & 0xff));
            t.data.push_back(static_cast<uint8_t>(h >> 8));
        }
        t.values.push_back(v);
    }
    return t;
}

std::vector<uint8_t> safetensorsBytes(const std::vector<Tensor>& tensors)
{
    nlohmann::json header = nlohmann::json::object();
    header["__metadata__"] = {{"format", "pt"}};
    size_t offset = 0;
    for (const Tensor& t : tensors) {
        header[t.name] = {{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {offset, offset + t.data.size()}}};
        offset += t.data.size();
    }
    std::string text = header.dump();
    text.resize((text.size() + 7) / 8 * 8, ' ');
    // Sized once and filled with memcpy (GCC 12 misreads insert() after resize(8)).
    std::vector<uint8_t> out(8 + text.size() + offset);
    const uint64_t n = text.size();
    std::memcpy(out.data(), &n, 8);
    std::memcpy(out.data() + 8, text.data(), text.size());
    size_t at = 8 + text.size();
    for (const Tensor& t : tensors) {
        if (!t.data.empty())
            std::memcpy(out.data() + at, t.data.data(), t.data.size());
        at += t.data.size();
    }
    return out;
}

void writeBytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes)
{
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out)
        throw std::runtime_error("cannot write " + path.string());
}

void writeSafetensors(const std::filesystem::path& path, const std::vector<Tensor>& tensors)
{
    writeBytes(path, safetensorsBytes(tensors));
}

void writeJson(const std::filesystem::path& path, const nlohmann::json& value)
{
    writeText(path, value.dump(2));
}

void writeText(const std::filesystem::path& path, const std::string& text)
{
    writeBytes(path, std::vector<uint8_t>(text.begin(), text.end()));
}

std::vector<uint8_t> readBytes(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace hftest

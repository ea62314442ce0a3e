// Builds metadata-only GGUF files byte by byte for tokenizer tests (any key,
// any type, including the wrong ones), independent of Hearth's reader.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace ggufbytes {

enum Type : uint32_t {
    U8 = 0,
    I8 = 1,
    U32 = 4,
    I32 = 5,
    F32 = 6,
    Bool = 7,
    Str = 8,
    Arr = 9
};

class Builder {
public:
    Builder& str(std::string_view key, std::string_view value)
    {
        head(key, Str);
        string(value);
        return *this;
    }
    Builder& u32(std::string_view key, uint32_t value)
    {
        head(key, U32);
        num(value);
        return *this;
    }
    Builder& i32(std::string_view key, int32_t value)
    {
        head(key, I32);
        num(value);
        return *this;
    }
    Builder& boolean(std::string_view key, bool value)
    {
        head(key, Bool);
        num<uint8_t>(value ? 1 : 0);
        return *this;
    }
    Builder& strings(std::string_view key, const std::vector<std::string>& values)
    {
        head(key, Arr);
        num<uint32_t>(Str).num<uint64_t>(values.size());
        for (const std::string& v : values)
            string(v);
        return *this;
    }
    template <typename T>
    Builder& array(std::string_view key, Type type, const std::vector<T>& values)
    {
        head(key, Arr);
        num<uint32_t>(type).num<uint64_t>(values.size());
        for (const T& v : values)
            num(v);
        return *this;
    }
    // The whole file: header, key/values, padding to 32 bytes.
    std::vector<uint8_t> bytes() const
    {
        std::vector<uint8_t> out{'G', 'G', 'U', 'F'};
        const auto put = [&](auto v) {
            const auto* p = reinterpret_cast<const uint8_t*>(&v);
            out.insert(out.end(), p, p + sizeof v);
        };
        put(uint32_t(3));
        put(uint64_t(0));
        put(m_count);
        out.insert(out.end(), m_kv.begin(), m_kv.end());
        while (out.size() % 32)
            out.push_back(0);
        return out;
    }
    void write(const std::string& path) const
    {
        const std::vector<uint8_t> b = bytes();
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
    }

private:
    template <typename T>
    Builder& num(T v)
    {
        const auto* p = reinterpret_cast<const uint8_t*>(&v);
        m_kv.insert(m_kv.end(), p, p + sizeof v);
        return *this;
    }
    void string(std::string_view s)
    {
        num<uint64_t>(s.size());
        m_kv.insert(m_kv.end(), s.begin(), s.end());
    }
    void head(std::string_view key, Type type)
    {
        string(key);
        num<uint32_t>(type);
        ++m_count;
    }

    std::vector<uint8_t> m_kv;
    uint64_t m_count = 0;
};

} // namespace ggufbytes

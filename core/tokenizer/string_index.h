// Hash tables the tokenizers look strings and pairs up in, many times per
// input byte: open addressing with linear probing over flat arrays, no
// allocation per lookup, lookups by std::string_view.
//
// StringIndex: strings -> dense ids 0..size()-1 in insertion order; texts live
// in one arena. PairIndex: (uint32, uint32) -> (int32, int32).
//
// Thread-safety: const methods may run concurrently; add() may not.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::tok {

inline uint64_t hashBytes(const char* data, size_t n)
{
    constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
    uint64_t h = 0x243F6A8885A308D3ull ^ (n * kMul);
    while (n >= 8) {
        uint64_t word;
        std::memcpy(&word, data, 8);
        h = (h ^ word) * kMul;
        h ^= h >> 29;
        data += 8;
        n -= 8;
    }
    uint64_t tail = 0;
    for (size_t i = 0; i < n; ++i)
        tail |= uint64_t(static_cast<uint8_t>(data[i])) << (8 * i);
    h = (h ^ tail) * kMul;
    h ^= h >> 32;
    return h * 0xD6E8FEB86659FD93ull;
}

class StringIndex {
public:
    int32_t size() const { return static_cast<int32_t>(m_offsets.size()); }
    std::string_view text(int32_t id) const
    {
        return {m_arena.data() + m_offsets[id], m_lengths[static_cast<size_t>(id)]};
    }
    // The id of `s`, or -1.
    int32_t find(std::string_view s) const
    {
        if (m_slots.empty())
            return -1;
        const uint64_t h = hashBytes(s.data(), s.size());
        for (size_t i = h & m_mask;; i = (i + 1) & m_mask) {
            const int32_t id = m_slots[i];
            if (id < 0)
                return -1;
            if (m_hashes[id] == h && text(id) == s)
                return id;
        }
    }
    // The id of `s`, adding it when absent. `added` says which happened.
    int32_t add(std::string_view s, bool* added = nullptr)
    {
        if ((m_offsets.size() + 1) * 2 > m_slots.size())
            grow();
        const uint64_t h = hashBytes(s.data(), s.size());
        size_t i = h & m_mask;
        for (; m_slots[i] >= 0; i = (i + 1) & m_mask) {
            const int32_t id = m_slots[i];
            if (m_hashes[id] == h && text(id) == s) {
                if (added)
                    *added = false;
                return id;
            }
        }
        const auto id = static_cast<int32_t>(m_offsets.size());
        m_offsets.push_back(m_arena.size());
        m_lengths.push_back(static_cast<uint32_t>(s.size()));
        m_hashes.push_back(h);
        m_arena.append(s);
        m_slots[i] = id;
        if (added)
            *added = true;
        return id;
    }
    void reserve(size_t count, size_t bytes)
    {
        m_offsets.reserve(count);
        m_lengths.reserve(count);
        m_hashes.reserve(count);
        m_arena.reserve(bytes);
    }

private:
    void grow()
    {
        size_t capacity = m_slots.empty() ? 64 : m_slots.size() * 2;
        while (capacity < (m_offsets.size() + 1) * 2)
            capacity *= 2;
        m_slots.assign(capacity, -1);
        m_mask = capacity - 1;
        for (int32_t id = 0; id < size(); ++id) {
            size_t i = m_hashes[id] & m_mask;
            while (m_slots[i] >= 0)
                i = (i + 1) & m_mask;
            m_slots[i] = id;
        }
    }

    std::string m_arena;
    std::vector<size_t> m_offsets;
    std::vector<uint32_t> m_lengths;
    std::vector<uint64_t> m_hashes;
    std::vector<int32_t> m_slots;
    size_t m_mask = 0;
};

class PairIndex {
public:
    struct Value {
        int32_t a;
        int32_t b;
    };
    static uint64_t key(uint32_t left, uint32_t right) { return (uint64_t(left) << 32) | right; }

    // Keeps the first value stored for a key (lowest merge rank wins).
    void insertIfAbsent(uint64_t k, Value v)
    {
        if ((m_count + 1) * 2 > m_keys.size())
            grow();
        size_t i = slot(k);
        while (m_keys[i] != kEmpty && m_keys[i] != k)
            i = (i + 1) & m_mask;
        if (m_keys[i] == k)
            return;
        m_keys[i] = k;
        m_values[i] = v;
        ++m_count;
    }
    const Value* find(uint64_t k) const
    {
        if (m_keys.empty())
            return nullptr;
        for (size_t i = slot(k);; i = (i + 1) & m_mask) {
            if (m_keys[i] == k)
                return &m_values[i];
            if (m_keys[i] == kEmpty)
                return nullptr;
        }
    }
    size_t size() const { return m_count; }

private:
    static constexpr uint64_t kEmpty = ~uint64_t(0);
    size_t slot(uint64_t k) const { return ((k * 0x9E3779B97F4A7C15ull) >> 20) & m_mask; }
    void grow()
    {
        std::vector<uint64_t> keys = std::move(m_keys);
        std::vector<Value> values = std::move(m_values);
        const size_t capacity = keys.empty() ? 64 : keys.size() * 2;
        m_keys.assign(capacity, kEmpty);
        m_values.assign(capacity, Value{0, 0});
        m_mask = capacity - 1;
        for (size_t j = 0; j < keys.size(); ++j) {
            if (keys[j] == kEmpty)
                continue;
            size_t i = slot(keys[j]);
            while (m_keys[i] != kEmpty)
                i = (i + 1) & m_mask;
            m_keys[i] = keys[j];
            m_values[i] = values[j];
        }
    }

    std::vector<uint64_t> m_keys;
    std::vector<Value> m_values;
    size_t m_count = 0;
    size_t m_mask = 0;
};

} // namespace hearth::tok

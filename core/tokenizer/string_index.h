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
    int32_t size() const { return static_cast<int32_t>(m_spans.size()); }
    std::string_view text(int32_t id) const
    {
        const uint64_t span = m_spans[static_cast<size_t>(id)];
        return {m_arena.data() + (span >> 24), static_cast<size_t>(span & 0xFFFFFF)};
    }
    // The id of `s`, or -1.
    int32_t find(std::string_view s) const
    {
        if (m_slots.empty())
            return -1;
        const uint64_t h = hashBytes(s.data(), s.size());
        const auto tag = static_cast<uint32_t>(h >> 32);
        for (size_t i = h & m_mask;; i = (i + 1) & m_mask) {
            const Slot slot = m_slots[i];
            if (slot.id < 0)
                return -1;
            if (slot.tag == tag && text(slot.id) == s)
                return slot.id;
        }
    }
    // The id of `s`, adding it when absent. `added` says which happened.
    // Strings longer than 16 MiB are refused (-1).
    int32_t add(std::string_view s, bool* added = nullptr)
    {
        if (added)
            *added = false;
        if (s.size() > 0xFFFFFF)
            return -1;
        if ((m_spans.size() + 1) * 2 > m_slots.size())
            grow();
        const uint64_t h = hashBytes(s.data(), s.size());
        const auto tag = static_cast<uint32_t>(h >> 32);
        size_t i = h & m_mask;
        for (; m_slots[i].id >= 0; i = (i + 1) & m_mask) {
            if (m_slots[i].tag == tag && text(m_slots[i].id) == s)
                return m_slots[i].id;
        }
        const auto id = static_cast<int32_t>(m_spans.size());
        m_spans.push_back((uint64_t(m_arena.size()) << 24) | s.size());
        m_tags.push_back(h);
        m_arena.append(s);
        m_slots[i] = {id, tag};
        if (added)
            *added = true;
        return id;
    }
    void reserve(size_t count, size_t bytes)
    {
        m_spans.reserve(count);
        m_tags.reserve(count);
        m_arena.reserve(bytes);
    }

private:
    // A slot keeps the high half of the hash so that most probes of absent
    // strings end without touching the texts.
    struct Slot {
        int32_t id;
        uint32_t tag;
    };
    void grow()
    {
        size_t capacity = m_slots.empty() ? 64 : m_slots.size() * 2;
        while (capacity < (m_spans.size() + 1) * 2)
            capacity *= 2;
        m_slots.assign(capacity, Slot{-1, 0});
        m_mask = capacity - 1;
        for (int32_t id = 0; id < size(); ++id) {
            const uint64_t h = m_tags[static_cast<size_t>(id)];
            size_t i = h & m_mask;
            while (m_slots[i].id >= 0)
                i = (i + 1) & m_mask;
            m_slots[i] = {id, static_cast<uint32_t>(h >> 32)};
        }
    }

    std::string m_arena;
    std::vector<uint64_t> m_spans; // offset << 24 | length
    std::vector<uint64_t> m_tags;  // full hashes, for growing
    std::vector<Slot> m_slots;
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
        if ((m_count + 1) * 2 > m_entries.size())
            grow();
        size_t i = slot(k);
        while (m_entries[i].key != kEmpty && m_entries[i].key != k)
            i = (i + 1) & m_mask;
        if (m_entries[i].key == k)
            return;
        m_entries[i] = {k, v};
        ++m_count;
    }
    const Value* find(uint64_t k) const
    {
        if (m_entries.empty())
            return nullptr;
        for (size_t i = slot(k);; i = (i + 1) & m_mask) {
            const Entry& e = m_entries[i];
            if (e.key == k)
                return &e.value;
            if (e.key == kEmpty)
                return nullptr;
        }
    }
    size_t size() const { return m_count; }

private:
    static constexpr uint64_t kEmpty = ~uint64_t(0);
    // Key and value side by side: a lookup touches one cache line.
    struct Entry {
        uint64_t key;
        Value value;
    };
    size_t slot(uint64_t k) const { return ((k * 0x9E3779B97F4A7C15ull) >> 20) & m_mask; }
    void grow()
    {
        std::vector<Entry> old = std::move(m_entries);
        const size_t capacity = old.empty() ? 64 : old.size() * 2;
        m_entries.assign(capacity, Entry{kEmpty, {0, 0}});
        m_mask = capacity - 1;
        for (const Entry& e : old) {
            if (e.key == kEmpty)
                continue;
            size_t i = slot(e.key);
            while (m_entries[i].key != kEmpty)
                i = (i + 1) & m_mask;
            m_entries[i] = e;
        }
    }

    std::vector<Entry> m_entries;
    size_t m_count = 0;
    size_t m_mask = 0;
};

} // namespace hearth::tok

// A byte trie mapping strings to int32 values, walked one byte at a time.
// Edges live in one hash table keyed by (node, byte). Immutable after
// building; const methods are thread-safe.
#pragma once

#include "tokenizer/string_index.h"

#include <string_view>
#include <vector>

namespace hearth::tok {

class ByteTrie {
public:
    static constexpr uint32_t kRoot = 0;

    ByteTrie() : m_values(1, -1) {}

    // Stores `value` for `key` unless the key already has one.
    void insert(std::string_view key, int32_t value)
    {
        uint32_t node = kRoot;
        for (const char c : key) {
            const int32_t next = child(node, static_cast<uint8_t>(c));
            if (next >= 0) {
                node = static_cast<uint32_t>(next);
                continue;
            }
            const auto added = static_cast<uint32_t>(m_values.size());
            m_edges.insertIfAbsent(PairIndex::key(node, static_cast<uint8_t>(c)), {static_cast<int32_t>(added), 0});
            m_values.push_back(-1);
            node = added;
        }
        if (m_values[node] < 0)
            m_values[node] = value;
    }
    // The child of `node` along `byte`, or -1.
    int32_t child(uint32_t node, uint8_t byte) const
    {
        const PairIndex::Value* edge = m_edges.find(PairIndex::key(node, byte));
        return edge ? edge->a : -1;
    }
    // The value stored at `node`, or -1.
    int32_t value(uint32_t node) const { return m_values[node]; }
    // Bytes of `text` the trie can follow from the root, whether or not a
    // key ends there (how llama.cpp matches user-defined tokens in UGM).
    size_t longestPath(std::string_view text) const
    {
        uint32_t node = kRoot;
        size_t i = 0;
        for (; i < text.size(); ++i) {
            const int32_t next = child(node, static_cast<uint8_t>(text[i]));
            if (next < 0)
                break;
            node = static_cast<uint32_t>(next);
        }
        return i;
    }

private:
    PairIndex m_edges;
    std::vector<int32_t> m_values;
};

} // namespace hearth::tok

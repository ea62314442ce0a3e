#include "tokenizer/special_tokens.h"

#include <algorithm>

namespace hearth::tok {

namespace {

// C's isspace() in the "C" locale, which llama.cpp's strip rules use.
bool isAsciiSpace(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

} // namespace

SpecialTokens::SpecialTokens(const Vocab& vocab) : m_vocab(vocab)
{
    for (size_t rank = 0; rank < vocab.specialOrder.size(); ++rank) {
        const std::string_view text = vocab.text(vocab.specialOrder[rank]);
        m_trie.insert(text, static_cast<int32_t>(rank));
        if (text.size() >= 2) {
            const auto first = static_cast<uint8_t>(text[0]), second = static_cast<uint8_t>(text[1]);
            m_secondBytes[first][second >> 6] |= uint64_t(1) << (second & 63);
        }
    }
    for (int b = 0; b < 256; ++b)
        m_firstNode[b] = m_trie.child(ByteTrie::kRoot, static_cast<uint8_t>(b));
}

void SpecialTokens::occurring(std::string_view text, bool parseSpecial, std::vector<uint32_t>& ranks) const
{
    ranks.clear();
    std::vector<bool> seen;
    const auto note = [&](uint32_t node) {
        const int32_t rank = m_trie.value(node);
        if (rank < 0)
            return;
        const uint32_t attr = m_vocab.attrs[static_cast<size_t>(m_vocab.specialOrder[static_cast<size_t>(rank)])];
        if (!parseSpecial && (attr & (AttrControl | AttrUnknown)))
            return;
        if (seen.empty())
            seen.resize(m_vocab.specialOrder.size());
        if (!seen[static_cast<size_t>(rank)]) {
            seen[static_cast<size_t>(rank)] = true;
            ranks.push_back(static_cast<uint32_t>(rank));
        }
    };
    const size_t n = text.size();
    for (size_t pos = 0; pos < n; ++pos) {
        const auto first = static_cast<uint8_t>(text[pos]);
        const int32_t level1 = m_firstNode[first];
        if (level1 < 0)
            continue;
        note(static_cast<uint32_t>(level1));
        if (pos + 1 == n)
            break;
        const auto second = static_cast<uint8_t>(text[pos + 1]);
        if (!(m_secondBytes[first][second >> 6] & (uint64_t(1) << (second & 63))))
            continue;
        auto node = static_cast<uint32_t>(level1);
        for (size_t i = pos + 1; i < n; ++i) {
            const int32_t child = m_trie.child(node, static_cast<uint8_t>(text[i]));
            if (child < 0)
                break;
            node = static_cast<uint32_t>(child);
            note(node);
        }
    }
    std::sort(ranks.begin(), ranks.end());
}

void SpecialTokens::partition(std::string_view text, bool parseSpecial, std::vector<Fragment>& out) const
{
    out.clear();
    if (text.empty())
        return;
    out.push_back({0, static_cast<uint32_t>(text.size()), kNoToken});
    std::vector<uint32_t> ranks;
    occurring(text, parseSpecial, ranks);
    std::vector<Fragment> next;
    for (const uint32_t rank : ranks) {
        const TokenId token = m_vocab.specialOrder[rank];
        const std::string_view special = m_vocab.text(token);
        const uint32_t attr = m_vocab.attrs[token];
        const auto length = static_cast<uint32_t>(special.size());
        next.clear();
        for (const Fragment& fragment : out) {
            if (fragment.token != kNoToken) {
                next.push_back(fragment);
                continue;
            }
            uint32_t begin = fragment.begin;
            const uint32_t end = fragment.end;
            while (begin < end) {
                const size_t match = text.substr(0, end).find(special, begin);
                if (match == std::string_view::npos) {
                    next.push_back({begin, end, kNoToken});
                    break;
                }
                const auto at = static_cast<uint32_t>(match);
                uint32_t leftEnd = at;
                if (attr & AttrLstrip) {
                    while (leftEnd > begin && isAsciiSpace(text[leftEnd - 1]))
                        --leftEnd;
                }
                if (leftEnd > begin)
                    next.push_back({begin, leftEnd, kNoToken});
                next.push_back({at, at + length, token});
                begin = at + length;
                if (attr & AttrRstrip) {
                    while (begin < end && isAsciiSpace(text[begin]))
                        ++begin;
                }
            }
        }
        out.swap(next);
    }
}

} // namespace hearth::tok

// SentencePiece unigram ("t5" vocabularies: T5, XLM-RoBERTa based
// embedders). Text is normalised with the model's precompiled character map
// (a double-array trie of replacements), spaces become U+2581, and the
// segmentation with the best total score is found by dynamic programming.
#include "tokenizer/ugm.h"

#include "tokenizer/unicode.h"

#include <algorithm>
#include <cfloat>
#include <cstring>

namespace hearth::tok {

UgmModel::UgmModel(const Vocab& vocab) : m_vocab(vocab)
{
    float minScore = FLT_MAX;
    for (TokenId id = 0; id < vocab.size(); ++id) {
        const uint32_t attr = vocab.attrs[static_cast<size_t>(id)];
        if (attr & AttrNormal)
            minScore = std::min(minScore, vocab.scores[static_cast<size_t>(id)]);
        if (attr & (AttrNormal | AttrUserDefined | AttrUnused))
            m_tokens.insert(vocab.text(id), id);
        if (attr & AttrUserDefined)
            m_userDefined.insert(vocab.text(id), id);
    }
    m_unknownScore = minScore - 10.0f;

    const std::string& map = vocab.precompiledCharsmap;
    if (map.size() >= 4) {
        uint32_t blob = 0;
        std::memcpy(&blob, map.data(), 4); // little-endian files on little-endian hosts
        m_xcda.resize(blob / 4);
        if (!m_xcda.empty())
            std::memcpy(m_xcda.data(), map.data() + 4, m_xcda.size() * 4);
        m_replacements = std::string_view(map).substr(4 + size_t(blob));
    }
}

// The normalised form of the longest prefix of text[offset..] the character
// map knows, as (replacement, input bytes consumed); {} when it knows none.
std::pair<std::string_view, size_t> UgmModel::mapPrefix(std::string_view text, size_t offset) const
{
    // XCDA entry: BASE in bits 10-30 (shifted by bit 9), LCHECK in bits 0-7
    // (and 31), LEAF in bit 8; a leaf's value is the replacement's offset.
    const auto node = [&](size_t i) -> std::optional<uint32_t> {
        if (i >= m_xcda.size())
            return std::nullopt;
        return m_xcda[i];
    };
    const auto base = [](uint32_t packed) { return (packed >> 10) << ((packed & (1u << 9)) >> 6); };
    size_t bestLength = 0, bestOffset = 0;
    auto root = node(0);
    if (!root)
        return {};
    uint32_t index = base(*root);
    for (size_t p = offset; p < text.size(); ++p) {
        const auto c = static_cast<uint8_t>(text[p]);
        if (c == 0)
            break;
        index ^= c;
        const auto packed = node(index);
        if (!packed || (*packed & ((1u << 31) | 0xFF)) != c)
            break;
        const bool leaf = (*packed >> 8) & 1;
        index ^= base(*packed);
        if (leaf) {
            const auto value = node(index);
            if (!value)
                break;
            bestLength = p - offset + 1;
            bestOffset = *value & ((1u << 31) - 1);
        }
    }
    if (bestLength == 0 || bestOffset >= m_replacements.size())
        return {};
    const std::string_view rest = m_replacements.substr(bestOffset);
    const size_t end = rest.find('\0');
    if (end == std::string_view::npos)
        return {};
    return {rest.substr(0, end), bestLength};
}

void UgmModel::normalize(std::string_view text, std::string& out) const
{
    const Vocab& v = m_vocab;
    const std::string_view space = v.escapeWhitespaces ? "\xE2\x96\x81" : " ";
    const bool prependSpace = !v.treatWhitespaceAsSuffix && v.addSpacePrefix;
    const bool appendSpace = v.treatWhitespaceAsSuffix && v.addSpacePrefix;
    const bool mergeSpaces = v.removeExtraWhitespaces;
    bool spacePrepended = false, inWord = false;
    out.clear();
    for (size_t offset = 0; offset < text.size();) {
        std::string_view piece;
        size_t consumed = m_userDefined.longestPath(text.substr(offset));
        if (consumed > 0) {
            piece = text.substr(offset, consumed);
        } else if (auto mapped = mapPrefix(text, offset); mapped.second > 0) {
            piece = mapped.first;
            consumed = mapped.second;
        } else if (const size_t n = utf8ValidLength(text, offset); n > 0) {
            piece = text.substr(offset, n);
            consumed = n;
        } else {
            piece = "\xEF\xBF\xBD";
            consumed = 1;
        }
        for (const char c : piece) {
            if (c != ' ') {
                if (!inWord) {
                    inWord = true;
                    if ((prependSpace && !spacePrepended) || mergeSpaces) {
                        out += space;
                        spacePrepended = true;
                    }
                }
                out += c;
            } else {
                inWord = false;
                if (!mergeSpaces)
                    out += space;
            }
        }
        offset += consumed;
    }
    if (appendSpace)
        out += space;
}

void UgmModel::encode(std::string_view text, EncodeScratch& s, std::vector<TokenId>& out) const
{
    normalize(text, s.text);
    const std::string_view input = s.text;
    const size_t n = input.size();
    if (n == 0)
        return;
    struct Best {
        TokenId token;
        size_t from;
        double score;
    };
    const TokenId unk = m_vocab.special.unk;
    std::vector<Best> best(n + 1, {unk, 0, -DBL_MAX});
    best[0] = {unk, 0, 0.0};
    for (size_t offset = 0; offset < n;) {
        const size_t charLength = std::min(utf8SequenceLength(static_cast<uint8_t>(input[offset])), n - offset);
        const double current = best[offset].score;
        bool wholeChar = false;
        uint32_t node = ByteTrie::kRoot;
        for (size_t end = offset; end < n; ++end) {
            const int32_t child = m_tokens.child(node, static_cast<uint8_t>(input[end]));
            if (child < 0)
                break;
            node = static_cast<uint32_t>(child);
            const TokenId id = m_tokens.value(node);
            if (id < 0)
                continue;
            wholeChar |= end + 1 - offset == charLength;
            const bool userDefined = (m_vocab.attrs[static_cast<size_t>(id)] & AttrUserDefined) != 0;
            const double score = current + (userDefined ? 0.0 : m_vocab.scores[static_cast<size_t>(id)]);
            if (score > best[end + 1].score)
                best[end + 1] = {id, offset, score};
        }
        if (!wholeChar) {
            const double score = current + m_unknownScore;
            if (score > best[offset + charLength].score)
                best[offset + charLength] = {unk, offset, score};
        }
        offset += charLength;
    }
    // Walk back from the end; runs of unknown pieces become one unknown token.
    const size_t start = out.size();
    bool previousUnknown = false;
    for (size_t at = n;;) {
        const Best& b = best[at];
        const bool unknown = b.token == unk;
        if (!(previousUnknown && unknown) && b.token >= 0)
            out.push_back(b.token);
        if (b.from == 0)
            break;
        previousUnknown = unknown;
        at = b.from;
    }
    std::reverse(out.begin() + static_cast<std::ptrdiff_t>(start), out.end());
}

} // namespace hearth::tok

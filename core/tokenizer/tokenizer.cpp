#include "tokenizer/tokenizer.h"

#include "tokenizer/detokenize.h"
#include "tokenizer/encoders.h"
#include "tokenizer/special_tokens.h"
#include "tokenizer/ugm.h"
#include "tokenizer/vocab.h"
#include "util/error.h"

#include <algorithm>

namespace hearth {

using namespace tok;

struct Tokenizer::Impl {
    Vocab vocab;
    std::unique_ptr<PreTokenizer> pre;
    std::unique_ptr<SpecialTokens> special;
    std::unique_ptr<UgmModel> ugm;

    void encodeSpm(const std::vector<Fragment>& fragments, std::string_view text, bool addSpecial,
                   EncodeScratch& scratch, std::vector<TokenId>& out) const;
};

Tokenizer::Tokenizer(std::unique_ptr<Impl> impl) : m_impl(std::move(impl))
{
}
Tokenizer::~Tokenizer() = default;

std::unique_ptr<Tokenizer> Tokenizer::fromGguf(const gguf::File& file)
{
    return fromGguf(file, Options{});
}

std::unique_ptr<Tokenizer> Tokenizer::fromGguf(const gguf::File& file, const Options& options)
{
    auto impl = std::make_unique<Impl>();
    loadVocab(file, LoadOptions{options.preTokenizer}, impl->vocab);
    if (impl->vocab.type == VocabType::Bpe)
        impl->pre = std::make_unique<PreTokenizer>(*impl->vocab.pre);
    if (impl->vocab.type == VocabType::Ugm)
        impl->ugm = std::make_unique<UgmModel>(impl->vocab);
    impl->special = std::make_unique<SpecialTokens>(impl->vocab);
    return std::unique_ptr<Tokenizer>(new Tokenizer(std::move(impl)));
}

// SPM prefixes a space to the first piece of text and to every piece after a
// special token (when add_space_prefix), and writes spaces as U+2581.
void Tokenizer::Impl::encodeSpm(const std::vector<Fragment>& fragments, std::string_view text, bool addSpecial,
                                EncodeScratch& scratch, std::vector<TokenId>& out) const
{
    bool afterSpecial = true;
    if (addSpecial && vocab.addBos)
        out.push_back(vocab.special.bos);
    std::string escaped;
    for (const Fragment& f : fragments) {
        if (f.token != kNoToken) {
            out.push_back(f.token);
            afterSpecial = true;
            continue;
        }
        escaped.clear();
        if (vocab.addSpacePrefix && afterSpecial)
            escaped += "\xE2\x96\x81";
        for (const char c : text.substr(f.begin, f.end - f.begin)) {
            if (c == ' ')
                escaped += "\xE2\x96\x81";
            else
                escaped += c;
        }
        tok::encodeSpm(vocab, escaped, scratch, out);
        afterSpecial = false;
    }
    if (addSpecial && vocab.addEos)
        out.push_back(vocab.special.eos);
}

std::vector<TokenId> Tokenizer::encode(std::string_view text, bool addSpecial, bool parseSpecial) const
{
    const Vocab& v = m_impl->vocab;
    if (text.size() >= UINT32_MAX)
        throw Error("tokenizer: a text of " + std::to_string(text.size()) + " bytes is too long (4 GiB at most)");
    std::vector<Fragment> fragments;
    m_impl->special->partition(text, parseSpecial, fragments);
    EncodeScratch scratch;
    std::vector<TokenId> out;
    out.reserve(text.size() / 3 + 4);
    if (v.type == VocabType::Spm) {
        m_impl->encodeSpm(fragments, text, addSpecial, scratch, out);
        return out;
    }
    const bool wpm = v.type == VocabType::Wpm;
    if (addSpecial && (wpm ? v.special.bos >= 0 : v.addBos))
        out.push_back(v.special.bos);
    for (const Fragment& f : fragments) {
        if (f.token != kNoToken) {
            out.push_back(f.token);
            continue;
        }
        const std::string_view piece = text.substr(f.begin, f.end - f.begin);
        switch (v.type) {
        case VocabType::Bpe: encodeBpe(v, *m_impl->pre, piece, scratch, out); break;
        case VocabType::Wpm: encodeWpm(v, piece, scratch, out); break;
        case VocabType::Ugm: m_impl->ugm->encode(piece, scratch, out); break;
        case VocabType::Spm: break;
        }
    }
    if (addSpecial && wpm && v.special.sep >= 0)
        out.push_back(v.special.sep);
    else if (addSpecial && !wpm && v.addEos)
        out.push_back(v.special.eos);
    return out;
}

std::string Tokenizer::tokenToPiece(TokenId id, bool renderSpecial) const
{
    if (!m_impl->vocab.valid(id))
        throw Error("token id " + std::to_string(id) + " is outside the vocabulary of " +
                    std::to_string(m_impl->vocab.size()) + " tokens");
    std::string piece;
    appendPiece(m_impl->vocab, id, renderSpecial, piece);
    return piece;
}

std::string Tokenizer::decode(std::span<const TokenId> ids, bool renderSpecial) const
{
    for (const TokenId id : ids) {
        if (!m_impl->vocab.valid(id))
            throw Error("token id " + std::to_string(id) + " is outside the vocabulary of " +
                        std::to_string(m_impl->vocab.size()) + " tokens");
    }
    return detokenize(m_impl->vocab, ids, renderSpecial);
}

int32_t Tokenizer::vocabSize() const
{
    return m_impl->vocab.size();
}

Tokenizer::Type Tokenizer::type() const
{
    switch (m_impl->vocab.type) {
    case VocabType::Spm: return Type::Spm;
    case VocabType::Bpe: return Type::Bpe;
    case VocabType::Wpm: return Type::Wpm;
    case VocabType::Ugm: return Type::Ugm;
    }
    return Type::Spm;
}

std::string_view Tokenizer::model() const
{
    return m_impl->vocab.model;
}

std::string_view Tokenizer::preTokenizer() const
{
    return m_impl->vocab.preName;
}

TokenId Tokenizer::bos() const
{
    return m_impl->vocab.special.bos;
}

TokenId Tokenizer::eos() const
{
    return m_impl->vocab.special.eos;
}

TokenId Tokenizer::eot() const
{
    return m_impl->vocab.special.eot;
}

TokenId Tokenizer::eom() const
{
    return m_impl->vocab.special.eom;
}

TokenId Tokenizer::unk() const
{
    return m_impl->vocab.special.unk;
}

TokenId Tokenizer::sep() const
{
    return m_impl->vocab.special.sep;
}

TokenId Tokenizer::pad() const
{
    return m_impl->vocab.special.pad;
}

bool Tokenizer::addBos() const
{
    return m_impl->vocab.addBos;
}

bool Tokenizer::addEos() const
{
    return m_impl->vocab.addEos;
}

bool Tokenizer::isEndOfGeneration(TokenId id) const
{
    const auto& eog = m_impl->vocab.endOfGeneration;
    return std::binary_search(eog.begin(), eog.end(), id);
}

std::span<const TokenId> Tokenizer::endOfGenerationTokens() const
{
    return m_impl->vocab.endOfGeneration;
}

bool Tokenizer::isControl(TokenId id) const
{
    return (tokenAttributes(id) & AttrControl) != 0;
}

uint32_t Tokenizer::tokenAttributes(TokenId id) const
{
    return m_impl->vocab.valid(id) ? m_impl->vocab.attrs[static_cast<size_t>(id)] : 0;
}

std::string_view Tokenizer::tokenText(TokenId id) const
{
    return m_impl->vocab.valid(id) ? m_impl->vocab.text(id) : std::string_view();
}

float Tokenizer::tokenScore(TokenId id) const
{
    return m_impl->vocab.valid(id) ? m_impl->vocab.scores[static_cast<size_t>(id)] : 0.0f;
}

TokenId Tokenizer::findToken(std::string_view text) const
{
    return m_impl->vocab.tokens.find(text);
}

const std::vector<std::string>& Tokenizer::warnings() const
{
    return m_impl->vocab.warnings;
}

} // namespace hearth

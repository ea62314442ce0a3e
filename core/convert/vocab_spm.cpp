// SentencePiece vocabularies (tokenizer.model) the way llama.cpp's
// _set_vocab_sentencepiece writes them, with our own bounded reader of the
// protobuf wire format instead of the sentencepiece library.
//
// tokenizer.model is a serialized sentencepiece.ModelProto; only field 1
// (repeated SentencePiece pieces) matters here. Each piece is a message of
// piece (1, string), score (2, float) and type (3, enum: 1 normal,
// 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte). Every length is
// checked against the bytes that remain; anything malformed is an error
// naming the file and the offset.
#include "convert/special_vocab.h"
#include "convert/vocab.h"

#include "gguf/gguf_writer.h"
#include "util/error.h"

#include <cstring>
#include <fstream>
#include <map>
#include <optional>

namespace hearth::convert {

namespace {

constexpr int32_t kNormal = 1, kUnknown = 2, kControl = 3, kUserDefined = 4, kUnused = 5, kByte = 6;
constexpr uint64_t kMaxModelBytes = uint64_t{256} << 20;

struct Piece {
    std::string text;
    float score = 0.0f;
    int32_t type = kNormal;
};

class WireReader {
public:
    WireReader(const uint8_t* p, size_t n, const std::string& where, size_t base = 0)
        : m_p(p), m_n(n), m_where(where), m_base(base)
    {
    }
    bool done() const { return m_at >= m_n; }
    uint64_t varint()
    {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_at >= m_n)
                fail("a varint runs past the end");
            const uint8_t b = m_p[m_at++];
            v |= static_cast<uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80))
                return v;
        }
        fail("a varint is longer than 10 bytes");
    }
    // The bytes of a length-delimited field.
    std::pair<const uint8_t*, size_t> bytes()
    {
        const uint64_t len = varint();
        if (len > m_n - m_at)
            fail("a field of " + std::to_string(len) + " bytes runs past the end");
        const uint8_t* p = m_p + m_at;
        m_at += static_cast<size_t>(len);
        return {p, static_cast<size_t>(len)};
    }
    uint32_t fixed32()
    {
        if (m_n - m_at < 4)
            fail("a 32-bit field runs past the end");
        uint32_t v;
        std::memcpy(&v, m_p + m_at, 4);
        m_at += 4;
        return v;
    }
    void skip(uint32_t wireType)
    {
        switch (wireType) {
        case 0: varint(); return;
        case 1:
            if (m_n - m_at < 8)
                fail("a 64-bit field runs past the end");
            m_at += 8;
            return;
        case 2: bytes(); return;
        case 5: fixed32(); return;
        default: fail("unknown wire type " + std::to_string(wireType));
        }
    }
    size_t offset() const { return m_base + m_at; }
    [[noreturn]] void fail(const std::string& what) const
    {
        throw Error(m_where + ": not a SentencePiece model: " + what + " (byte " + std::to_string(m_base + m_at) + ")");
    }

private:
    const uint8_t* m_p;
    size_t m_n;
    size_t m_at = 0;
    std::string m_where;
    size_t m_base;
};

Piece readPiece(const uint8_t* p, size_t n, const std::string& where, size_t base)
{
    WireReader r(p, n, where, base);
    Piece piece;
    while (!r.done()) {
        const uint64_t tag = r.varint();
        const uint32_t field = static_cast<uint32_t>(tag >> 3), wire = static_cast<uint32_t>(tag & 7);
        if (field == 1 && wire == 2) {
            const auto [s, len] = r.bytes();
            piece.text.assign(reinterpret_cast<const char*>(s), len);
        } else if (field == 2 && wire == 5) {
            const uint32_t bits = r.fixed32();
            std::memcpy(&piece.score, &bits, 4);
        } else if (field == 3 && wire == 0) {
            piece.type = static_cast<int32_t>(r.varint());
            if (piece.type < kNormal || piece.type > kByte)
                r.fail("piece type " + std::to_string(piece.type) + " is not 1..6");
        } else {
            r.skip(wire);
        }
    }
    return piece;
}

std::vector<Piece> readModel(const std::filesystem::path& path)
{
    const std::string where = path.string();
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw Error(where + ": cannot open");
    f.seekg(0, std::ios::end);
    const auto size = static_cast<uint64_t>(f.tellg());
    if (size > kMaxModelBytes)
        throw Error(where + ": " + std::to_string(size) + " bytes, more than a SentencePiece model can be");
    f.seekg(0);
    std::vector<uint8_t> data(static_cast<size_t>(size));
    if (!f.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(size)))
        throw Error(where + ": cannot read");
    WireReader r(data.data(), data.size(), where);
    std::vector<Piece> pieces;
    while (!r.done()) {
        const uint64_t tag = r.varint();
        const uint32_t field = static_cast<uint32_t>(tag >> 3), wire = static_cast<uint32_t>(tag & 7);
        if (field == 1 && wire == 2) {
            const size_t at = r.offset();
            const auto [p, len] = r.bytes();
            pieces.push_back(readPiece(p, len, where, at));
        } else {
            r.skip(wire);
        }
    }
    if (pieces.empty())
        throw Error(where + ": not a SentencePiece model: it has no pieces");
    return pieces;
}

} // namespace

namespace {

struct SpmVocab {
    std::vector<std::string> tokens;
    std::vector<float> scores;
    std::vector<int32_t> types;
};

// The pieces of tokenizer.model in ids 0..size-1, holes as [PADi].
SpmVocab baseSpm(const HfFolder& folder, std::optional<int64_t> vocabSize)
{
    if (!folder.hasFile("tokenizer.model"))
        throw VocabNotFound(folder.path("tokenizer.model").string() + ": not found");
    const std::vector<Piece> pieces = readModel(folder.path("tokenizer.model"));
    const int64_t size = vocabSize.value_or(static_cast<int64_t>(pieces.size()));
    if (size <= 0 || size > 16'000'000)
        throw Error(folder.path("config.json").string() + ": vocab_size " + std::to_string(size) + " is out of range");
    const auto n = static_cast<size_t>(size);
    SpmVocab v{std::vector<std::string>(n), std::vector<float>(n, -10000.0f), std::vector<int32_t>(n, kUnused)};
    for (size_t i = 0; i < n; ++i)
        v.tokens[i] = "[PAD" + std::to_string(i) + "]";
    for (size_t i = 0; i < pieces.size() && i < n; ++i) {
        v.tokens[i] = pieces[i].text;
        v.scores[i] = pieces[i].score;
        // As sentencepiece's IsUnknown / IsControl / IsUnused / IsByte: a
        // user-defined piece counts as normal here.
        const int32_t t = pieces[i].type;
        v.types[i] = t == kUnknown || t == kControl || t == kUnused || t == kByte ? t : kNormal;
    }
    if (folder.hasFile("added_tokens.json")) {
        const Json added = readJsonFile(folder.path("added_tokens.json"));
        if (!added.is_object())
            throw Error(folder.path("added_tokens.json").string() + ": not a JSON object");
        for (const auto& [text, id] : added.items()) {
            if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() >= size)
                continue; // llama.cpp skips ids out of range too
            const auto i = static_cast<size_t>(id.get<int64_t>());
            v.tokens[i] = text;
            v.scores[i] = -1000.0f;
            v.types[i] = kUserDefined;
        }
    }
    return v;
}

// One added token's id, or -1 when it is not a valid id below `size`.
int64_t addedId(const std::string& key, int64_t size)
{
    char* end = nullptr;
    const long long id = std::strtoll(key.c_str(), &end, 10);
    return end == key.c_str() || *end != '\0' || id < 0 || id >= size ? -1 : id;
}

void writeSpm(const HfFolder& folder, gguf::Writer& w, const SpmVocab& v)
{
    w.addString("tokenizer.ggml.model", "llama");
    w.addString("tokenizer.ggml.pre", "default");
    w.addStringArray("tokenizer.ggml.tokens", std::span<const std::string>(v.tokens));
    w.addArray("tokenizer.ggml.scores", v.scores);
    w.addArray("tokenizer.ggml.token_type", v.types);
    SpecialVocab special(folder, /*loadMerges=*/false, static_cast<int64_t>(v.tokens.size()));
    special.addToGguf(w);
}

} // namespace

void writeVocabSentencePiece(const HfFolder& folder, gguf::Writer& w, const VocabOptions& options)
{
    SpmVocab v = baseSpm(folder, options.vocabSize);
    const auto size = static_cast<int64_t>(v.tokens.size());
    if (const Json* cfg = folder.tokenizerConfig(); cfg && cfg->is_object() && cfg->contains("added_tokens_decoder")) {
        const Json& dec = (*cfg)["added_tokens_decoder"];
        if (!dec.is_object())
            throw Error(folder.path("tokenizer_config.json").string() + ": added_tokens_decoder is not an object");
        for (const auto& [key, data] : dec.items()) {
            const int64_t id = addedId(key, size);
            if (id < 0 || !data.is_object() || !data.contains("content") || !data["content"].is_string())
                continue;
            std::string token = data["content"].get<std::string>();
            const auto i = static_cast<size_t>(id);
            if (data.value("special", false) || tokenLooksSpecial(token)) {
                v.types[i] = kControl;
            } else {
                for (size_t at; (at = token.find("\xe2\x96\x81")) != std::string::npos;)
                    token.replace(at, 3, " "); // pre-normalized user-defined spaces
                v.types[i] = kUserDefined;
            }
            v.scores[i] = -1000.0f;
            v.tokens[i] = std::move(token);
        }
    }
    writeSpm(folder, w, v);
}

void writeVocabPhi3(const HfFolder& folder, gguf::Writer& w, const VocabOptions& options)
{
    SpmVocab v = baseSpm(folder, options.vocabSize);
    const auto size = static_cast<int64_t>(v.tokens.size());
    // Phi3MiniModel.set_vocab: added tokens of tokenizer_config.json, then of
    // tokenizer.json, user-defined unless marked special (no heuristic).
    const auto apply = [&](int64_t id, const Json& data) {
        if (id < 0 || !data.is_object() || !data.contains("content") || !data["content"].is_string())
            return;
        const auto i = static_cast<size_t>(id);
        v.tokens[i] = data["content"].get<std::string>();
        v.scores[i] = -1000.0f;
        v.types[i] = data.value("special", false) ? kControl : kUserDefined;
    };
    if (const Json* cfg = folder.tokenizerConfig(); cfg && cfg->is_object() && cfg->contains("added_tokens_decoder")) {
        const Json& dec = (*cfg)["added_tokens_decoder"];
        if (dec.is_object())
            for (const auto& [key, data] : dec.items())
                apply(addedId(key, size), data);
    }
    if (const Json* tok = folder.tokenizerJson(); tok && tok->is_object() && tok->contains("added_tokens")) {
        const Json& added = (*tok)["added_tokens"];
        if (added.is_array())
            for (const Json& data : added)
                if (data.is_object() && data.contains("id") && data["id"].is_number_integer())
                    apply(data["id"].get<int64_t>() < size ? data["id"].get<int64_t>() : -1, data);
    }
    writeSpm(folder, w, v);
}

} // namespace hearth::convert

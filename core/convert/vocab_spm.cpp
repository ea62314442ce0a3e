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

void writeVocabSentencePiece(const HfFolder& folder, gguf::Writer& w, const VocabOptions& options)
{
    if (!folder.hasFile("tokenizer.model"))
        throw VocabNotFound(folder.path("tokenizer.model").string() + ": not found");
    const std::vector<Piece> pieces = readModel(folder.path("tokenizer.model"));
    const int64_t size = options.vocabSize.value_or(static_cast<int64_t>(pieces.size()));
    if (size <= 0 || size > 16'000'000)
        throw Error(folder.path("config.json").string() + ": vocab_size " + std::to_string(size) + " is out of range");
    const auto n = static_cast<size_t>(size);
    std::vector<std::string> tokens(n);
    std::vector<float> scores(n, -10000.0f);
    std::vector<int32_t> types(n, kUnused);
    for (size_t i = 0; i < n; ++i)
        tokens[i] = "[PAD" + std::to_string(i) + "]";
    for (size_t i = 0; i < pieces.size() && i < n; ++i) {
        tokens[i] = pieces[i].text;
        scores[i] = pieces[i].score;
        // As sentencepiece's IsUnknown / IsControl / IsUnused / IsByte: a
        // user-defined piece counts as normal here.
        const int32_t t = pieces[i].type;
        types[i] = t == kUnknown || t == kControl || t == kUnused || t == kByte ? t : kNormal;
    }
    if (folder.hasFile("added_tokens.json")) {
        const Json added = readJsonFile(folder.path("added_tokens.json"));
        if (!added.is_object())
            throw Error(folder.path("added_tokens.json").string() + ": not a JSON object");
        for (const auto& [text, id] : added.items()) {
            if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() >= size)
                continue; // llama.cpp skips ids out of range too
            const auto i = static_cast<size_t>(id.get<int64_t>());
            tokens[i] = text;
            scores[i] = -1000.0f;
            types[i] = kUserDefined;
        }
    }
    if (const Json* cfg = folder.tokenizerConfig(); cfg && cfg->is_object() && cfg->contains("added_tokens_decoder")) {
        const Json& dec = (*cfg)["added_tokens_decoder"];
        if (!dec.is_object())
            throw Error(folder.path("tokenizer_config.json").string() + ": added_tokens_decoder is not an object");
        for (const auto& [key, data] : dec.items()) {
            char* end = nullptr;
            const long long id = std::strtoll(key.c_str(), &end, 10);
            if (end == key.c_str() || *end != '\0' || id < 0 || id >= size || !data.is_object() ||
                !data.contains("content") || !data["content"].is_string())
                continue;
            std::string token = data["content"].get<std::string>();
            const auto i = static_cast<size_t>(id);
            if (data.value("special", false) || tokenLooksSpecial(token)) {
                types[i] = kControl;
            } else {
                for (size_t at; (at = token.find("\xe2\x96\x81")) != std::string::npos;)
                    token.replace(at, 3, " "); // pre-normalized user-defined spaces
                types[i] = kUserDefined;
            }
            scores[i] = -1000.0f;
            tokens[i] = std::move(token);
        }
    }
    w.addString("tokenizer.ggml.model", "llama");
    w.addString("tokenizer.ggml.pre", "default");
    w.addStringArray("tokenizer.ggml.tokens", std::span<const std::string>(tokens));
    w.addArray("tokenizer.ggml.scores", scores);
    w.addArray("tokenizer.ggml.token_type", types);
    SpecialVocab special(folder, /*loadMerges=*/false, static_cast<int64_t>(tokens.size()));
    special.addToGguf(w);
}

} // namespace hearth::convert

// Text <-> token ids for a model, driven only by its GGUF metadata
// (`tokenizer.ggml.*`), giving the same ids as llama.cpp for every input:
//
//   SPM  (model "llama"): Llama 2, Mistral, Gemma, Phi-3 - score-ordered
//        merges, byte fallback, the U+2581 space convention;
//   BPE  (model "gpt2"):  byte-level BPE with the pre-tokenizer named by
//        `tokenizer.ggml.pre` (llama3, qwen2, smollm, deepseek, gpt-4o, ...);
//   WPM  (model "bert"):  BERT WordPiece;
//   UGM  (model "t5"):    SentencePiece unigram.
//
// Special tokens are cut out of the text first (control tokens only with
// parseSpecial; user-defined tokens always), longest text first.
// docs/tokenizers.md describes the rules and the known pre-tokenizers.
//
// Thread-safety: a Tokenizer is immutable after construction; every const
// method may run on any number of threads at once. It does not keep the
// gguf::File it was made from.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hearth {

namespace gguf {
class File;
}

using TokenId = int32_t;

class Tokenizer {
public:
    enum class Type {
        Spm,
        Bpe,
        Wpm,
        Ugm
    };

    struct Options {
        // Use this pre-tokenizer instead of tokenizer.ggml.pre (BPE only).
        std::string preTokenizer;
    };

    // Reads the vocabulary. Throws hearth::Error naming the metadata key that
    // is missing, malformed or out of range, or the unknown tokenizer or
    // pre-tokenizer. A missing tokenizer.ggml.pre falls back to "default"
    // with a warning (see warnings()), as llama.cpp does.
    static std::unique_ptr<Tokenizer> fromGguf(const gguf::File& file);
    static std::unique_ptr<Tokenizer> fromGguf(const gguf::File& file, const Options& options);
    ~Tokenizer();

    // Token ids of `text` (any bytes; invalid UTF-8 is handled as llama.cpp
    // does). addSpecial adds BOS/EOS as the vocabulary says (BERT: [CLS] and
    // [SEP]); parseSpecial turns control-token texts in `text` into those
    // tokens. Cost: linear in the text, about one hash lookup per byte.
    // Throws hearth::Error only for a text of 4 GiB or more.
    std::vector<TokenId> encode(std::string_view text, bool addSpecial, bool parseSpecial) const;

    // The bytes of one token (possibly part of a UTF-8 character). Control
    // and unknown tokens give "" unless renderSpecial. Throws hearth::Error
    // for an id outside the vocabulary.
    std::string tokenToPiece(TokenId id, bool renderSpecial) const;
    // The text of a token sequence, as llama.cpp's llama_detokenize: the
    // pieces joined, the SPM space prefix removed from the first, and (for
    // vocabularies that ask for it) " ," " ." " 's"... cleaned up.
    std::string decode(std::span<const TokenId> ids, bool renderSpecial) const;

    int32_t vocabSize() const;
    Type type() const;
    std::string_view model() const;        // tokenizer.ggml.model
    std::string_view preTokenizer() const; // "" unless BPE

    TokenId bos() const; // -1 when absent
    TokenId eos() const;
    TokenId eot() const;
    TokenId eom() const;
    TokenId unk() const;
    TokenId sep() const;
    TokenId pad() const;
    bool addBos() const;
    bool addEos() const;

    // True for eos, eot, eom and the well-known end markers in the vocabulary
    // (<|im_end|>, <end_of_turn>, <|eot_id|>, <|endoftext|>, ...).
    bool isEndOfGeneration(TokenId id) const;
    std::span<const TokenId> endOfGenerationTokens() const;
    bool isControl(TokenId id) const;
    // Attribute bits (tok::TokenAttr in tokenizer/vocab.h); 0 for bad ids.
    uint32_t tokenAttributes(TokenId id) const;
    // The token's text as stored in the vocabulary ("" for bad ids).
    std::string_view tokenText(TokenId id) const;
    float tokenScore(TokenId id) const;
    // The id of the token whose stored text is `text`, or -1.
    TokenId findToken(std::string_view text) const;

    // Things a person should know about this vocabulary (empty when none).
    const std::vector<std::string>& warnings() const;

    struct Impl;

private:
    explicit Tokenizer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

// Turns generated tokens into text as they come, emitting only whole UTF-8
// characters: bytes of a character split across tokens wait for the rest.
// Bytes that can never form a character come out as U+FFFD. Pieces are
// joined as they are (no space-prefix removal, no clean-up).
// Not thread-safe; the Tokenizer must outlive the decoder.
class StreamingDecoder {
public:
    explicit StreamingDecoder(const Tokenizer& tok, bool renderSpecial = false);

    // The complete characters now available (may be ""). Throws
    // hearth::Error for an id outside the vocabulary.
    std::string push(TokenId id);
    // Whatever remains (an unfinished character as U+FFFD); resets.
    std::string flush();

private:
    const Tokenizer& m_tok;
    bool m_renderSpecial;
    std::string m_pending;
};

} // namespace hearth

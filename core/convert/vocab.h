// Tokenizer metadata (tokenizer.ggml.*) from a Hugging Face tokenizer, the
// way llama.cpp's converter writes it, one function per vocabulary kind:
//
//   gpt2   byte-level BPE from tokenizer.json (or vocab.json + merges.txt):
//          tokens, token types, `pre` detected from the check-text hash,
//          merges and special tokens (Llama 3, Qwen 2/3, SmolLM, ...);
//   bert   WordPiece from tokenizer.json or vocab.txt, in llama.cpp's
//          "phantom space" form (U+2581 before word starts, "##" removed);
//   llama  SentencePiece from tokenizer.model (Llama 2, Mistral, Gemma,
//          Phi-3), or from a tokenizer.json BPE with byte fallback.
//
// Each writes its keys in the converter's order. `vocabSize` is config.json's
// vocab_size when it has one. Token types follow llama.cpp: 1 normal,
// 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte.
#pragma once

#include "convert/hf_folder.h"

#include <optional>
#include <stdexcept>
#include <string>

namespace hearth::gguf {
class Writer;
}

namespace hearth::convert {

// The kind of vocabulary asked for is not in the folder (the caller may try
// another kind, as llama.cpp's converter does).
class VocabNotFound : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct VocabOptions {
    std::optional<int64_t> vocabSize;
    // Force tokenizer.ggml.pre instead of detecting it (BPE only).
    std::string preTokenizer;
};

void writeVocabGpt2(const HfFolder& folder, gguf::Writer& writer, const VocabOptions& options);
void writeVocabBert(const HfFolder& folder, gguf::Writer& writer, const VocabOptions& options);
// Throws VocabNotFound when there is no tokenizer.model.
void writeVocabSentencePiece(const HfFolder& folder, gguf::Writer& writer, const VocabOptions& options);
// Phi-3's own SentencePiece variant (Phi3MiniModel.set_vocab): added tokens
// from tokenizer_config.json and tokenizer.json, control only when special.
void writeVocabPhi3(const HfFolder& folder, gguf::Writer& writer, const VocabOptions& options);
// Throws VocabNotFound unless tokenizer.json is a BPE with byte fallback
// (and not a Llama 3 style one, which is gpt2).
void writeVocabLlamaHf(const HfFolder& folder, gguf::Writer& writer, const VocabOptions& options);

// llama.cpp's heuristic for added tokens that should be control tokens.
bool tokenLooksSpecial(std::string_view token);

} // namespace hearth::convert

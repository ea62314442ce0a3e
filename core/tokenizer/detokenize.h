// Token ids back to bytes, as llama.cpp's llama_token_to_piece and
// llama_detokenize: SPM/WPM/UGM pieces show U+2581 as a space, byte-level BPE
// pieces map GPT-2 characters back to bytes, byte tokens give their byte.
#pragma once

#include "tokenizer/vocab.h"

#include <span>
#include <string>

namespace hearth::tok {

// Appends the bytes of `id` (a valid id) to `out`.
void appendPiece(const Vocab& vocab, TokenId id, bool renderSpecial, std::string& out);

// The text of valid ids (leading space of SPM removed, spaces cleaned).
std::string detokenize(const Vocab& vocab, std::span<const TokenId> ids, bool renderSpecial);

} // namespace hearth::tok

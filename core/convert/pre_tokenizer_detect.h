// Which `tokenizer.ggml.pre` a byte-level BPE (or WordPiece) tokenizer gets,
// decided as llama.cpp's converter decides it: the tokenizer encodes a fixed
// check text, and the SHA-256 of the printed id list ("[1, 2, 3]") is looked
// up in the converter's table of known tokenizers (where a hash appears
// twice, the later entry wins, as in the converter).
//
// Hugging Face's own tokenizer is not available here, so the ids come from
// Hearth's tokenizer, which gives llama.cpp's (= Hugging Face's) ids for every
// pre-tokenizer it knows: each distinct pre-tokenizer is tried in turn, and
// the one whose hash is in the table names the result. Special tokens are
// added around the ids as the tokenizer's post-processor says.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::convert {

// The check text of llama.cpp's convert_hf_to_gguf.py (chktxt).
std::string_view preTokenizerCheckText();

// The name the converter's table gives a hash, or nullopt.
std::optional<std::string_view> preTokenizerForHash(std::string_view sha256Hex);

// Lower-case hex SHA-256 of `bytes`.
std::string sha256Hex(std::string_view bytes);
// Python's str() of a list of ints: "[1, 2, 3]".
std::string pythonListString(std::span<const int32_t> ids);

// The names, in table order without repeats (candidates to try).
std::vector<std::string_view> preTokenizerTableNames();

} // namespace hearth::convert

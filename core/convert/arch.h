// One architecture of `hearth convert`: what llama.cpp's converter class for
// it does (set_gguf_parameters, set_vocab, modify_tensors,
// generate_extra_tensors), so the GGUF gets the same keys and tensors.
//
// The shared parts are here: TextModel's hyper-parameter keys
// (writeCommonParameters) and the name table lookup (mapName).
#pragma once

#include "convert/hf_folder.h"
#include "convert/vocab.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::gguf {
class Writer;
}

namespace hearth::convert {

// How a source tensor's values change on the way (on each element or row).
struct Transform {
    // Llama's q/k rows: undo Hugging Face's rotary permutation. Rows come in
    // `permuteHeads` groups of 2 halves; output row h*2*half + 2i + j is
    // source row h*2*half + j*half + i.
    int64_t permuteHeads = 0;
    // Gemma's norms store w - 1: add 1 (in the source's precision).
    bool addOne = false;
    // Keep only the first rows of the outermost dimension (0: all): Gemma 3's
    // embedding rows beyond the tokenizer's vocabulary are dropped.
    int64_t keepRows = 0;
};

// A GGUF tensor made from one source tensor.
struct MappedTensor {
    std::string name;
    const StTensor* source = nullptr;
    Transform transform;
};

// A GGUF tensor the converter computes (rope frequency factors).
struct GeneratedTensor {
    std::string name;
    std::vector<float> values; // 1-D, F32
};

class Architecture {
public:
    virtual ~Architecture() = default;
    // general.architecture, e.g. "llama".
    virtual std::string_view ggufName() const = 0;
    // The keys of set_gguf_parameters, general.file_type last.
    virtual void writeParameters(const HfFolder& folder, gguf::Writer& w, uint32_t fileType) const = 0;
    virtual void writeVocab(const HfFolder& folder, gguf::Writer& w, const VocabOptions& options) const = 0;
    // The GGUF tensors one source tensor becomes: none when it is skipped.
    // Throws hearth::Error for a tensor it cannot place.
    virtual std::vector<MappedTensor> mapTensor(const HfFolder& folder, const StTensor& t) const = 0;
    virtual std::vector<GeneratedTensor> extraTensors(const HfFolder& /*folder*/) const { return {}; }
};

// The architecture for config.json's "architectures"[0], or nullptr.
std::unique_ptr<Architecture> findArchitecture(std::string_view hfClass);
// "LlamaForCausalLM, MistralForCausalLM, ..." for error messages and help.
std::string supportedArchitectures();

// TextModel.set_gguf_parameters without general.file_type.
void writeCommonParameters(const HfFolder& folder, gguf::Writer& w, std::string_view arch);

// A Hugging Face name to its GGUF name through a table of
// {"hf pattern", "gguf pattern"} where "{bid}" stands for the block number,
// trying the suffixes .weight and .bias; "" when no entry matches.
struct NamePair {
    std::string_view hf;
    std::string_view gguf;
};
std::string mapName(std::string_view hfName, std::span<const NamePair> table);

// The first all-digit part of a dotted name ("model.layers.12.x" -> 12), or -1.
int blockIdOf(std::string_view name);

} // namespace hearth::convert

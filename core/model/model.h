// A loaded transformer: hyperparameters, weights bound in place in the
// mapped GGUF file, and the family's forward pass. One subclass per family
// (llama.cpp, qwen2.cpp, qwen3.cpp, gemma2.cpp, gemma3.cpp, phi3.cpp, and the
// encoder bert.cpp), each
// registered by architecture name in model.cpp.
//
// Tensor shapes are written ggml-style, innermost first: a weight
// [n_in, n_out] has n_out rows of n_in values.
//
// Thread-safety: immutable after load; forward() may record into several
// graphs at once. Ownership: shares the gguf::File, whose mapping holds the
// weights.
#pragma once

#include "backend/backend.h"
#include "backend/placement.h"
#include "gguf/gguf.h"
#include "model/graph.h"
#include "model/hparams.h"

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace hearth {

// Every weight field below must be listed in forEachWeight (model.cpp),
// which moves a layer's weights to its backend.
struct LayerWeights {
    Tensor attnNorm;     // [n_embd]
    Tensor wq, wk, wv;   // [n_embd, heads·dk], [n_embd, kv_heads·dk], [n_embd, kv_heads·dv]
    Tensor wqkv;         // phi3: [n_embd, (heads + 2·kv_heads)·dk] instead of wq/wk/wv
    Tensor bq, bk, bv;   // qwen2: [heads·dk], [kv_heads·dk], [kv_heads·dv]
    Tensor qNorm, kNorm; // qwen3, gemma3: [dk]
    Tensor wo;           // [heads·dv, n_embd]
    Tensor attnPostNorm; // gemma: [n_embd]
    Tensor ffnNorm;      // [n_embd]
    Tensor ffnGate;      // [n_embd, n_ff] (absent for phi3)
    Tensor ffnUp;        // [n_embd, n_ff]; phi3: [n_embd, 2·n_ff] (gate then up)
    Tensor ffnDown;      // [n_ff, n_embd]
    Tensor ffnPostNorm;  // gemma: [n_embd]; bert: layer_output_norm (after the FFN residual)
    // bert: the biases of its projections and LayerNorms ([out] each); its
    // attnPostNorm is attn_output_norm (after the attention residual).
    Tensor bo, ffnUpBias, ffnDownBias, attnPostNormBias, ffnPostNormBias;
};

// The standard decoder layer: attn_norm, attn_q / attn_k / attn_v,
// attn_output, ffn_norm, ffn_gate / ffn_up / ffn_down, always; these parts
// where a family has them (Model::bindLayers).
struct LayerTensors {
    bool qkvBias = false;   // attn_{q,k,v}.bias (qwen2)
    bool qkNorm = false;    // attn_{q,k}_norm.weight [dk], RMS norm per head (qwen3, gemma3)
    bool postNorms = false; // post_attention_norm, post_ffw_norm [n_embd] (gemma)
};

struct ModelWeights {
    Tensor tokenEmbd;                // [n_embd, n_vocab]
    Tensor outputNorm;               // [n_embd]
    Tensor output;                   // [n_embd, n_vocab]; the token embedding when tied
    Tensor ropeFreqs;                // llama3: [n_rot/2] frequency divisors (optional)
    Tensor ropeLong, ropeShort;      // phi3 longrope: [n_rot/2] (optional)
    Tensor positionEmbd;             // bert: [n_embd, n_ctx_train] learned absolute positions
    Tensor tokenTypes;               // bert: [n_embd, n_types] segment embeddings
    Tensor inputNorm, inputNormBias; // bert: token_embd_norm [n_embd], the LayerNorm of the embeddings
    std::vector<LayerWeights> layers;
};

// Everything one forward call reads besides the weights. Arrays have one
// entry per token of the batch unless stated otherwise; they must stay
// valid until the op list has run.
struct ForwardInputs {
    int64_t nTokens = 0;
    const int32_t* tokens = nullptr;
    const int32_t* positions = nullptr;
    const int32_t* cells = nullptr;      // KV cells the tokens' K and V are written to
    int64_t nOutputs = 0;                // rows of logits wanted
    const int32_t* outputRows = nullptr; // [nOutputs] batch indices of those rows; null: every row in order
    Tensor logits;                       // [n_vocab, nOutputs] f32, caller-owned; encoders (bert):
                                         // the last hidden states [n_embd, nTokens]
    const int32_t* tokenTypes = nullptr; // encoders: [n] segment ids (bert's token types)
    std::vector<Tensor> kCache, vCache;  // per layer: [kvWidth, cells] views of the cache
    AttentionMask mask;                  // cells scanned and who may see them
    int64_t nCtx = 0;                    // context size (picks phi3's long rope factors)
};

class Model {
public:
    virtual ~Model() = default;

    // Reads the architecture and builds the matching family. Throws
    // hearth::Error naming an unknown architecture, a missing or misshapen
    // tensor, or a tensor type `backend` cannot compute with.
    static std::unique_ptr<Model> create(std::shared_ptr<const gguf::File> file, Backend& backend);
    // The same with the layers the placement puts on a device copied there
    // (progress and cancel through `upload`). Throws as above, and
    // OutOfDeviceMemory when they do not fit, Cancelled.
    static std::unique_ptr<Model> create(std::shared_ptr<const gguf::File> file, const Placement& placement,
                                         const UploadOptions& upload = {});
    static std::vector<std::string_view> supportedArchitectures();

    // Where the layers live (host-only unless created with a placement).
    const Placement& placement() const { return m_placement; }
    // Bytes of weights copied to the device.
    uint64_t deviceWeightBytes() const;

    const ModelParams& params() const { return m_params; }
    const ModelWeights& weights() const { return m_weights; }
    const gguf::File& file() const { return *m_file; }
    std::shared_ptr<const gguf::File> fileShared() const { return m_file; }

    // Records the forward pass for `in` into `g` (after g.begin()).
    virtual void forward(Graph& g, const ForwardInputs& in) const = 0;
    // The rotation a layer applies to q and k in a context of nCtx cells
    // (also used to re-rotate cached keys after a context shift).
    virtual RopeParams layerRope(int64_t layer, int64_t nCtx) const;

protected:
    Model(std::shared_ptr<const gguf::File> file, ModelParams params, Backend& backend);

    // The named tensor with exactly this shape (trailing 1s may be omitted),
    // or an error naming it; optional() returns an empty tensor when absent.
    Tensor require(const std::string& name, std::initializer_list<int64_t> shape) const;
    Tensor optional(const std::string& name, std::initializer_list<int64_t> shape) const;
    // A norm weight [n] (f32), required or optional.
    Tensor norm(const std::string& name, int64_t n, bool required = true) const;
    static std::string layerName(int64_t layer, const char* what);
    // token_embd, output_norm and output (tied to token_embd when absent).
    void bindEmbeddings();
    // Every layer's standard tensors and the parts `parts` names, with the
    // shapes m_params gives them.
    void bindLayers(const LayerTensors& parts);
    // Fails unless the backend can multiply with every matmul weight.
    void checkSupported() const;

    std::shared_ptr<const gguf::File> m_file;
    ModelParams m_params;
    ModelWeights m_weights;
    Backend& m_backend;

public:
    // Copies the weights of the layers `placement` puts on its device there
    // (once, while loading; create(file, placement) calls it). Throws
    // OutOfDeviceMemory, Cancelled, or Error for a type the device lacks.
    void placeWeights(const Placement& placement, const UploadOptions& upload);

private:
    Placement m_placement;
    std::vector<std::unique_ptr<Buffer>> m_deviceWeights;
};

// Calls f(tensor, layer) for every weight field of `w` that is bound, with
// its layer as Op::layer counts them (-1: the input and the tables the
// host reads, such as rope factors; n_layer: the output).
void forEachWeight(ModelWeights& w, const std::function<void(Tensor&, int64_t layer)>& f);

// The family constructors, one per file.
std::unique_ptr<Model> createLlama(std::shared_ptr<const gguf::File> file, Backend& backend);
std::unique_ptr<Model> createQwen2(std::shared_ptr<const gguf::File> file, Backend& backend);
std::unique_ptr<Model> createQwen3(std::shared_ptr<const gguf::File> file, Backend& backend);
std::unique_ptr<Model> createGemma2(std::shared_ptr<const gguf::File> file, Backend& backend);
std::unique_ptr<Model> createGemma3(std::shared_ptr<const gguf::File> file, Backend& backend);
std::unique_ptr<Model> createPhi3(std::shared_ptr<const gguf::File> file, Backend& backend);
std::unique_ptr<Model> createBert(std::shared_ptr<const gguf::File> file, Backend& backend);

} // namespace hearth

#include "model/model.h"

#include "util/error.h"

#include <array>
#include <utility>

namespace hearth {

namespace {

using Factory = std::unique_ptr<Model> (*)(std::shared_ptr<const gguf::File>, Backend&);

struct Family {
    std::string_view arch;
    Factory create;
};

// llama.cpp's architecture names. "mistral" files use "llama".
constexpr std::array kFamilies{
    Family{"llama", createLlama},   Family{"qwen2", createQwen2},   Family{"qwen3", createQwen3},
    Family{"gemma2", createGemma2}, Family{"gemma3", createGemma3}, Family{"phi3", createPhi3},
    Family{"bert", createBert},
};

std::string shapeText(const std::array<int64_t, 4>& ne, int dims)
{
    std::string s = "[";
    for (int i = 0; i < dims; ++i)
        s += (i ? ", " : "") + std::to_string(ne[static_cast<size_t>(i)]);
    return s + "]";
}

// A matrix-vector product with weight w, for asking a backend whether it
// computes with w's type.
Op matmulProbe(const Tensor& w)
{
    Op op;
    op.kind = OpKind::MatMul;
    op.src[0] = w;
    op.src[1] = Tensor::dense(GgmlType::F32, w.ne[0]);
    op.dst = Tensor::dense(GgmlType::F32, w.ne[1]);
    return op;
}

} // namespace

std::vector<std::string_view> Model::supportedArchitectures()
{
    std::vector<std::string_view> out;
    for (const Family& f : kFamilies)
        out.push_back(f.arch);
    return out;
}

std::unique_ptr<Model> Model::create(std::shared_ptr<const gguf::File> file, Backend& backend)
{
    const std::string_view arch = file->architecture();
    for (const Family& f : kFamilies) {
        if (f.arch == arch)
            return f.create(std::move(file), backend);
    }
    std::string list;
    for (const Family& f : kFamilies)
        list += (list.empty() ? "" : ", ") + std::string(f.arch);
    throw Error(file->path() + ": unsupported architecture '" + std::string(arch) +
                "' (general.architecture); supported: " + list);
}

Model::Model(std::shared_ptr<const gguf::File> file, ModelParams params, Backend& backend)
    : m_file(std::move(file)), m_params(std::move(params)), m_backend(backend)
{
    m_weights.layers.resize(static_cast<size_t>(m_params.nLayer));
    m_placement = Placement::hostOnly(backend, m_params.nLayer);
}

std::unique_ptr<Model> Model::create(std::shared_ptr<const gguf::File> file, const Placement& placement,
                                     const UploadOptions& upload)
{
    std::unique_ptr<Model> model = create(std::move(file), *placement.host);
    model->placeWeights(placement, upload);
    return model;
}

void forEachWeight(ModelWeights& w, const std::function<void(Tensor&, int64_t)>& f)
{
    const auto visit = [&](Tensor& t, int64_t layer) {
        if (t.data)
            f(t, layer);
    };
    visit(w.tokenEmbd, -1);
    visit(w.ropeFreqs, -1); // read by the backends as host tables (RopeParams)
    visit(w.ropeLong, -1);
    visit(w.ropeShort, -1);
    visit(w.positionEmbd, -1);
    visit(w.tokenTypes, -1);
    visit(w.inputNorm, -1);
    visit(w.inputNormBias, -1);
    for (size_t i = 0; i < w.layers.size(); ++i) {
        LayerWeights& l = w.layers[i];
        for (Tensor* t : {&l.attnNorm,
                          &l.wq,
                          &l.wk,
                          &l.wv,
                          &l.wqkv,
                          &l.bq,
                          &l.bk,
                          &l.bv,
                          &l.qNorm,
                          &l.kNorm,
                          &l.wo,
                          &l.attnPostNorm,
                          &l.ffnNorm,
                          &l.ffnGate,
                          &l.ffnUp,
                          &l.ffnDown,
                          &l.ffnPostNorm,
                          &l.bo,
                          &l.ffnUpBias,
                          &l.ffnDownBias,
                          &l.attnPostNormBias,
                          &l.ffnPostNormBias})
            visit(*t, static_cast<int64_t>(i));
    }
    const auto out = static_cast<int64_t>(w.layers.size());
    visit(w.outputNorm, out);
    visit(w.output, out); // a tied output gets its own copy on a device
}

// Copies the weights of the layers on the device there, in one upload, and
// checks that the device computes with every one of them.
void Model::placeWeights(const Placement& placement, const UploadOptions& upload)
{
    m_placement = placement;
    m_placement.nLayer = m_params.nLayer;
    if (!m_placement.usesDevice())
        return;
    Backend& device = *m_placement.device;
    std::vector<Tensor*> moved;
    forEachWeight(m_weights, [&](Tensor& t, int64_t layer) {
        if (!m_placement.onDevice(layer))
            return;
        if (t.ne[1] > 1) {
            if (!device.supports(matmulProbe(t)))
                throw Error(m_file->path() + ": a weight of layer " + std::to_string(layer) + " has type " +
                            std::string(typeTraits(t.type).name) + ", which the " + device.device().name +
                            " backend cannot compute with");
        }
        moved.push_back(&t);
    });
    if (std::unique_ptr<Buffer> b = device.uploadWeights(moved, upload))
        m_deviceWeights.push_back(std::move(b));
}

uint64_t Model::deviceWeightBytes() const
{
    uint64_t n = 0;
    for (const auto& b : m_deviceWeights)
        n += b->size();
    return n;
}

RopeParams Model::layerRope(int64_t /*layer*/, int64_t /*nCtx*/) const
{
    return m_params.rope;
}

std::string Model::layerName(int64_t layer, const char* what)
{
    return "blk." + std::to_string(layer) + "." + what;
}

Tensor Model::optional(const std::string& name, std::initializer_list<int64_t> shape) const
{
    const gguf::TensorInfo* info = m_file->findTensor(name);
    if (!info)
        return {};
    std::array<int64_t, 4> want{1, 1, 1, 1};
    int dims = 0;
    for (int64_t v : shape)
        want[static_cast<size_t>(dims++)] = v;
    if (info->ne != want)
        throw Error(m_file->path() + ": tensor '" + name + "' has shape " + shapeText(info->ne, info->nDims) +
                    ", expected " + shapeText(want, dims));
    Tensor t = Tensor::dense(info->type, info->ne[0], info->ne[1], info->ne[2], info->ne[3]);
    t.data = const_cast<uint8_t*>(info->data); // weights are only ever read
    return t;
}

Tensor Model::require(const std::string& name, std::initializer_list<int64_t> shape) const
{
    // Present in the header is present: a header read without its data
    // (File::fromPrefix, for a fit estimate) binds with null data pointers.
    if (!m_file->findTensor(name))
        throw Error(m_file->path() + ": tensor '" + name + "' is missing");
    return optional(name, shape);
}

Tensor Model::norm(const std::string& name, int64_t n, bool required) const
{
    Tensor t = required ? require(name, {n}) : optional(name, {n});
    if (t.data && t.type != GgmlType::F32)
        throw Error(m_file->path() + ": tensor '" + name + "' must be f32, not " +
                    std::string(typeTraits(t.type).name));
    return t;
}

void Model::bindEmbeddings()
{
    const gguf::TensorInfo* embd = m_file->findTensor("token_embd.weight");
    if (!embd)
        throw Error(m_file->path() + ": tensor 'token_embd.weight' is missing");
    m_params.nVocab = embd->ne[1];
    const int64_t e = m_params.nEmbd, v = m_params.nVocab;
    m_weights.tokenEmbd = require("token_embd.weight", {e, v});
    m_weights.outputNorm = norm("output_norm.weight", e);
    m_weights.output = optional("output.weight", {e, v});
    if (!m_weights.output.data)
        m_weights.output = m_weights.tokenEmbd; // tied embeddings
}

void Model::bindLayers(const LayerTensors& parts)
{
    const ModelParams& hp = m_params;
    for (int64_t i = 0; i < hp.nLayer; ++i) {
        LayerWeights& l = m_weights.layers[static_cast<size_t>(i)];
        const int64_t e = hp.nEmbd, q = hp.heads(i) * hp.headDimK, k = hp.kvWidthK(i), v = hp.kvWidthV(i);
        const auto name = [&](const char* what) { return layerName(i, what); };
        l.attnNorm = norm(name("attn_norm.weight"), e);
        l.wq = require(name("attn_q.weight"), {e, q});
        l.wk = require(name("attn_k.weight"), {e, k});
        l.wv = require(name("attn_v.weight"), {e, v});
        if (parts.qkvBias) {
            l.bq = norm(name("attn_q.bias"), q);
            l.bk = norm(name("attn_k.bias"), k);
            l.bv = norm(name("attn_v.bias"), v);
        }
        if (parts.qkNorm) {
            l.qNorm = norm(name("attn_q_norm.weight"), hp.headDimK);
            l.kNorm = norm(name("attn_k_norm.weight"), hp.headDimK);
        }
        l.wo = require(name("attn_output.weight"), {hp.heads(i) * hp.headDimV, e});
        if (parts.postNorms)
            l.attnPostNorm = norm(name("post_attention_norm.weight"), e);
        l.ffnNorm = norm(name("ffn_norm.weight"), e);
        l.ffnGate = require(name("ffn_gate.weight"), {e, hp.nFf});
        l.ffnUp = require(name("ffn_up.weight"), {e, hp.nFf});
        l.ffnDown = require(name("ffn_down.weight"), {hp.nFf, e});
        if (parts.postNorms)
            l.ffnPostNorm = norm(name("post_ffw_norm.weight"), e);
    }
}

void Model::checkSupported() const
{
    const auto check = [&](const Tensor& w, const std::string& what) {
        if (!w.data)
            return;
        if (!m_backend.supports(matmulProbe(w)))
            throw Error(m_file->path() + ": tensor '" + what + "' has type " + std::string(typeTraits(w.type).name) +
                        ", which the " + m_backend.device().name + " backend cannot compute with");
    };
    Op rows;
    rows.kind = OpKind::GetRows;
    rows.src[0] = m_weights.tokenEmbd;
    rows.dst = Tensor::dense(GgmlType::F32, m_weights.tokenEmbd.ne[0]);
    if (!m_backend.supports(rows))
        throw Error(m_file->path() + ": tensor 'token_embd.weight' has type " +
                    std::string(typeTraits(m_weights.tokenEmbd.type).name) + ", which the backend cannot read");
    check(m_weights.output, "output.weight");
    for (size_t i = 0; i < m_weights.layers.size(); ++i) {
        const LayerWeights& l = m_weights.layers[i];
        const auto name = [&](const char* w) { return layerName(static_cast<int64_t>(i), w); };
        check(l.wq, name("attn_q.weight"));
        check(l.wk, name("attn_k.weight"));
        check(l.wv, name("attn_v.weight"));
        check(l.wqkv, name("attn_qkv.weight"));
        check(l.wo, name("attn_output.weight"));
        check(l.ffnGate, name("ffn_gate.weight"));
        check(l.ffnUp, name("ffn_up.weight"));
        check(l.ffnDown, name("ffn_down.weight"));
    }
}

} // namespace hearth

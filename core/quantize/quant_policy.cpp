#include "quantize/quant_policy.h"

#include "util/error.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace hearth::quantize {

namespace {

// The broad roles the rules tell apart (llama.cpp's tensor_category).
enum class Role {
    TokenEmbd,
    AttnQ,
    AttnK,
    AttnV,   // attn_v and attn_kv_b
    AttnQkv, // fused; the rules treat it as an attn_v
    AttnOutput,
    FfnUp,
    FfnGate,
    FfnDown,
    Output,
    Other,
};

bool contains(std::string_view s, std::string_view part)
{
    return s.find(part) != std::string_view::npos;
}

Role roleOf(std::string_view name)
{
    if (name == "output.weight")
        return Role::Output;
    if (name == "token_embd.weight" || name == "per_layer_token_embd.weight")
        return Role::TokenEmbd;
    if (contains(name, "attn_qkv.weight"))
        return Role::AttnQkv;
    if (contains(name, "attn_kv_b.weight") || contains(name, "attn_v.weight"))
        return Role::AttnV;
    if (contains(name, "attn_k.weight"))
        return Role::AttnK;
    if (contains(name, "attn_q.weight"))
        return Role::AttnQ;
    if (contains(name, "attn_output.weight"))
        return Role::AttnOutput;
    if (contains(name, "ffn_up"))
        return Role::FfnUp;
    if (contains(name, "ffn_gate"))
        return Role::FfnGate;
    if (contains(name, "ffn_down"))
        return Role::FfnDown;
    return Role::Other;
}

bool isAttnVLike(Role r)
{
    return r == Role::AttnV || r == Role::AttnQkv;
}

int layerOf(std::string_view name)
{
    if (!name.starts_with("blk."))
        return -1;
    int layer = -1;
    const char* first = name.data() + 4;
    const auto [ptr, ec] = std::from_chars(first, name.data() + name.size(), layer);
    return ec == std::errc() && ptr != first ? layer : -1;
}

// Tensors that stay as they are whatever the mix (tensor_allows_quantization).
bool allowsQuantization(const TensorShape& t, const PolicyOptions& o)
{
    if (countDims(t.ne) < 2)
        return false;
    const std::string_view n = t.name;
    if (!n.ends_with("weight") || contains(n, "_norm.weight"))
        return false;
    if (o.leaveOutputTensor && n == "output.weight")
        return false;
    static constexpr std::string_view kKept[] = {"ffn_gate_inp.weight",
                                                 "ffn_gate_tid2eid.weight",
                                                 "altup",
                                                 "laurel",
                                                 "per_layer_model_proj",
                                                 "ssm_conv1d",
                                                 "shortconv.conv.weight",
                                                 "indexer.k_proj.weight",
                                                 "indexer.q_proj.weight",
                                                 "time_mix_first.weight",
                                                 "time_mix_w0.weight",
                                                 "time_mix_w1.weight",
                                                 "time_mix_w2.weight",
                                                 "time_mix_v0.weight",
                                                 "time_mix_v1.weight",
                                                 "time_mix_v2.weight",
                                                 "time_mix_a0.weight",
                                                 "time_mix_a1.weight",
                                                 "time_mix_a2.weight",
                                                 "time_mix_g1.weight",
                                                 "time_mix_g2.weight",
                                                 "time_mix_decay_w1.weight",
                                                 "time_mix_decay_w2.weight",
                                                 "time_mix_lerp_fused.weight",
                                                 "attn_rel_b.weight",
                                                 ".position_embd",
                                                 "sam.pos_embd",
                                                 "sam.neck.",
                                                 "sam.net_",
                                                 ".rel_pos",
                                                 ".patch_embd",
                                                 ".patch_merger",
                                                 "a.rvq.codebook",
                                                 "mm.a.code_embd"};
    for (std::string_view k : kKept)
        if (contains(n, k))
            return false;
    return n != "position_embd.weight" && n != "token_types.weight";
}

// The first and last eighth of the layers and every third one between.
bool useMoreBits(int i, int n)
{
    return i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2;
}

struct State {
    const ModelShape& model;
    Mix mix;
    bool tiedEmbeddings = true;
    bool is70B = false;
    int nAttnV = 0, iAttnV = 0;
    int iFfnDown = 0, iFfnGate = 0, iFfnUp = 0;
};

// The layer a per-layer counter stands for: the counter itself, or with
// experts (whose tensors are not consecutive) the number in the name.
int layerIndex(const State& s, int counter, std::string_view name)
{
    if (s.model.nExpert <= 1)
        return counter;
    const int layer = layerOf(name);
    if (layer < 0 || layer >= s.model.nLayer)
        throw Error("quantize: cannot tell the layer of tensor '" + std::string(name) + "' (expected blk.N. with N < " +
                    std::to_string(s.model.nLayer) + ")");
    return layer;
}

GgmlType outputType(const State& s, GgmlType t, const TensorShape& tensor)
{
    if (s.model.architecture == "falcon" || tensor.ne[0] % typeTraits(t).blockSize != 0)
        return GgmlType::Q8_0;
    return t == GgmlType::Q8_0 ? t : GgmlType::Q6_K;
}

GgmlType attnVType(State& s, GgmlType t)
{
    const Mix m = s.mix;
    const int gqa = s.model.gqa();
    if (m == Mix::Q2_K)
        t = gqa >= 4 ? GgmlType::Q4_K : GgmlType::Q3_K;
    else if (m == Mix::Q3_K_M)
        t = s.iAttnV < 2 ? GgmlType::Q5_K : GgmlType::Q4_K;
    else if (m == Mix::Q3_K_L)
        t = GgmlType::Q5_K;
    else if ((m == Mix::IQ4_NL || m == Mix::IQ4_XS) && gqa >= 4)
        t = GgmlType::Q5_K;
    else if ((m == Mix::Q4_K_M || m == Mix::Q5_K_M) && useMoreBits(s.iAttnV, s.nAttnV))
        t = GgmlType::Q6_K;
    else if (m == Mix::Q4_K_S && s.iAttnV < 4)
        t = GgmlType::Q5_K;
    // A 70B's attn_v is 8x smaller than attn_q: more bits cost little.
    if (s.is70B && (t == GgmlType::Q3_K || t == GgmlType::Q4_K))
        t = GgmlType::Q5_K;
    if (s.model.nExpert == 8)
        t = GgmlType::Q8_0;
    ++s.iAttnV;
    return t;
}

GgmlType ffnDownType(State& s, GgmlType t, const TensorShape& tensor)
{
    const int i = layerIndex(s, s.iFfnDown, tensor.name), n = s.model.nLayer;
    const Mix m = s.mix;
    const bool falcon = s.model.architecture == "falcon";
    if (m == Mix::Q2_K)
        t = GgmlType::Q3_K;
    else if (m == Mix::Q3_K_M)
        t = i < n / 16 ? GgmlType::Q5_K : !falcon || useMoreBits(i, n) ? GgmlType::Q4_K : GgmlType::Q3_K;
    else if (m == Mix::Q3_K_L)
        t = falcon ? GgmlType::Q4_K : GgmlType::Q5_K;
    else if (m == Mix::Q4_K_M) {
        if (falcon)
            t = i < n / 16 ? GgmlType::Q6_K : useMoreBits(i, n) ? GgmlType::Q5_K : GgmlType::Q4_K;
        else if (useMoreBits(i, n))
            t = GgmlType::Q6_K;
    } else if (i < n / 8 && (m == Mix::IQ4_NL || m == Mix::IQ4_XS))
        t = GgmlType::Q5_K; // without an importance matrix
    else if (m == Mix::Q5_K_M && useMoreBits(i, n))
        t = GgmlType::Q6_K;
    else if (m == Mix::Q4_K_S && !falcon && i < n / 8)
        t = GgmlType::Q5_K;
    ++s.iFfnDown;
    return t;
}

GgmlType attnOutputType(const State& s, GgmlType t)
{
    const Mix m = s.mix;
    if (s.model.architecture == "falcon")
        return m == Mix::Q3_K_L ? GgmlType::Q4_K : t;
    if (s.model.nExpert == 8) {
        static constexpr Mix kBumped[] = {Mix::Q2_K,   Mix::Q3_K_S, Mix::Q3_K_M, Mix::IQ4_NL,
                                          Mix::Q4_K_S, Mix::Q4_K_M, Mix::IQ4_XS};
        return std::find(std::begin(kBumped), std::end(kBumped), m) != std::end(kBumped) ? GgmlType::Q5_K : t;
    }
    if (m == Mix::Q2_K)
        return GgmlType::Q3_K;
    if (m == Mix::Q3_K_M)
        return GgmlType::Q4_K;
    if (m == Mix::Q3_K_L)
        return GgmlType::Q5_K;
    return t;
}

// The mix's rules for one tensor (llama_tensor_get_type_impl).
GgmlType mixType(State& s, GgmlType t, const TensorShape& tensor, Role role)
{
    if (role == Role::Output || (s.tiedEmbeddings && role == Role::TokenEmbd))
        return outputType(s, t, tensor);
    if (role == Role::TokenEmbd)
        return t;
    if (isAttnVLike(role)) // attn_qkv too: llama.cpp's own attn_qkv branch is never reached
        return attnVType(s, t);
    switch (role) {
    case Role::AttnK: return s.model.nExpert == 8 ? GgmlType::Q8_0 : t;
    case Role::FfnDown: return ffnDownType(s, t, tensor);
    case Role::AttnOutput: return attnOutputType(s, t);
    case Role::FfnGate: layerIndex(s, s.iFfnGate++, tensor.name); return t;
    case Role::FfnUp: layerIndex(s, s.iFfnUp++, tensor.name); return t;
    default: return t;
    }
}

// A type whose block divides the rows (tensor_type_fallback).
TensorPlan withFallback(const TensorShape& tensor, GgmlType t)
{
    const int64_t cols = tensor.ne[0];
    if (cols % typeTraits(t).blockSize == 0)
        return {t, false};
    GgmlType f;
    switch (t) {
    case GgmlType::IQ4_XS: f = GgmlType::IQ4_NL; break;
    case GgmlType::Q2_K:
    case GgmlType::Q3_K: f = GgmlType::Q4_0; break;
    case GgmlType::Q4_K: f = GgmlType::Q5_0; break;
    case GgmlType::Q5_K: f = GgmlType::Q5_1; break;
    case GgmlType::Q6_K: f = GgmlType::Q8_0; break;
    default:
        // No smaller block to go to: a 32-block type that does not fit
        // becomes F16, as llama.cpp does; any other type is an error.
        if (typeTraits(t).blockSize > 32)
            throw Error("quantize: tensor '" + tensor.name + "' has rows of " + std::to_string(cols) +
                        " elements, not a multiple of " + std::to_string(typeTraits(t).blockSize) + " as " +
                        std::string(typeTraits(t).name) + " needs, and " + std::string(typeTraits(t).name) +
                        " has no fallback type");
        f = t;
        break;
    }
    if (cols % typeTraits(f).blockSize != 0)
        f = GgmlType::F16;
    return {f, true};
}

} // namespace

const std::vector<MixInfo>& allMixes()
{
    static const std::vector<MixInfo> mixes{
        {Mix::Q4_0, "Q4_0", GgmlType::Q4_0, "4.5 bpw, 32-weight blocks with one scale"},
        {Mix::Q4_1, "Q4_1", GgmlType::Q4_1, "5.0 bpw, 32-weight blocks with a scale and a minimum"},
        {Mix::Q5_0, "Q5_0", GgmlType::Q5_0, "5.5 bpw, 32-weight blocks with one scale"},
        {Mix::Q5_1, "Q5_1", GgmlType::Q5_1, "6.0 bpw, 32-weight blocks with a scale and a minimum"},
        {Mix::Q2_K, "Q2_K", GgmlType::Q2_K, "about 3.0 bpw, K-quant mix; smallest, large quality loss"},
        {Mix::Q3_K_S, "Q3_K_S", GgmlType::Q3_K, "about 3.5 bpw, K-quant mix"},
        {Mix::Q3_K_M, "Q3_K_M", GgmlType::Q3_K, "about 3.9 bpw, K-quant mix"},
        {Mix::Q3_K_L, "Q3_K_L", GgmlType::Q3_K, "about 4.1 bpw, K-quant mix"},
        {Mix::IQ4_NL, "IQ4_NL", GgmlType::IQ4_NL, "4.5 bpw, non-linear 4-bit levels"},
        {Mix::IQ4_XS, "IQ4_XS", GgmlType::IQ4_XS, "4.25 bpw, non-linear 4-bit levels with sub-block scales"},
        {Mix::Q4_K_S, "Q4_K_S", GgmlType::Q4_K, "about 4.6 bpw, K-quant mix"},
        {Mix::Q4_K_M, "Q4_K_M", GgmlType::Q4_K, "about 4.8 bpw, K-quant mix; the usual choice"},
        {Mix::Q5_K_S, "Q5_K_S", GgmlType::Q5_K, "about 5.5 bpw, K-quant mix"},
        {Mix::Q5_K_M, "Q5_K_M", GgmlType::Q5_K, "about 5.7 bpw, K-quant mix"},
        {Mix::Q6_K, "Q6_K", GgmlType::Q6_K, "6.56 bpw, K-quant; close to the original"},
        {Mix::Q8_0, "Q8_0", GgmlType::Q8_0, "8.5 bpw; practically lossless"},
        {Mix::F16, "F16", GgmlType::F16, "16 bpw half precision"},
        {Mix::BF16, "BF16", GgmlType::BF16, "16 bpw bfloat16"},
        {Mix::F32, "F32", GgmlType::F32, "32 bpw single precision"},
    };
    return mixes;
}

const MixInfo& mixInfo(Mix mix)
{
    for (const MixInfo& m : allMixes())
        if (m.mix == mix)
            return m;
    throw Error("quantize: unknown mix id " + std::to_string(static_cast<uint32_t>(mix)));
}

std::optional<Mix> parseMix(std::string_view name)
{
    std::string upper(name);
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    if (upper == "Q3_K")
        return Mix::Q3_K_M;
    if (upper == "Q4_K")
        return Mix::Q4_K_M;
    if (upper == "Q5_K")
        return Mix::Q5_K_M;
    uint32_t id = 0;
    const auto [ptr, ec] = std::from_chars(upper.data(), upper.data() + upper.size(), id);
    const bool numeric = ec == std::errc() && ptr == upper.data() + upper.size() && !upper.empty();
    for (const MixInfo& m : allMixes())
        if (numeric ? static_cast<uint32_t>(m.mix) == id : m.name == upper)
            return m.mix;
    return std::nullopt;
}

std::string mixNames()
{
    std::string s;
    for (const MixInfo& m : allMixes()) {
        if (!s.empty())
            s += ", ";
        s += m.name;
    }
    return s;
}

int countDims(const std::array<int64_t, 4>& ne)
{
    for (int i = 3; i >= 1; --i)
        if (ne[static_cast<size_t>(i)] > 1)
            return i + 1;
    return 1;
}

bool tensorOrderLess(std::string_view a, std::string_view b)
{
    const int la = layerOf(a), lb = layerOf(b);
    if (la != lb)
        return la < lb;
    return a < b;
}

std::vector<TensorPlan> planTypes(const ModelShape& model, const std::vector<TensorShape>& tensors,
                                  const PolicyOptions& options)
{
    State s{model, options.mix};
    const std::string& arch = model.architecture;
    // llama.cpp names 80-layer GQA llama / qwen2 models "70B".
    s.is70B = (arch == "llama" || arch == "qwen2") && model.nLayer == 80 && model.nHead != model.nHeadKv;
    for (const TensorShape& t : tensors) {
        const Role r = roleOf(t.name);
        if (isAttnVLike(r))
            ++s.nAttnV;
        if (r == Role::Output)
            s.tiedEmbeddings = false;
    }
    const GgmlType base = mixInfo(options.mix).defaultType;
    const bool quantizedMix = typeTraits(base).quantized;
    std::vector<TensorPlan> plan;
    plan.reserve(tensors.size());
    for (const TensorShape& t : tensors) {
        if (!allowsQuantization(t, options)) {
            plan.push_back({t.type, false});
            continue;
        }
        if (!quantizedMix) {
            plan.push_back({base, false});
            continue;
        }
        const GgmlType chosen = options.pure ? base : mixType(s, base, t, roleOf(t.name));
        plan.push_back(withFallback(t, chosen));
    }
    return plan;
}

} // namespace hearth::quantize

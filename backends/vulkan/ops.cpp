#include "vulkan/ops.h"

#include "util/error.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>
#include <string>

namespace hearth::vulkan {

namespace {

uint32_t u32(int64_t v)
{
    return static_cast<uint32_t>(v);
}

uint32_t floats(size_t bytes)
{
    return static_cast<uint32_t>(bytes / sizeof(float));
}

std::string typeSuffix(GgmlType t)
{
    std::string s(typeTraits(t).name);
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Rows of a tensor are reachable as off + i1·nb1 + i2·nb2 (the shaders'
// rows.glsl) when the fourth dimension is 1.
bool rowsAddressable(const Tensor& t)
{
    return t.ne[3] == 1;
}

// Token rows of a matmul operand at t·nb1.
bool tokenRows(const Tensor& t)
{
    return t.ne[2] == 1 || t.nb[2] == t.nb[1] * static_cast<size_t>(t.ne[1]);
}

void yarnCorr(const RopeParams& p, float& c0, float& c1)
{
    c0 = c1 = 0.0f;
    if (p.extFactor == 0.0f)
        return;
    const auto corrDim = [&](float nRot) {
        return static_cast<float>(p.nRot) *
               std::log(static_cast<float>(p.nCtxOrig) / (nRot * 2.0f * std::numbers::pi_v<float>)) /
               (2.0f * std::log(p.freqBase));
    };
    c0 = std::max(0.0f, std::floor(corrDim(p.betaFast)));
    c1 = std::min(static_cast<float>(p.nRot - 1), std::ceil(corrDim(p.betaSlow)));
}

struct MatParams {
    uint32_t K, M, n, aOff, aRow, bOff, bStride, dOff, dStride, row0, cOff, cStride;
};

// The CPU backend's activation partner of a weight type, as act_round's
// mode; -1 for f32 weights (activations as they are).
int partnerMode(GgmlType t)
{
    switch (t) {
    case GgmlType::F32: return -1;
    case GgmlType::F16: return 2;
    case GgmlType::BF16: return 3;
    case GgmlType::Q2_K:
    case GgmlType::Q3_K:
    case GgmlType::Q4_K:
    case GgmlType::Q5_K:
    case GgmlType::Q6_K:
    case GgmlType::IQ4_XS: return 1;
    case GgmlType::Q4_1:
    case GgmlType::Q5_1: return 4; // Q8_1: values and the block sums' rounding
    default: return 0;             // Q4_0, Q5_0, Q8_0, IQ4_NL: Q8_0
    }
}

uint64_t roundedBytes(int64_t K, int64_t n)
{
    return (static_cast<uint64_t>(K * n) * sizeof(float) + 255) / 256 * 256;
}

// X rounded into the work area (dense [K, n]), followed by the Q8_1 block
// corrections [K/32, n] (mode 4); returns the values' tensor.
Tensor roundActivations(Recorder& r, const Tensor& x, int mode, const RecordContext& ctx)
{
    const int64_t K = x.ne[0], n = x.rows();
    Tensor out = Tensor::dense(GgmlType::F32, K, n);
    out.data = ctx.work;
    Tensor corr = Tensor::dense(GgmlType::F32, K / 32, n);
    corr.data = ctx.work + roundedBytes(K, n);
    if (!ctx.work || roundedBytes(K, n) + corr.denseBytes() > ctx.workBytes)
        throw Error("Vulkan: the work area is smaller than a matmul's activations (reserveWork)");
    std::array<Bound, kBindings> b{};
    b[0] = r.bind(x, false);
    b[3] = r.bind(out, true);
    if (mode == 4)
        b[5] = r.bind(corr, true);
    const uint32_t p[7] = {u32(K), u32(n), u32(mode), b[0].skew / 4u, floats(x.nb[1]), b[3].skew / 4u, b[5].skew / 4u};
    const int64_t block = mode == 0 || mode == 4 ? 32 : mode == 1 ? 256 : 1;
    const uint32_t groups = u32((K / block * n + 63) / 64);
    uint32_t gx, gy;
    Recorder::splitGroups(groups, gx, gy);
    r.dispatch3("act_round", b, p, sizeof p, gx, gy, 1);
    return out;
}

// W [K, M] · X [K, n]: rows and tokens in chunks whose bindings fit.
void recordMatMul(Recorder& r, const Op& op, const RecordContext& ctx)
{
    const uint64_t maxRange = ctx.maxRange;
    const Tensor& w = op.src[0];
    const int mode = partnerMode(w.type);
    const Tensor x = mode < 0 ? op.src[1] : roundActivations(r, op.src[1], mode, ctx);
    const Tensor& d = op.dst;
    const int64_t K = w.ne[0], M = w.ne[1], n = x.rows();
    const uint64_t rowBytesW = w.nb[1];
    const int64_t rowsPerChunk = std::max<int64_t>(64, static_cast<int64_t>(maxRange / rowBytesW) / 64 * 64);
    const uint64_t tokenBytes = std::max(x.nb[1], d.nb[1]);
    const int64_t tokPerChunk = std::max<int64_t>(32, static_cast<int64_t>(maxRange / tokenBytes) / 32 * 32);
    const bool vec = n <= 8;
    const std::string name = (vec ? "matvec_" : "matmul_") + typeSuffix(w.type);
    for (int64_t t0 = 0; t0 < n; t0 += tokPerChunk) {
        const int64_t nt = std::min(tokPerChunk, n - t0);
        Tensor xc = x, dc = d;
        xc.data += x.nb[1] * static_cast<size_t>(t0);
        dc.data += d.nb[1] * static_cast<size_t>(t0);
        const uint64_t xBytes = x.nb[1] * static_cast<uint64_t>(nt - 1) + rowBytes(GgmlType::F32, K);
        const uint64_t dBytes = d.nb[1] * static_cast<uint64_t>(nt - 1) + rowBytes(GgmlType::F32, M);
        std::array<Bound, kBindings> b{};
        b[1] = r.bindBytes(xc.data, xBytes, false);
        b[3] = r.bindBytes(dc.data, dBytes, true);
        uint32_t cStride = 0;
        if (mode == 4) { // the Q8_1 corrections after the rounded values (roundActivations)
            cStride = u32(K / 32);
            b[2] = r.bindBytes(ctx.work + roundedBytes(K, n) + static_cast<uint64_t>(t0) * cStride * 4,
                               static_cast<uint64_t>(nt) * cStride * 4, false);
        }
        for (int64_t r0 = 0; r0 < M; r0 += rowsPerChunk) {
            const int64_t nr = std::min(rowsPerChunk, M - r0);
            b[0] =
                r.bindBytes(w.data + rowBytesW * static_cast<size_t>(r0), rowBytesW * static_cast<uint64_t>(nr), false);
            const MatParams p{u32(K),         u32(nr),         u32(nt),        b[0].skew,       u32(rowBytesW),
                              b[1].skew / 4u, floats(x.nb[1]), b[3].skew / 4u, floats(d.nb[1]), u32(r0)};
            const uint32_t groups = vec ? u32(nr) * u32((nt + 7) / 8) : u32((nr + 63) / 64) * u32((nt + 31) / 32);
            r.dispatch(name, b, &p, sizeof p, groups);
        }
    }
}

void recordGetRows(Recorder& r, const Op& op)
{
    const Tensor& src = op.src[0];
    const Tensor& d = op.dst;
    const int64_t rows = d.ne[1];
    std::array<Bound, kBindings> b{};
    b[0] = r.bind(src, false);
    b[3] = r.bind(d, true);
    b[4] = r.input(op.ids, static_cast<uint64_t>(rows) * sizeof(int32_t));
    const uint32_t p[7] = {u32(src.ne[0]), u32(rows), b[0].skew, u32(src.nb[1]), b[3].skew / 4u, floats(d.nb[1]), 0};
    r.dispatch("get_rows_" + typeSuffix(src.type), b, p, sizeof p, u32(rows));
}

void recordRmsNorm(Recorder& r, const Op& op)
{
    const Tensor& x = op.src[0];
    const Tensor& d = op.dst;
    std::array<Bound, kBindings> b{};
    b[0] = r.bind(x, false);
    b[3] = r.bind(d, true);
    const bool weight = op.src[1].data != nullptr;
    if (weight)
        b[1] = r.bind(op.src[1], false);
    struct {
        uint32_t n, ne1, xOff, xNb1, xNb2, dOff, dNb1, dNb2, wOff, hasWeight;
        float eps;
    } p{u32(x.ne[0]),    u32(x.ne[1]),    b[0].skew / 4u, floats(x.nb[1]),  floats(x.nb[2]), b[3].skew / 4u,
        floats(d.nb[1]), floats(d.nb[2]), b[1].skew / 4u, weight ? 1u : 0u, op.scalar};
    r.dispatch("rms_norm", b, &p, sizeof p, u32(x.rows()));
}

void recordElementwise(Recorder& r, const Op& op)
{
    const Tensor& x = op.src[0];
    const Tensor& d = op.dst;
    uint32_t mode = 0;
    switch (op.kind) {
    case OpKind::Add: mode = 0; break;
    case OpKind::Mul: mode = 1; break;
    case OpKind::Scale: mode = 2; break;
    case OpKind::SoftCap: mode = 3; break;
    case OpKind::SwiGlu: mode = 4; break;
    default: mode = 5; break;
    }
    const Tensor& y = op.src[1];
    const bool hasY = y.data != nullptr;
    std::array<Bound, kBindings> b{};
    b[0] = r.bind(x, false);
    b[3] = r.bind(d, true);
    if (hasY)
        b[1] = r.bind(y, false);
    const bool broadcast = hasY && y.rows() == 1 && x.rows() > 1;
    struct {
        uint32_t n, ne1, rows, mode, xOff, xNb1, xNb2, yOff, yNb1, yNb2, yBroadcast, dOff, dNb1, dNb2;
        float s;
    } p{u32(x.ne[0]),
        u32(x.ne[1]),
        u32(x.rows()),
        mode,
        b[0].skew / 4u,
        floats(x.nb[1]),
        floats(x.nb[2]),
        b[1].skew / 4u,
        hasY ? floats(y.nb[1]) : 0u,
        hasY ? floats(y.nb[2]) : 0u,
        broadcast ? 1u : 0u,
        b[3].skew / 4u,
        floats(d.nb[1]),
        floats(d.nb[2]),
        op.scalar};
    const auto rows = u32(x.rows());
    const uint32_t gy = std::min<uint32_t>(rows, 65535);
    r.dispatch3("elementwise", b, &p, sizeof p, u32((x.ne[0] + 63) / 64), gy, (rows + gy - 1) / gy);
}

struct RopePush {
    uint32_t a, b, c, d, e, f, g, h, i, j, k, l; // op-specific geometry (see the shaders)
    uint32_t nRot, mode;
    float freqBase, freqScale, extFactor, attnFactor, corr0, corr1;
};

void fillRope(RopePush& p, const RopeParams& rp)
{
    p.nRot = u32(rp.nRot);
    p.mode = rp.mode == RopeMode::Normal ? 0u : 1u;
    p.freqBase = rp.freqBase;
    p.freqScale = rp.freqScale;
    p.extFactor = rp.extFactor;
    p.attnFactor = rp.attnFactor;
    yarnCorr(rp, p.corr0, p.corr1);
}

void recordRope(Recorder& r, const Op& op)
{
    const Tensor& x = op.src[0];
    const Tensor& d = op.dst;
    std::array<Bound, kBindings> b{};
    b[0] = r.bind(x, false);
    b[3] = r.bind(d, true);
    b[4] = r.input(op.ids, static_cast<uint64_t>(x.ne[2]) * sizeof(int32_t));
    const bool factors = op.rope.freqFactors != nullptr;
    if (factors)
        b[5] = r.input(op.rope.freqFactors, static_cast<uint64_t>(op.rope.nRot / 2) * sizeof(float));
    RopePush p{u32(x.ne[0]),
               u32(x.ne[1]),
               u32(x.ne[2]),
               b[0].skew / 4u,
               floats(x.nb[1]),
               floats(x.nb[2]),
               b[3].skew / 4u,
               floats(d.nb[1]),
               floats(d.nb[2]),
               0,
               0,
               factors ? 1u : 0u};
    fillRope(p, op.rope);
    const uint32_t threads = u32(x.ne[0] / 2 * x.ne[1] * x.ne[2]);
    const uint32_t groups = (threads + 63) / 64;
    uint32_t gx, gy;
    Recorder::splitGroups(groups, gx, gy);
    r.dispatch3("rope", b, &p, sizeof p, gx, gy, 1);
}

void recordRopeShift(Recorder& r, const Op& op)
{
    const Tensor& k = op.dst;
    std::array<Bound, kBindings> b{};
    b[3] = r.bind(k, true);
    b[4] = r.input(op.ids, static_cast<uint64_t>(k.ne[1]) * sizeof(int32_t));
    const bool factors = op.rope.freqFactors != nullptr;
    if (factors)
        b[5] = r.input(op.rope.freqFactors, static_cast<uint64_t>(op.rope.nRot / 2) * sizeof(float));
    RopePush p{u32(k.ne[0]),
               u32(op.attn.headDimK),
               u32(k.ne[1]),
               b[3].skew,
               u32(k.nb[1]),
               0,
               0,
               factors ? 1u : 0u,
               0,
               0,
               0,
               0};
    // rope_shift's push block has 8 geometry words before nRot: pack them.
    struct {
        uint32_t rowLen, headDim, cells, kOff, kRow, deltaOff, factorsOff, hasFactors, nRot, mode;
        float freqBase, freqScale, extFactor, attnFactor, corr0, corr1;
    } q{p.a, p.b, p.c, p.d, p.e, 0, 0, p.h, 0, 0, 0, 0, 0, 0, 0, 0};
    RopePush tmp{};
    fillRope(tmp, op.rope);
    q.nRot = tmp.nRot;
    q.mode = tmp.mode;
    q.freqBase = tmp.freqBase;
    q.freqScale = tmp.freqScale;
    q.extFactor = tmp.extFactor;
    q.attnFactor = tmp.attnFactor;
    q.corr0 = tmp.corr0;
    q.corr1 = tmp.corr1;
    r.dispatch("rope_shift_" + typeSuffix(k.type), b, &q, sizeof q, u32(k.ne[1]));
}

void recordStoreRows(Recorder& r, const Op& op)
{
    const Tensor& s = op.src[0];
    const Tensor& d = op.dst;
    std::array<Bound, kBindings> b{};
    b[0] = r.bind(s, false);
    b[3] = r.bind(d, true);
    b[4] = r.input(op.ids, static_cast<uint64_t>(s.ne[1]) * sizeof(int32_t));
    const uint32_t p[7] = {u32(s.ne[0]), u32(s.ne[1]), b[0].skew / 4u, floats(s.nb[1]), b[3].skew, u32(d.nb[1]), 0};
    r.dispatch("store_rows_" + typeSuffix(d.type), b, p, sizeof p, u32(s.ne[1]));
}

void recordAttention(Recorder& r, const Op& op)
{
    const AttentionParams& a = op.attn;
    const Tensor& q = op.src[0];
    const Tensor& kc = op.src[1];
    const Tensor& vc = op.src[2];
    const Tensor& d = op.dst;
    const int64_t n = q.ne[2];
    const auto cells = static_cast<uint64_t>(a.mask.nCells);
    std::array<Bound, kBindings> b{};
    b[0] = r.bind(q, false);
    b[1] = r.bindBytes(kc.data, std::max<uint64_t>(kc.nb[1] * cells, 4), false);
    b[2] = r.bindBytes(vc.data, std::max<uint64_t>(vc.nb[1] * cells, 4), false);
    b[3] = r.bind(d, true);
    b[4] = r.input(a.mask.cellPos, cells * sizeof(int32_t));
    b[5] = r.input(a.mask.cellSeqs, cells * sizeof(uint64_t));
    b[6] = r.input(a.mask.tokenPos, static_cast<uint64_t>(n) * sizeof(int32_t));
    b[7] = r.input(a.mask.tokenSeq, static_cast<uint64_t>(n) * sizeof(int32_t));
    struct {
        uint32_t nCells, dk, dv, heads, kvHeads, qOff, qNb1, qNb2, kOff, kRow, vOff, vRow, dOff, dStride, maskOff;
        float scale, softCap;
        int32_t window;
    } p{u32(cells),     u32(a.headDimK), u32(a.headDimV), u32(a.nHead),    u32(a.nHeadKv),
        b[0].skew / 4u, floats(q.nb[1]), floats(q.nb[2]), b[1].skew,       u32(kc.nb[1]),
        b[2].skew,      u32(vc.nb[1]),   b[3].skew / 4u,  floats(d.nb[1]), 0,
        a.scale,        a.softCap,       a.window};
    r.dispatch("attention_" + typeSuffix(kc.type), b, &p, sizeof p, u32(n * a.nHead));
}

void recordCopy(Recorder& r, const Op& op, const std::function<bool(const void*)>& owns)
{
    if (op.src[0].data == op.dst.data)
        return;
    const uint64_t bytes = op.src[0].denseBytes();
    const bool srcDevice = owns(op.src[0].data), dstDevice = owns(op.dst.data);
    if (srcDevice && dstDevice)
        r.copy(op.src[0], op.dst, bytes);
    else if (dstDevice)
        r.upload(op.src[0].data, op.dst, bytes);
    else if (srcDevice)
        r.download(op.src[0], op.dst.data, bytes);
    else
        throw Error("Vulkan: a copy between two host tensors");
}

} // namespace

bool weightTypeSupported(GgmlType t)
{
    switch (t) {
    case GgmlType::F32:
    case GgmlType::F16:
    case GgmlType::BF16:
    case GgmlType::Q4_0:
    case GgmlType::Q4_1:
    case GgmlType::Q5_0:
    case GgmlType::Q5_1:
    case GgmlType::Q8_0:
    case GgmlType::Q2_K:
    case GgmlType::Q3_K:
    case GgmlType::Q4_K:
    case GgmlType::Q5_K:
    case GgmlType::Q6_K:
    case GgmlType::IQ4_NL:
    case GgmlType::IQ4_XS: return true;
    default: return false;
    }
}

bool kvTypeSupported(GgmlType t)
{
    return t == GgmlType::F16 || t == GgmlType::F32 || t == GgmlType::Q8_0;
}

bool opSupported(const Op& op, const char** why)
{
    const auto no = [&](const char* w) {
        if (why)
            *why = w;
        return false;
    };
    const auto f32 = [](const Tensor& t) { return t.type == GgmlType::F32; };
    switch (op.kind) {
    case OpKind::MatMul:
        if (!weightTypeSupported(op.src[0].type))
            return no("weight type");
        if (op.src[0].ne[0] % 4 != 0)
            return no("rows must be a multiple of 4 elements");
        return f32(op.src[1]) && tokenRows(op.src[1]) && tokenRows(op.dst) ? true : no("activation layout");
    case OpKind::GetRows:
        return weightTypeSupported(op.src[0].type) && op.src[0].ne[0] % 4 == 0 && op.dst.ne[2] == 1
                   ? true
                   : no("get_rows type or shape");
    case OpKind::StoreRows: return kvTypeSupported(op.dst.type) ? true : no("KV type");
    case OpKind::Attention:
        if (!kvTypeSupported(op.src[1].type) || op.src[1].type != op.src[2].type)
            return no("KV type");
        if (op.attn.headDimK > 256 || op.attn.headDimV > 256 || op.attn.nHeadKv <= 0 ||
            op.attn.nHead % op.attn.nHeadKv != 0)
            return no("head sizes up to 256 and whole GQA groups");
        return true;
    case OpKind::RopeShift:
        return kvTypeSupported(op.dst.type) && op.dst.ne[0] <= 4096 && op.attn.headDimK > 0 &&
                       op.dst.ne[0] % op.attn.headDimK == 0
                   ? true
                   : no("K rows up to 4096 values");
    case OpKind::Copy: return true;
    case OpKind::Norm:
    case OpKind::Gelu: return no("not on Vulkan yet (BERT encoders run on the CPU)");
    case OpKind::Rope:
        return f32(op.src[0]) && rowsAddressable(op.src[0]) && op.src[0].ne[0] % 2 == 0 ? true : no("rope shape");
    default: return f32(op.src[0]) && f32(op.dst) && rowsAddressable(op.src[0]) ? true : no("f32 rows");
    }
}

uint64_t opWorkBytes(const Op& op)
{
    if (op.kind != OpKind::MatMul || partnerMode(op.src[0].type) < 0)
        return 0;
    const int64_t K = op.src[1].ne[0], n = op.src[1].rows();
    return roundedBytes(K, n) + static_cast<uint64_t>(K / 32 * n) * sizeof(float);
}

void recordOp(Recorder& r, const Op& op, const RecordContext& ctx)
{
    const auto& owns = ctx.owns;
    switch (op.kind) {
    case OpKind::MatMul: recordMatMul(r, op, ctx); break;
    case OpKind::GetRows: recordGetRows(r, op); break;
    case OpKind::RmsNorm: recordRmsNorm(r, op); break;
    case OpKind::Add:
    case OpKind::Mul:
    case OpKind::Scale:
    case OpKind::SoftCap:
    case OpKind::SwiGlu:
    case OpKind::GeGlu: recordElementwise(r, op); break;
    case OpKind::Rope: recordRope(r, op); break;
    case OpKind::RopeShift: recordRopeShift(r, op); break;
    case OpKind::StoreRows: recordStoreRows(r, op); break;
    case OpKind::Attention: recordAttention(r, op); break;
    case OpKind::Copy: recordCopy(r, op, owns); break;
    case OpKind::Norm:
    case OpKind::Gelu: throw Error(std::string("the Vulkan backend has no ") + opName(op.kind) + " op");
    }
}

} // namespace hearth::vulkan

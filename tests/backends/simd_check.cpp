#include "simd_check.h"

#include "quant/iq4.h"
#include "quant/k_quants.h"
#include "quant/legacy.h"
#include "util/half.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <random>
#include <sstream>

namespace simdcheck {

using hearth::GgmlType;
using hearth::cpu::GemmFn;
using hearth::cpu::KernelTable;
using hearth::cpu::TypeKernels;
using hearth::cpu::VecDotFn;

namespace {

// Portable random numbers: mt19937's output is fixed by the standard, the
// distributions are not, so floats are made from its bits here.
class Random {
public:
    explicit Random(uint32_t seed) : m_gen(seed) {}
    uint32_t bits() { return m_gen(); }
    // Uniform in [0, 1).
    float unit() { return static_cast<float>(m_gen() >> 8) * (1.0f / 16777216.0f); }
    // Roughly normal (sum of four uniforms), mean 0, sd 1.
    float normal() { return (unit() + unit() + unit() + unit() - 2.0f) * 1.7320508f; }
    int below(int n) { return static_cast<int>(m_gen() % static_cast<uint32_t>(n)); }

private:
    std::mt19937 m_gen;
};

const TypeKernels& kernelsOf(const KernelTable& t, GgmlType type)
{
    return t.types[static_cast<uint32_t>(type)];
}

// Byte offsets of a block's f16 scale fields (d, and m / dmin).
std::vector<size_t> halfFields(GgmlType type)
{
    using namespace hearth;
    switch (type) {
    case GgmlType::Q4_0: return {offsetof(BlockQ4_0, d)};
    case GgmlType::Q4_1: return {offsetof(BlockQ4_1, d), offsetof(BlockQ4_1, m)};
    case GgmlType::Q5_0: return {offsetof(BlockQ5_0, d)};
    case GgmlType::Q5_1: return {offsetof(BlockQ5_1, d), offsetof(BlockQ5_1, m)};
    case GgmlType::Q8_0: return {offsetof(BlockQ8_0, d)};
    case GgmlType::Q2_K: return {offsetof(BlockQ2_K, d), offsetof(BlockQ2_K, dmin)};
    case GgmlType::Q3_K: return {offsetof(BlockQ3_K, d)};
    case GgmlType::Q4_K: return {offsetof(BlockQ4_K, d), offsetof(BlockQ4_K, dmin)};
    case GgmlType::Q5_K: return {offsetof(BlockQ5_K, d), offsetof(BlockQ5_K, dmin)};
    case GgmlType::Q6_K: return {offsetof(BlockQ6_K, d)};
    case GgmlType::IQ4_NL: return {offsetof(BlockIQ4_NL, d)};
    case GgmlType::IQ4_XS: return {offsetof(BlockIQ4_XS, d)};
    default: return {};
    }
}

// A scale for block b: mostly ordinary magnitudes, sometimes 0, the
// smallest subnormal or the largest finite f16.
uint16_t randomScale(Random& rng, int64_t b)
{
    switch (b % 11) {
    case 3: return 0x0000;
    case 7: return 0x0001;
    case 9: return 0x7bff;
    default: break;
    }
    const float mag = std::ldexp(1.0f + rng.unit(), -12 + rng.below(10));
    return hearth::f32ToF16(rng.below(2) ? mag : -mag);
}

// Weights: floats for the plain types; for block types random bytes (every
// quant pattern) with the f16 fields replaced by random scales.
std::vector<uint8_t> makeWeights(GgmlType type, int64_t n, Random& rng)
{
    const hearth::TypeTraits& tr = hearth::typeTraits(type);
    std::vector<uint8_t> w(hearth::rowBytes(type, n));
    if (!tr.quantized) {
        std::vector<float> f(static_cast<size_t>(n));
        for (auto& v : f)
            v = rng.normal() * std::ldexp(1.0f, rng.below(8) - 4);
        if (type == GgmlType::F32)
            std::memcpy(w.data(), f.data(), w.size());
        else
            tr.quantize(f.data(), w.data(), n);
        return w;
    }
    for (auto& byte : w)
        byte = static_cast<uint8_t>(rng.bits());
    const std::vector<size_t> fields = halfFields(type);
    for (int64_t b = 0; b < n / tr.blockSize; ++b) {
        for (size_t off : fields) {
            const uint16_t h = randomScale(rng, b + static_cast<int64_t>(off));
            std::memcpy(w.data() + static_cast<size_t>(b) * tr.blockBytes + off, &h, sizeof h);
        }
    }
    return w;
}

// Activations in blocks of 32 with varied magnitudes, zero blocks, a block
// with one non-zero value, a constant block and one of ±max ties.
// Magnitudes up to `cap` (1e4 by default).
std::vector<float> makeActivations(int64_t n, Random& rng, float cap = 1e4f)
{
    const float kMagnitudes[] = {1e-6f, 1e-2f, 1.0f, 3.0f, 100.0f, cap};
    std::vector<float> x(static_cast<size_t>(n));
    for (int64_t b = 0; b < n / 32; ++b) {
        float* p = x.data() + 32 * b;
        const int kind = rng.below(12);
        const float mag = kMagnitudes[rng.below(6)];
        for (int j = 0; j < 32; ++j) {
            if (kind == 0)
                p[j] = 0.0f;
            else if (kind == 1)
                p[j] = j == 5 ? -mag : 0.0f;
            else if (kind == 2)
                p[j] = mag;
            else if (kind == 3)
                p[j] = j % 2 ? -mag : mag; // ties in |x| of both signs
            else
                p[j] = rng.normal() * mag;
        }
    }
    return x;
}

bool sameBits(float a, float b)
{
    if (std::isnan(a) && std::isnan(b))
        return true;
    uint32_t ua, ub;
    std::memcpy(&ua, &a, 4);
    std::memcpy(&ub, &b, 4);
    return ua == ub;
}

std::string describe(const char* what, GgmlType type, int64_t n, const std::string& detail)
{
    std::ostringstream s;
    s.precision(9);
    s << hearth::typeTraits(type).name << " " << what << " n=" << n << ": " << detail;
    return s.str();
}

// Σ |w_i · a_i| from the dequantized rows, for the float tolerance.
double magnitude(const KernelTable& ref, GgmlType type, GgmlType partner, const std::vector<uint8_t>& w,
                 const std::vector<uint8_t>& a, int64_t n)
{
    std::vector<float> fw(static_cast<size_t>(n)), fa(static_cast<size_t>(n));
    kernelsOf(ref, type).toFloat(w.data(), fw.data(), n);
    kernelsOf(ref, partner).toFloat(a.data(), fa.data(), n);
    double s = 0.0;
    for (int64_t i = 0; i < n; ++i)
        s += std::fabs(static_cast<double>(fw[static_cast<size_t>(i)]) * fa[static_cast<size_t>(i)]);
    return s;
}

void checkConversions(const KernelTable& table, const KernelTable& ref, GgmlType type, GgmlType partner,
                      const std::vector<uint8_t>& w, const std::vector<float>& x, int64_t n,
                      std::vector<std::string>& failures)
{
    const TypeKernels& p = kernelsOf(table, partner);
    std::vector<uint8_t> got(hearth::rowBytes(partner, n)), want(got.size());
    p.fromFloat(x.data(), got.data(), n);
    kernelsOf(ref, partner).fromFloat(x.data(), want.data(), n);
    if (got != want)
        failures.push_back(describe("fromFloat", partner, n, "bytes differ from the reference"));

    std::vector<float> f(static_cast<size_t>(n)), fr(static_cast<size_t>(n));
    kernelsOf(table, type).toFloat(w.data(), f.data(), n);
    kernelsOf(ref, type).toFloat(w.data(), fr.data(), n);
    for (int64_t i = 0; i < n; ++i) {
        if (!sameBits(f[static_cast<size_t>(i)], fr[static_cast<size_t>(i)])) {
            failures.push_back(describe("toFloat", type, n, "element " + std::to_string(i) + " differs"));
            break;
        }
    }
}

// Rows of the big single-token shape that are generated; the others repeat
// them (generating megabytes of weights would dominate the test's time).
constexpr int64_t kDistinctRows = 40;

void checkGemmOrder(const KernelTable& table, GgmlType type, int64_t n, Random& rng, GemmFn gemm, VecDotFn dot,
                    const char* name, std::vector<std::string>& failures)
{
    const TypeKernels& k = kernelsOf(table, type);
    const size_t wStride = hearth::rowBytes(type, n) + 64;
    const size_t aStride = hearth::rowBytes(k.vecDotType, n) + 32;
    // Edge shapes around the tile sizes, and one token against more than
    // 2 MiB of weights (plus an odd rest of rows): generation's streaming
    // path, which the kernels take above a size threshold.
    std::vector<std::array<int64_t, 2>> shapes = {{1, 1}, {1, 5},  {2, 4},  {3, 1},  {3, 7},   {4, 8},   {8, 4}, {5, 3},
                                                  {7, 9}, {16, 4}, {6, 16}, {3, 17}, {17, 33}, {24, 20}, {5, 45}};
    if (n >= 2048)
        shapes.push_back({static_cast<int64_t>((size_t{2} << 20) / wStride) | 15, 1});
    for (const auto& shape : shapes) {
        const int64_t rows = shape[0], tokens = shape[1];
        std::vector<uint8_t> w(wStride * static_cast<size_t>(rows)), a(aStride * static_cast<size_t>(tokens));
        for (int64_t r = 0; r < rows; ++r) {
            if (r >= kDistinctRows) {
                std::memcpy(w.data() + wStride * static_cast<size_t>(r),
                            w.data() + wStride * static_cast<size_t>(r % kDistinctRows), wStride);
                continue;
            }
            const std::vector<uint8_t> row = makeWeights(type, n, rng);
            std::memcpy(w.data() + wStride * static_cast<size_t>(r), row.data(), row.size());
        }
        for (int64_t t = 0; t < tokens; ++t) {
            // Long rows with 1e4 blocks overflow the f16 block sums of Q8_1
            // (every dot of a _1 format would be inf or NaN and compare
            // equal): moderate activations there.
            const std::vector<float> x = makeActivations(n, rng, n >= 2048 ? 100.0f : 1e4f);
            kernelsOf(table, k.vecDotType).fromFloat(x.data(), a.data() + aStride * static_cast<size_t>(t), n);
        }
        const size_t sStride = static_cast<size_t>(rows) + 3;
        std::vector<float> s(sStride * static_cast<size_t>(tokens), -1.0f);
        gemm(n, s.data(), sStride, w.data(), wStride, a.data(), aStride, rows, tokens);
        for (int64_t t = 0; t < tokens; ++t) {
            for (int64_t r = 0; r < rows; ++r) {
                float want = 0.0f;
                dot(n, &want, w.data() + wStride * static_cast<size_t>(r), a.data() + aStride * static_cast<size_t>(t));
                const float got = s[sStride * static_cast<size_t>(t) + static_cast<size_t>(r)];
                if (!sameBits(got, want)) {
                    failures.push_back(describe(name, type, n,
                                                std::to_string(rows) + "x" + std::to_string(tokens) + " tile, row " +
                                                    std::to_string(r) + " token " + std::to_string(t) +
                                                    " differs from its dot product"));
                    return;
                }
            }
        }
    }
}

// The summation orders of a type (kernels.h, MatMulOrder): each dot product
// the reference has must be in the table with the same results, and each
// tile must equal the table's dot product of its order.
using Order = hearth::cpu::MatMulOrderEntries;
using hearth::cpu::kMatMulOrders;

void checkDot(const KernelTable& table, const KernelTable& ref, GgmlType type, const std::vector<uint8_t>& w,
              const std::vector<uint8_t>& a, int64_t n, std::vector<std::string>& failures)
{
    const TypeKernels& k = kernelsOf(table, type);
    for (const Order& order : kMatMulOrders) {
        const VecDotFn want_ = kernelsOf(ref, type).*order.dot;
        if (!want_)
            continue;
        const VecDotFn got_ = k.*order.dot;
        if (!got_) {
            failures.push_back(describe(order.name, type, n, "missing from the table"));
            continue;
        }
        float got = 0.0f, want = 0.0f;
        got_(n, &got, w.data(), a.data());
        want_(n, &want, w.data(), a.data());
        std::ostringstream d;
        d.precision(9);
        d << "got " << got << ", reference " << want;
        if (hearth::typeTraits(type).quantized) {
            if (!sameBits(got, want))
                failures.push_back(describe(order.name, type, n, d.str() + " (must be bit-exact)"));
            continue;
        }
        const double bound = kFloatDotTolerance * magnitude(ref, type, k.vecDotType, w, a, n);
        if (!(std::fabs(static_cast<double>(got) - want) <= bound))
            failures.push_back(describe(order.name, type, n, d.str() + ", bound " + std::to_string(bound)));
    }
}

// Tiles of every edge shape: rows and tokens below, at and above the
// kernels' tile sizes, with padded strides.
void checkGemm(const KernelTable& table, GgmlType type, int64_t n, Random& rng, std::vector<std::string>& failures)
{
    const TypeKernels& k = kernelsOf(table, type);
    for (const Order& order : kMatMulOrders) {
        const GemmFn gemm = k.*order.gemm;
        if (!gemm)
            continue;
        // A GEMM tile of repacked weights whose order equals the GEMV's
        // (no vecDotRepackedGemm) is checked against the GEMV.
        VecDotFn dot = k.*order.dot;
        if (!dot && order.dot == &TypeKernels::vecDotRepackedGemm)
            dot = k.vecDotRepacked;
        if (!dot) {
            failures.push_back(describe(order.name, type, n, "a tile without its dot product"));
            continue;
        }
        checkGemmOrder(table, type, n, rng, gemm, dot, order.name, failures);
    }
}

KernelTable scalarTable()
{
    KernelTable t{};
    hearth::cpu::registerScalarFloatKernels(t);
    hearth::cpu::registerScalarLegacyKernels(t);
    hearth::cpu::registerScalarKQuantKernels(t);
    hearth::cpu::registerScalarRepackedKernels(t);
    hearth::cpu::registerScalarTiledKernels(t);
    hearth::cpu::registerScalarAttentionKernels(t);
    return t;
}

// scoresF16x16 (n % 16 == 0), scoresF16x64 / pvF16 over GQA groups of 1..9 heads and a list of cells in
// lane order with gaps (as ops_attention builds it), weights with skip marks
// (-0.0), +0.0 and extremes. Head sizes cover the 16-column tails.
void checkAttentionLists(const hearth::cpu::AttentionKernels& k, const hearth::cpu::AttentionKernels& r, Random& rng,
                         std::vector<std::string>& failures)
{
    const int64_t nCells = 70;
    std::vector<int32_t> cells;
    for (int lanes : {16, 64}) {
        cells.clear();
        for (int l = 0; l < lanes; ++l)
            for (int32_t c = l; c < nCells; c += lanes)
                if (rng.below(4) != 0)
                    cells.push_back(c);
        const auto count = static_cast<int64_t>(cells.size());
        for (int64_t n : {16, 64, 80, 128, 192, 256, 260, 272, 320}) {
            for (int nq : {1, 2, 3, 4, 5, 9}) {
                const size_t stride = static_cast<size_t>(n) * 2 + 16; // interleaved KV heads
                std::vector<uint16_t> kv(stride * static_cast<size_t>(nCells)), q(stride * static_cast<size_t>(nq));
                for (auto& h : kv)
                    h = hearth::f32ToF16(rng.normal() * std::ldexp(1.0f, rng.below(6) - 3));
                for (auto& h : q)
                    h = hearth::f32ToF16(rng.normal());
                std::vector<float> s(static_cast<size_t>(nq * nCells), -1.0f), s2(s);
                if (n % 16 == 0)
                    k.scoresF16x16(s.data(), nCells, kv.data() + 8, stride, cells.data(), count, q.data(), stride, nq,
                                   n);
                if (n % 16 == 0)
                    r.scoresF16x16(s2.data(), nCells, kv.data() + 8, stride, cells.data(), count, q.data(), stride, nq,
                                   n);
                if (std::memcmp(s.data(), s2.data(), s.size() * sizeof(float)) != 0)
                    failures.push_back("attention scoresF16x16 n=" + std::to_string(n) + " nq=" + std::to_string(nq) +
                                       " differs from the reference");
                std::fill(s.begin(), s.end(), -1.0f);
                std::fill(s2.begin(), s2.end(), -1.0f);
                k.scoresF16x64(s.data(), nCells, kv.data() + 8, stride, cells.data(), count, q.data(), stride, nq, n);
                r.scoresF16x64(s2.data(), nCells, kv.data() + 8, stride, cells.data(), count, q.data(), stride, nq, n);
                if (std::memcmp(s.data(), s2.data(), s.size() * sizeof(float)) != 0)
                    failures.push_back("attention scoresF16x64 n=" + std::to_string(n) + " nq=" + std::to_string(nq) +
                                       " differs from the reference");
                std::vector<float> w(static_cast<size_t>(nq * count));
                for (auto& x : w) {
                    const int kind = static_cast<int>(rng.below(8));
                    x = kind == 0 ? -0.0f : kind == 1 ? 0.0f : rng.unit() * std::ldexp(1.0f, -rng.below(30));
                }
                const size_t accStride = static_cast<size_t>(lanes * n);
                std::vector<float> acc(accStride * static_cast<size_t>(nq)), acc2;
                for (auto& x : acc)
                    x = rng.below(3) == 0 ? -0.0f : rng.normal();
                acc2 = acc;
                k.pvF16(acc.data(), accStride, lanes, kv.data(), stride, cells.data(), count, w.data(), count, nq, n);
                r.pvF16(acc2.data(), accStride, lanes, kv.data(), stride, cells.data(), count, w.data(), count, nq, n);
                if (std::memcmp(acc.data(), acc2.data(), acc.size() * sizeof(float)) != 0)
                    failures.push_back("attention pvF16 lanes=" + std::to_string(lanes) + " n=" + std::to_string(n) +
                                       " nq=" + std::to_string(nq) + " differs from the reference");
            }
        }
    }
}

} // namespace

std::vector<std::string> checkAttention(const KernelTable& table, const KernelTable& reference, uint32_t seed)
{
    using hearth::cpu::AttentionKernels;
    std::vector<std::string> failures;
    const AttentionKernels& k = table.attention;
    const AttentionKernels& r = reference.attention;
    if (!k.dotF16x16 || !k.dotF16x64 || !k.softmaxExp || !k.axpyF16 || !k.axpyF32 || !k.reduceLanes ||
        !k.scoresF16x16 || !k.pvF16 || !k.scoresF16x64)
        return {"attention: missing kernels"};
    Random rng(seed);
    const auto fail = [&](const std::string& what, int64_t n) {
        failures.push_back("attention " + what + " n=" + std::to_string(n) + " differs from the reference");
    };
    const auto halfs = [&](int64_t n) {
        std::vector<uint16_t> h(static_cast<size_t>(n));
        for (auto& v : h)
            v = hearth::f32ToF16(rng.normal() * std::ldexp(1.0f, rng.below(6) - 3));
        return h;
    };
    for (int64_t n : {16, 48, 64, 80, 128, 256}) {
        const auto a = halfs(n), b = halfs(n);
        if (n % 16 == 0 && !sameBits(k.dotF16x16(a.data(), b.data(), n), r.dotF16x16(a.data(), b.data(), n)))
            fail("dotF16x16", n);
        if (!sameBits(k.dotF16x64(a.data(), b.data(), n), r.dotF16x64(a.data(), b.data(), n)))
            fail("dotF16x64", n);
    }
    for (int64_t n : {1, 15, 16, 17, 100, 512}) {
        for (float max : {0.0f, 3.0f, -100.0f}) {
            std::vector<float> s(static_cast<size_t>(n));
            for (int64_t i = 0; i < n; ++i) {
                // Masked cells (some whole chunks), and arguments from far
                // below exp's underflow to above its overflow (max < 0).
                const bool masked = rng.below(5) == 0 || (i >= 16 && i < 32);
                s[static_cast<size_t>(i)] = masked ? -INFINITY : -std::ldexp(rng.unit(), rng.below(9)) + 0.5f;
            }
            std::vector<float> s2 = s;
            const double got = k.softmaxExp(s.data(), n, max), want = r.softmaxExp(s2.data(), n, max);
            bool same = got == want || (std::isnan(got) && std::isnan(want));
            for (int64_t i = 0; i < n; ++i)
                same = same && sameBits(s[static_cast<size_t>(i)], s2[static_cast<size_t>(i)]);
            if (!same)
                fail("softmaxExp (max " + std::to_string(max) + ")", n);
        }
    }
    checkAttentionLists(k, r, rng, failures);
    if (!table.activation.swiglu)
        failures.push_back("swiglu: missing kernel");
    for (int64_t n : {5, 16, 100, 1536}) {
        std::vector<float> x(static_cast<size_t>(n)), y(x), out(x), out2(x);
        for (int64_t i = 0; i < n; ++i) {
            x[static_cast<size_t>(i)] = rng.normal() * std::ldexp(1.0f, rng.below(12) - 4); // up to exp overflow
            y[static_cast<size_t>(i)] = rng.normal();
        }
        if (table.activation.swiglu) {
            table.activation.swiglu(x.data(), y.data(), out.data(), n);
            reference.activation.swiglu(x.data(), y.data(), out2.data(), n);
            for (int64_t i = 0; i < n; ++i)
                if (!sameBits(out[static_cast<size_t>(i)], out2[static_cast<size_t>(i)])) {
                    fail("swiglu", n);
                    break;
                }
        }
    }
    for (int64_t n : {7, 64, 80, 256}) {
        const auto v16 = halfs(n);
        std::vector<float> v32(static_cast<size_t>(n)), acc(static_cast<size_t>(n)), acc2;
        for (auto& v : v32)
            v = rng.normal();
        for (auto& v : acc)
            v = rng.normal();
        acc2 = acc;
        k.axpyF16(acc.data(), v16.data(), 0.37f, n);
        r.axpyF16(acc2.data(), v16.data(), 0.37f, n);
        k.axpyF32(acc.data(), v32.data(), -1.3f, n);
        r.axpyF32(acc2.data(), v32.data(), -1.3f, n);
        for (int64_t i = 0; i < n; ++i)
            if (!sameBits(acc[static_cast<size_t>(i)], acc2[static_cast<size_t>(i)])) {
                fail("axpy", n);
                break;
            }
        for (int lanes : {16, 64}) {
            std::vector<float> rows(static_cast<size_t>(lanes * n)), out(static_cast<size_t>(n)), out2(out);
            for (auto& v : rows)
                v = rng.normal() * std::ldexp(1.0f, rng.below(20) - 10);
            k.reduceLanes(rows.data(), lanes, n, out.data());
            r.reduceLanes(rows.data(), lanes, n, out2.data());
            if (out != out2)
                fail("reduceLanes(" + std::to_string(lanes) + ")", n);
        }
    }
    return failures;
}

std::vector<Level> levels()
{
    using namespace hearth::cpu;
    const CpuFeatures& f = cpuFeatures();
    const auto avx2 = [] {
        KernelTable t = scalarTable();
        registerAvx2FloatKernels(t);
        registerAvx2LegacyKernels(t);
        registerAvx2KQuantKernels(t);
        registerAvx2AttentionKernels(t);
        registerAvx2RepackedKernels(t);
        registerAvx2RepackedKQuantKernels(t);
        return t;
    };
    const auto avx512 = [avx2] {
        KernelTable t = avx2();
        registerAvx512FloatKernels(t);
        registerAvx512LegacyKernels(t);
        registerAvx512KQuantKernels(t);
        registerAvx512AttentionKernels(t);
        return t;
    };
    const auto neon = [](bool dotprod) {
        KernelTable t = scalarTable();
        registerNeonFloatKernels(t);
        registerNeonLegacyKernels(t);
        registerNeonKQuantKernels(t);
        registerNeonAttentionKernels(t);
        registerNeonRepackedKernels(t);
        registerNeonRepackedKQuantKernels(t);
        if (dotprod) {
            registerNeonDotprodLegacyKernels(t);
            registerNeonDotprodKQuantKernels(t);
            registerNeonDotprodRepackedKernels(t);
            registerNeonDotprodRepackedKQuantKernels(t);
        }
        return t;
    };
    return {
        {"avx2", isaAvailable(Isa::Avx2), avx2},
        {"avx512", isaAvailable(Isa::Avx512), avx512},
        {"avx512-vnni", isaAvailable(Isa::Avx512) && f.avx512vnni, [] { return kernelTable(Isa::Avx512); }},
        {"neon", isaAvailable(Isa::Neon), [neon] { return neon(false); }},
        {"neon-dotprod", isaAvailable(Isa::Neon) && f.dotprod, [neon] { return neon(true); }},
    };
}

const std::vector<GgmlType>& kernelTypes()
{
    static const std::vector<GgmlType> types = {GgmlType::F32,  GgmlType::F16,    GgmlType::BF16,  GgmlType::Q4_0,
                                                GgmlType::Q4_1, GgmlType::Q5_0,   GgmlType::Q5_1,  GgmlType::Q8_0,
                                                GgmlType::Q2_K, GgmlType::Q3_K,   GgmlType::Q4_K,  GgmlType::Q5_K,
                                                GgmlType::Q6_K, GgmlType::IQ4_NL, GgmlType::IQ4_XS};
    return types;
}

std::vector<std::string> inheritedDots(const KernelTable& table, const KernelTable& base)
{
    std::vector<std::string> names;
    for (GgmlType type : kernelTypes()) {
        const TypeKernels& k = kernelsOf(table, type);
        const TypeKernels& b = kernelsOf(base, type);
        for (const Order& order : kMatMulOrders) {
            if (b.*order.dot && k.*order.dot == b.*order.dot)
                names.push_back(std::string(hearth::typeTraits(type).name) + "." + order.name);
        }
    }
    return names;
}

std::vector<std::string> checkType(const KernelTable& table, const KernelTable& reference, GgmlType type, uint32_t seed)
{
    std::vector<std::string> failures;
    const TypeKernels& k = kernelsOf(table, type);
    if (!k.vecDot || !k.toFloat || !kernelsOf(table, k.vecDotType).fromFloat) {
        failures.push_back(describe("table", type, 0, "missing kernels"));
        return failures;
    }
    if (k.vecDotType != kernelsOf(reference, type).vecDotType) {
        failures.push_back(describe("table", type, 0, "activation partner differs from the reference"));
        return failures;
    }
    Random rng(seed);
    const int64_t block = hearth::typeTraits(type).blockSize;
    const bool plain = block == 1;
    // One block, a few, many; the plain types also get lengths that are not
    // a multiple of the SIMD width.
    std::vector<int64_t> lengths = {32, 96, 576, 2048, 4096};
    if (block == hearth::QK_K)
        lengths = {256, 768, 2560, 4096};
    if (plain)
        lengths = {1, 7, 33, 64, 100, 576, 1000, 4096};
    for (int64_t n : lengths) {
        for (int rep = 0; rep < 4; ++rep) {
            const std::vector<uint8_t> w = makeWeights(type, n, rng);
            std::vector<float> x = plain ? std::vector<float>(static_cast<size_t>(n)) : makeActivations(n, rng);
            if (plain)
                for (auto& v : x)
                    v = rng.normal() * std::ldexp(1.0f, rng.below(8) - 4);
            if (rep == 0)
                checkConversions(table, reference, type, k.vecDotType, w, x, n, failures);
            std::vector<uint8_t> a(hearth::rowBytes(k.vecDotType, n));
            kernelsOf(reference, k.vecDotType).fromFloat(x.data(), a.data(), n);
            checkDot(table, reference, type, w, a, n, failures);
        }
        checkGemm(table, type, n, rng, failures);
        if (failures.size() > 8)
            break;
    }
    return failures;
}

} // namespace simdcheck

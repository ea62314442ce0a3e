// Scalar reference quantizers: bit-exact with llama.cpp's reference
// quantizers (golden bytes from scripts/refs/make_ggml_quant_refs.py) and
// with the gguf package's quantize() (scripts/refs/make_quant_vectors.py),
// and quantize -> dequantize round trips within the error each format
// allows.

#include "quant_test_data.h"
#include "test_support.h"

#include "quant/types.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace hearth;

namespace {

// A small portable generator (std::normal_distribution differs between
// standard libraries): xorshift64* and Box-Muller.
class Rng {
public:
    explicit Rng(uint64_t seed) : m_state(seed * 0x9e3779b97f4a7c15ull + 1) {}
    double uniform()
    {
        m_state ^= m_state >> 12;
        m_state ^= m_state << 25;
        m_state ^= m_state >> 27;
        return static_cast<double>((m_state * 2685821657736338717ull) >> 11) * 0x1.0p-53;
    }
    float normal()
    {
        const double u = std::max(uniform(), 1e-300), v = uniform();
        return static_cast<float>(std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v));
    }

private:
    uint64_t m_state;
};

// Rows of bell-shaped data, each 256-element stretch at its own scale, with
// an all-zero stretch, a constant one and one with an outlier.
std::vector<float> testData(int64_t n, uint64_t seed)
{
    Rng rng(seed);
    const float scales[] = {0.05f, 1.0f, 30.0f};
    std::vector<float> x(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i)
        x[i] = rng.normal() * scales[(i / 256) % 3];
    std::fill(x.begin(), x.begin() + 256, 0.0f);
    std::fill(x.begin() + 256, x.begin() + 512, -0.75f);
    x[600] = 9.0f;
    return x;
}

std::vector<uint8_t> quantize(const TypeTraits& t, const float* x, int64_t n, bool chunk = false)
{
    std::vector<uint8_t> out(rowBytes(t.type, n), 0);
    (chunk ? t.quantizeChunk : t.quantize)(x, out.data(), n);
    return out;
}

// How a format's quantization step is measured on a group of elements.
enum class Step {
    Relative,  // per element: |x| * 2^-bits (plain float types)
    Symmetric, // per group: max|x| / levels
    Affine,    // per group: (max - min) / levels
};

// The error a format allows, stated as multiples of its quantization step.
struct Bound {
    const char* type;
    Step step;
    int group;       // elements sharing one scale
    double levels;   // step = span / levels (Relative: 2^levels)
    double maxSteps; // max |error| <= maxSteps * step of the group
    double rmsSteps; // rms error <= rmsSteps * rms of the step
    float floor = 0; // Relative: magnitudes below this count as this
};

struct RoundTripStats {
    double worstSteps = 0; // max over groups of max|error| / step
    double rmsRatio = 0;   // rms error / rms step
};

RoundTripStats measure(const Bound& b, const std::vector<float>& x, const std::vector<float>& y)
{
    RoundTripStats s;
    double errSq = 0, stepSq = 0;
    for (size_t g = 0; g < x.size(); g += static_cast<size_t>(b.group)) {
        float lo = x[g], hi = x[g], amax = 0;
        for (int i = 0; i < b.group; ++i) {
            lo = std::min(lo, x[g + i]);
            hi = std::max(hi, x[g + i]);
            amax = std::max(amax, std::fabs(x[g + i]));
        }
        const size_t super = g / 256 * 256;
        const float superAmax = std::fabs(*std::max_element(
            x.begin() + super, x.begin() + super + 256, [](float a, float c) { return std::fabs(a) < std::fabs(c); }));
        for (int i = 0; i < b.group; ++i) {
            const double slack = b.step == Step::Relative ? 0.0 : superAmax * 0x1.0p-10;
            const double err = std::fabs(static_cast<double>(y[g + i]) - x[g + i]) - slack;
            double step = b.step == Step::Relative
                              ? std::max(std::fabs(x[g + i]), b.floor) * std::ldexp(1.0, -static_cast<int>(b.levels))
                          : b.step == Step::Symmetric ? amax / b.levels
                                                      : (static_cast<double>(hi) - lo) / b.levels;
            errSq += std::fabs(static_cast<double>(y[g + i]) - x[g + i]) *
                     std::fabs(static_cast<double>(y[g + i]) - x[g + i]);
            stepSq += step * step;
            if (err > 0)
                s.worstSteps = std::max(s.worstSteps, step > 0 ? err / step : 1e30);
        }
    }
    s.rmsRatio = stepSq > 0 ? std::sqrt(errSq / stepSq) : 0;
    return s;
}

// clang-format off
constexpr Bound kBounds[] = {
    // type    step              group levels  max   rms   floor
    {"f16",  Step::Relative,   1,    11,    1.0,  0.45, 0x1.0p-14f}, // half an f16 ulp
    {"bf16", Step::Relative,   1,    8,     1.0,  0.45, 0x1.0p-126f},
    {"q8_0", Step::Symmetric,  32,   127,   0.5,  0.30},
    {"q8_1", Step::Symmetric,  32,   127,   0.5,  0.30},
    {"q8_K", Step::Symmetric,  256,  127,   0.5,  0.30},
    {"q4_0", Step::Symmetric,  32,   8,     1.0,  0.30},
    {"q5_0", Step::Symmetric,  32,   16,    1.0,  0.30},
    {"q4_1", Step::Affine,     32,   15,    0.5,  0.30},
    {"q5_1", Step::Affine,     32,   31,    0.5,  0.30},
    {"q2_K", Step::Affine,     16,   3,     1.5,  0.30},
    {"q3_K", Step::Symmetric,  16,   4,     1.5,  0.30},
    {"q4_K", Step::Affine,     32,   15,    1.5,  0.30},
    {"q5_K", Step::Affine,     32,   31,    1.5,  0.30},
    {"q6_K", Step::Symmetric,  16,   32,    1.0,  0.30},
    // Non-uniform levels: the step is the table's widest gap, 24/127 of the
    // largest magnitude; most values fall in narrower gaps, hence the rms.
    {"iq4_nl", Step::Symmetric, 32,  127.0 / 24, 1.0, 0.25},
    {"iq4_xs", Step::Symmetric, 32,  127.0 / 24, 1.0, 0.25},
};
// clang-format on

} // namespace

class TestQuantQuantize : public QObject {
    Q_OBJECT

private:
    quanttest::VectorFile m_ggml;
    quanttest::VectorFile m_gguf;

private slots:
    void initTestCase()
    {
        m_ggml = quanttest::loadVectors("ggml_quantize");
        m_gguf = quanttest::loadVectors("dequant");
    }

    void matchesLlamaCppReference_data()
    {
        QTest::addColumn<int>("index");
        const QJsonArray cases = m_ggml.cases();
        for (int i = 0; i < cases.size(); ++i) {
            const QJsonObject c = cases[i].toObject();
            QTest::newRow(
                qPrintable(c.value(QStringLiteral("type")).toString() +
                           (c.value(QStringLiteral("chunk")).toBool() ? QStringLiteral("/chunk") : QString())))
                << i;
        }
    }

    void matchesLlamaCppReference()
    {
        QFETCH(int, index);
        const QJsonObject c = m_ggml.cases().at(index).toObject();
        const TypeTraits& t = typeTraits(*parseTypeName(c.value(QStringLiteral("type")).toString().toStdString()));
        const std::vector<float> x = m_ggml.floats(m_ggml.index.value(QStringLiteral("input")));
        const std::vector<uint8_t> expected = m_ggml.bytes(c.value(QStringLiteral("output")));
        // "chunk" cases are ggml_quantize_chunk's functions (model files).
        const bool chunk = c.value(QStringLiteral("chunk")).toBool();
        const std::vector<uint8_t> got = quantize(t, x.data(), static_cast<int64_t>(x.size()), chunk);
        QCOMPARE(got.size(), expected.size());
        // llama.cpp's reference leaves the indices of an all-zero iq4_nl
        // block (scale 0) as whatever its stack held; only the scale is
        // compared there.
        const bool zeroBlocksFree = t.type == GgmlType::IQ4_NL && !chunk;
        int badBlocks = 0;
        for (size_t b = 0; b < got.size() / t.blockBytes; ++b) {
            const uint8_t* e = expected.data() + b * t.blockBytes;
            const size_t compared = zeroBlocksFree && e[0] == 0 && e[1] == 0 ? 2 : t.blockBytes;
            if (std::memcmp(got.data() + b * t.blockBytes, e, compared) != 0) {
                if (badBlocks++ == 0)
                    qWarning("block %zu differs from llama.cpp's", b);
            }
        }
        QCOMPARE(badBlocks, 0);
    }

    // Hearth's quantizers write the same bytes as gguf.quants.quantize for
    // the types that package can quantize.
    void matchesGgufQuantize_data()
    {
        QTest::addColumn<int>("index");
        const QJsonArray cases = m_gguf.cases();
        for (int i = 0; i < cases.size(); ++i) {
            const QJsonObject c = cases[i].toObject();
            if (c.contains(QStringLiteral("input")))
                QTest::newRow(qPrintable(c.value(QStringLiteral("type")).toString())) << i;
        }
    }

    void matchesGgufQuantize()
    {
        QFETCH(int, index);
        const QJsonObject c = m_gguf.cases().at(index).toObject();
        const TypeTraits& t = typeTraits(*parseTypeName(c.value(QStringLiteral("type")).toString().toStdString()));
        const std::vector<float> x = m_gguf.floats(c.value(QStringLiteral("input")));
        const std::vector<uint8_t> expected = m_gguf.bytes(c.value(QStringLiteral("raw")));
        QVERIFY(quantize(t, x.data(), static_cast<int64_t>(x.size())) == expected);
    }

    // The error bounds, in steps of each format (see Bound): rounding to
    // the nearest level costs at most half a step and, for uniform errors,
    // 1/sqrt(12) = 0.289 of a step in rms. q4_0/q5_0 map the largest
    // magnitude to -8/-16, so the other sign has one level less and its
    // extreme may be a full step off. The K-quant searches pick the scale
    // (and min) that minimizes the weighted total, trading a larger error on
    // a few extreme values for a lower rms; their sub-block scales are also
    // rounded to 6 (q2_K: 4, q6_K: 8) bits of the largest one. Each bound
    // also allows 2^-10 of the super-block's largest magnitude, which is what
    // storing the scales and mins as f16 can cost.
    void roundTripWithinFormatBounds_data()
    {
        QTest::addColumn<int>("index");
        for (int i = 0; i < static_cast<int>(std::size(kBounds)); ++i)
            QTest::newRow(kBounds[i].type) << i;
    }

    void roundTripWithinFormatBounds()
    {
        QFETCH(int, index);
        const Bound& b = kBounds[index];
        const TypeTraits& t = typeTraits(*parseTypeName(b.type));
        const int64_t n = 256 * 48;
        for (uint64_t seed = 1; seed <= 3; ++seed) {
            const std::vector<float> x = testData(n, seed);
            const std::vector<uint8_t> q = quantize(t, x.data(), n);
            std::vector<float> y(x.size());
            t.dequantize(q.data(), y.data(), n);
            for (int i = 0; i < 256; ++i) // the all-zero stretch stays exactly zero
                QCOMPARE(y[i], 0.0f);
            const RoundTripStats s = measure(b, x, y);
            QVERIFY2(s.worstSteps <= b.maxSteps,
                     qPrintable(QStringLiteral("worst error %1 steps > %2").arg(s.worstSteps).arg(b.maxSteps)));
            QVERIFY2(s.rmsRatio <= b.rmsSteps,
                     qPrintable(QStringLiteral("rms error %1 steps > %2").arg(s.rmsRatio).arg(b.rmsSteps)));
        }
    }
};

QTEST_APPLESS_MAIN(TestQuantQuantize)
#include "test_quant_quantize.moc"

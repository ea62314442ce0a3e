// fusedMultiplyAddEmulated (util/fma.h, what MinGW builds use for std::fma)
// rounds once, exactly as the C library's std::fma does here: random
// operands over the exponent range where a·b and c interact, subnormal
// results, and sums that land halfway between two floats.

#include "util/fma.h"

#include <QTest>

#include <cstring>
#include <random>

namespace {

float fromBits(uint32_t b)
{
    float f;
    std::memcpy(&f, &b, sizeof(f));
    return f;
}

bool sameBits(float x, float y)
{
    return std::memcmp(&x, &y, sizeof(x)) == 0 || (std::isnan(x) && std::isnan(y));
}

} // namespace

class TestFma : public QObject {
    Q_OBJECT

private slots:
    void matchesTheLibraryOnRandomOperands()
    {
        std::mt19937 gen(20260101);
        std::uniform_int_distribution<uint32_t> bits;
        for (int i = 0; i < 2000000; ++i) {
            const uint32_t ra = bits(gen), rb = bits(gen), rc = bits(gen);
            const float a = fromBits((ra & 0x807fffffu) | ((100 + ra % 56) << 23));
            const float b = fromBits((rb & 0x807fffffu) | ((100 + rb % 56) << 23));
            const float c = fromBits((rc & 0x807fffffu) | ((i % 3 == 0 ? rc % 255 : 60 + rc % 120) << 23));
            const float want = std::fma(a, b, c), got = hearth::fusedMultiplyAddEmulated(a, b, c);
            if (!sameBits(want, got))
                QFAIL(qPrintable(QStringLiteral("fma(%1, %2, %3): %4, not %5")
                                     .arg(double(a), 0, 'a')
                                     .arg(double(b), 0, 'a')
                                     .arg(double(c), 0, 'a')
                                     .arg(double(got), 0, 'a')
                                     .arg(double(want), 0, 'a')));
        }
    }

    // 1 + 2^-24 is halfway between 1 and the next float; a tiny product
    // decides the direction, which rounding the sum to double first loses.
    void halfwaySumsFollowTheProduct()
    {
        const float half = std::ldexp(1.0f, -24), tiny = std::ldexp(1.0f, -60);
        QCOMPARE(hearth::fusedMultiplyAddEmulated(tiny, 1.0f, 1.0f + 2 * half), std::fma(tiny, 1.0f, 1.0f + 2 * half));
        QCOMPARE(hearth::fusedMultiplyAddEmulated(half, 1.0f + tiny * 0x1p30f, 1.0f),
                 std::fma(half, 1.0f + tiny * 0x1p30f, 1.0f));
        QCOMPARE(hearth::fusedMultiplyAddEmulated(-half, 1.0f + tiny * 0x1p30f, 1.0f),
                 std::fma(-half, 1.0f + tiny * 0x1p30f, 1.0f));
        QVERIFY(std::isnan(hearth::fusedMultiplyAddEmulated(INFINITY, 0.0f, 1.0f)));
        QCOMPARE(hearth::fusedMultiplyAddEmulated(3e38f, 10.0f, 0.0f), INFINITY);
    }
};

QTEST_APPLESS_MAIN(TestFma)
#include "test_fma.moc"

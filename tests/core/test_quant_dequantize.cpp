// Scalar reference dequantization of every listed type against the `gguf`
// package's gguf.quants.dequantize (vectors from
// scripts/refs/make_quant_vectors.py): real tensor rows of both real models
// and synthetic blocks of every type, each value within 1 ulp of f32.

#include "quant_test_data.h"
#include "test_support.h"

#include "gguf/gguf.h"
#include "quant/float_types.h"
#include "quant/iq4.h"
#include "quant/k_quants.h"
#include "quant/legacy.h"
#include "quant/types.h"
#include "util/half.h"

#include <QTest>

#include <cstring>

using namespace hearth;

class TestQuantDequantize : public QObject {
    Q_OBJECT

private:
    quanttest::VectorFile m_vectors;

    // Dequantizes `raw` as `type` and compares with `expected`; returns the
    // number of values more than 1 ulp away (and reports the first).
    static int compareDequantized(const TypeTraits& t, const uint8_t* raw, size_t rawBytes,
                                  const std::vector<float>& expected)
    {
        const auto n = static_cast<int64_t>(expected.size());
        if (rowBytes(t.type, n) != rawBytes) {
            qWarning("raw bytes %zu, expected %zu for %lld elements", rawBytes, rowBytes(t.type, n),
                     static_cast<long long>(n));
            return 1;
        }
        std::vector<float> got(expected.size());
        t.dequantize(raw, got.data(), n);
        int bad = 0;
        for (size_t i = 0; i < got.size(); ++i) {
            if (quanttest::ulpDistance(got[i], expected[i]) > 1 && bad++ == 0)
                qWarning("element %zu: got %.9g, gguf gives %.9g", i, static_cast<double>(got[i]),
                         static_cast<double>(expected[i]));
        }
        return bad;
    }

private slots:
    void initTestCase() { m_vectors = quanttest::loadVectors("dequant"); }

    void blockStructsMatchTheTraits()
    {
        QCOMPARE(sizeof(BlockQ4_0), typeTraits(GgmlType::Q4_0).blockBytes);
        QCOMPARE(sizeof(BlockQ4_1), typeTraits(GgmlType::Q4_1).blockBytes);
        QCOMPARE(sizeof(BlockQ5_0), typeTraits(GgmlType::Q5_0).blockBytes);
        QCOMPARE(sizeof(BlockQ5_1), typeTraits(GgmlType::Q5_1).blockBytes);
        QCOMPARE(sizeof(BlockQ8_0), typeTraits(GgmlType::Q8_0).blockBytes);
        QCOMPARE(sizeof(BlockQ8_1), typeTraits(GgmlType::Q8_1).blockBytes);
        QCOMPARE(sizeof(BlockQ2_K), typeTraits(GgmlType::Q2_K).blockBytes);
        QCOMPARE(sizeof(BlockQ3_K), typeTraits(GgmlType::Q3_K).blockBytes);
        QCOMPARE(sizeof(BlockQ4_K), typeTraits(GgmlType::Q4_K).blockBytes);
        QCOMPARE(sizeof(BlockQ5_K), typeTraits(GgmlType::Q5_K).blockBytes);
        QCOMPARE(sizeof(BlockQ6_K), typeTraits(GgmlType::Q6_K).blockBytes);
        QCOMPARE(sizeof(BlockQ8_K), typeTraits(GgmlType::Q8_K).blockBytes);
        QCOMPARE(sizeof(BlockIQ4_NL), typeTraits(GgmlType::IQ4_NL).blockBytes);
        QCOMPARE(sizeof(BlockIQ4_XS), typeTraits(GgmlType::IQ4_XS).blockBytes);
        QCOMPARE(int64_t(QK_K), typeTraits(GgmlType::Q4_K).blockSize);
    }

    void listedTypesHaveReferenceFunctions()
    {
        for (const char* name : {"f32", "f16", "bf16", "q4_0", "q4_1", "q5_0", "q5_1", "q8_0", "q8_1", "q2_K", "q3_K",
                                 "q4_K", "q5_K", "q6_K", "q8_K", "iq4_nl", "iq4_xs"}) {
            const TypeTraits& t = typeTraits(*parseTypeName(name));
            QVERIFY2(t.dequantize, name);
        }
        for (const char* name : {"f32", "f16", "bf16", "q4_0", "q4_1", "q5_0", "q5_1", "q8_0", "q8_1", "q2_K", "q3_K",
                                 "q4_K", "q5_K", "q6_K", "q8_K", "iq4_nl", "iq4_xs"}) {
            const TypeTraits& t = typeTraits(*parseTypeName(name));
            QVERIFY2(t.quantize, name);
        }
    }

    void matchesGguf_data()
    {
        QTest::addColumn<int>("index");
        const QJsonArray cases = m_vectors.cases();
        for (int i = 0; i < cases.size(); ++i)
            QTest::newRow(qPrintable(cases[i].toObject().value(QStringLiteral("name")).toString())) << i;
    }

    void matchesGguf()
    {
        QFETCH(int, index);
        const QJsonObject c = m_vectors.cases().at(index).toObject();
        const auto type = parseTypeName(c.value(QStringLiteral("type")).toString().toStdString());
        QVERIFY(type);
        const std::vector<uint8_t> raw = m_vectors.bytes(c.value(QStringLiteral("raw")));
        const std::vector<float> expected = m_vectors.floats(c.value(QStringLiteral("expected")));
        QCOMPARE(static_cast<qint64>(expected.size()), c.value(QStringLiteral("elements")).toInteger());
        QCOMPARE(compareDequantized(typeTraits(*type), raw.data(), raw.size(), expected), 0);
    }

    // The model rows in the vectors are the bytes Hearth's reader finds in
    // the real files, and dequantizing them in place gives gguf's values.
    void realTensorsReadInPlace_data()
    {
        QTest::addColumn<int>("index");
        const QJsonArray cases = m_vectors.cases();
        for (int i = 0; i < cases.size(); ++i) {
            const QJsonObject c = cases[i].toObject();
            if (c.value(QStringLiteral("source")).toString() == QStringLiteral("model"))
                QTest::newRow(qPrintable(c.value(QStringLiteral("name")).toString())) << i;
        }
    }

    void realTensorsReadInPlace()
    {
        QFETCH(int, index);
        const QJsonObject c = m_vectors.cases().at(index).toObject();
        const std::string path = testsupport::findModel(c.value(QStringLiteral("model")).toString().toStdString());
        if (path.empty())
            QSKIP(testsupport::kModelsMissing);
        const gguf::File file(path);
        const gguf::TensorInfo* t = file.findTensor(c.value(QStringLiteral("tensor")).toString().toStdString());
        QVERIFY(t);
        const int64_t rowElements = c.value(QStringLiteral("row_elements")).toInteger();
        QCOMPARE(t->ne[0], rowElements);
        const size_t rowSize = rowBytes(t->type, rowElements);
        const std::vector<uint8_t> raw = m_vectors.bytes(c.value(QStringLiteral("raw")));
        const std::vector<float> expected = m_vectors.floats(c.value(QStringLiteral("expected")));
        const QJsonArray rows = c.value(QStringLiteral("rows")).toArray();
        for (int r = 0; r < rows.size(); ++r) {
            const uint8_t* inFile = t->data + static_cast<size_t>(rows[r].toInteger()) * rowSize;
            QVERIFY(std::memcmp(inFile, raw.data() + r * rowSize, rowSize) == 0);
            const std::vector<float> rowExpected(expected.begin() + r * rowElements,
                                                 expected.begin() + (r + 1) * rowElements);
            QCOMPARE(compareDequantized(typeTraits(t->type), inFile, rowSize, rowExpected), 0);
        }
    }

    // f16 -> f32 -> f16 is the identity for every non-NaN half, and NaNs
    // stay NaN.
    void halfRoundTripsExhaustively()
    {
        for (uint32_t h = 0; h < 65536; ++h) {
            const float f = f16ToF32(static_cast<uint16_t>(h));
            const uint16_t back = f32ToF16(f);
            if (f != f)
                QVERIFY((back & 0x7c00) == 0x7c00 && (back & 0x03ff) != 0);
            else if (back != h)
                QFAIL(qPrintable(QStringLiteral("half 0x%1 came back as 0x%2").arg(h, 4, 16).arg(back, 4, 16)));
        }
    }
};

QTEST_APPLESS_MAIN(TestQuantDequantize)
#include "test_quant_dequantize.moc"

// Matrix multiplications equal llama.cpp's bit for bit, for every weight
// type and at batch sizes that take each of ggml's x86 paths (vec_dot, the
// tiled K-quant kernel from 8 tokens, the repacked Q4_0 / Q4_K / IQ4_NL /
// Q2_K weights with their GEMV and GEMM kernels). The references are ggml's
// own results on the same bytes (scripts/refs/ggml_matmul_refs.py); equality
// is what lets whole models match llama.cpp token for token. Run on one and
// two threads: the split must not change a bit.

#include "test_support.h"

#include "backend/op.h"
#include "cpu/cpu_backend.h"
#include "quant/types.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cstring>
#include <vector>

using namespace hearth;

namespace {

struct Blob {
    QByteArray bytes;
    const uint8_t* at(const QJsonValue& ref) const
    {
        return reinterpret_cast<const uint8_t*>(bytes.constData()) + ref.toArray()[0].toInteger();
    }
};

std::vector<float> multiply(int threads, GgmlType type, const uint8_t* w, int64_t nIn, int64_t rows, const float* x,
                            int64_t batch)
{
    cpu::CpuBackend backend(threads);
    std::vector<float> out(static_cast<size_t>(rows * batch));
    OpList list;
    Op op;
    op.kind = OpKind::MatMul;
    op.src[0] = Tensor::dense(type, nIn, rows);
    op.src[0].data = const_cast<uint8_t*>(w);
    op.src[1] = Tensor::dense(GgmlType::F32, nIn, batch);
    op.src[1].data = reinterpret_cast<uint8_t*>(const_cast<float*>(x));
    op.dst = Tensor::dense(GgmlType::F32, rows, batch);
    op.dst.data = reinterpret_cast<uint8_t*>(out.data());
    list.ops.push_back(op);
    backend.execute(list, ExecuteOptions{});
    return out;
}

} // namespace

class TestMatmulGgml : public QObject {
    Q_OBJECT

    QJsonObject m_index;
    Blob m_blob;

private slots:
    void initTestCase()
    {
        const QString dir = QString::fromStdString(testsupport::dataDir("engine/matmul"));
        QFile index(dir + "/ggml_matmul.json");
        QVERIFY(index.open(QIODevice::ReadOnly));
        m_index = QJsonDocument::fromJson(index.readAll()).object();
        QFile data(dir + "/" + m_index[QStringLiteral("data")].toString());
        QVERIFY(data.open(QIODevice::ReadOnly));
        m_blob.bytes = data.readAll();
    }

    void equalsGgml_data()
    {
        QTest::addColumn<int>("caseIndex");
        QTest::addColumn<int>("outputIndex");
        const QJsonArray cases = m_index[QStringLiteral("cases")].toArray();
        for (int c = 0; c < cases.size(); ++c) {
            const QJsonObject e = cases[c].toObject();
            const QJsonArray outputs = e[QStringLiteral("outputs")].toArray();
            for (int o = 0; o < outputs.size(); ++o) {
                const QString tag = QStringLiteral("%1/%2rows/batch%3")
                                        .arg(e[QStringLiteral("type")].toString())
                                        .arg(e[QStringLiteral("rows")].toInt())
                                        .arg(outputs[o].toObject()[QStringLiteral("batch")].toInt());
                QTest::newRow(qPrintable(tag)) << c << o;
            }
        }
    }

    void equalsGgml()
    {
        QFETCH(int, caseIndex);
        QFETCH(int, outputIndex);
        const QJsonObject e = m_index[QStringLiteral("cases")].toArray()[caseIndex].toObject();
        const QJsonObject out = e[QStringLiteral("outputs")].toArray()[outputIndex].toObject();
        const auto type = parseTypeName(e[QStringLiteral("type")].toString().toStdString());
        QVERIFY(type.has_value());
        const int64_t nIn = m_index[QStringLiteral("n_in")].toInteger();
        const int64_t rows = e[QStringLiteral("rows")].toInteger();
        const int64_t batch = out[QStringLiteral("batch")].toInteger();
        const auto* x = reinterpret_cast<const float*>(m_blob.at(m_index[QStringLiteral("x")]));
        const auto* want = reinterpret_cast<const float*>(m_blob.at(out[QStringLiteral("y")]));
        for (int threads : {1, 2}) {
            const std::vector<float> got =
                multiply(threads, *type, m_blob.at(e[QStringLiteral("weights")]), nIn, rows, x, batch);
            int differ = 0;
            for (size_t i = 0; i < got.size(); ++i)
                if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0) {
                    if (getenv("DBG") && differ < 40)
                        qDebug("tok %d row %d got %.9g want %.9g", int(i / rows), int(i % rows), got[i], want[i]);
                    ++differ;
                }
            QVERIFY2(differ == 0, qPrintable(QStringLiteral("%1 of %2 outputs differ on %3 thread(s); first: %4 vs %5")
                                                 .arg(differ)
                                                 .arg(got.size())
                                                 .arg(threads)
                                                 .arg(double(got[0]), 0, 'g', 9)
                                                 .arg(double(want[0]), 0, 'g', 9)));
        }
    }
};

QTEST_GUILESS_MAIN(TestMatmulGgml)
#include "test_matmul_ggml.moc"

// Every weight type's dot-product kernels (scalar table: vec_dot and the
// tinyBLAS / tiled / repacked orders where a type has them) against the
// reference: dequantize the weight row and the converted activations and
// sum in double. Tolerance: 1e-5 of Σ|w·a| (only float rounding differs);
// 1e-3 for Q4_1 / Q5_1, whose partner carries its block sum rounded to f16
// (as ggml's Q8_1 does). Their exact bits are checked against ggml itself
// in test_matmul_ggml.
// Also: a matmul through the backend gives the same result on 1 and 2
// threads, and, below the batch sizes where llama.cpp switches kernels
// (cpu/kernels.h, matMulOrder), for a batch as for single tokens.

#include "backend/op.h"
#include "cpu/cpu_backend.h"
#include "cpu/kernels.h"
#include "quant/types.h"

#include <QTest>

#include <cmath>
#include <random>
#include <vector>

using namespace hearth;

class TestCpuKernels : public QObject {
    Q_OBJECT

private slots:
    void dotMatchesDequantizedReference_data()
    {
        QTest::addColumn<int>("type");
        for (GgmlType t : {GgmlType::F32, GgmlType::F16, GgmlType::BF16, GgmlType::Q4_0, GgmlType::Q4_1, GgmlType::Q5_0,
                           GgmlType::Q5_1, GgmlType::Q8_0, GgmlType::Q2_K, GgmlType::Q3_K, GgmlType::Q4_K,
                           GgmlType::Q5_K, GgmlType::Q6_K, GgmlType::IQ4_NL, GgmlType::IQ4_XS})
            QTest::newRow(std::string(typeTraits(t).name).c_str()) << static_cast<int>(t);
    }

    void dotMatchesDequantizedReference()
    {
        QFETCH(int, type);
        const auto t = static_cast<GgmlType>(type);
        const TypeTraits& tr = typeTraits(t);
        const cpu::TypeKernels& k = cpu::kernelTable(cpu::Isa::Scalar).types[static_cast<uint32_t>(t)];
        QVERIFY(k.vecDot && tr.quantize && tr.dequantize);
        const cpu::TypeKernels& partner = cpu::kernelTable(cpu::Isa::Scalar).types[static_cast<uint32_t>(k.vecDotType)];
        const TypeTraits& ptr = typeTraits(k.vecDotType);

        std::mt19937 rng(7 + type);
        std::normal_distribution<float> dist(0.0f, 1.0f);
        const int64_t n = 512;
        for (int trial = 0; trial < 20; ++trial) {
            std::vector<float> w(n), a(n);
            for (auto& v : w)
                v = dist(rng);
            for (auto& v : a)
                v = dist(rng) * (trial % 3 == 0 ? 10.0f : 1.0f);
            std::vector<uint8_t> wq(rowBytes(t, n)), aq(rowBytes(k.vecDotType, n));
            tr.quantize(w.data(), wq.data(), n);
            partner.fromFloat(a.data(), aq.data(), n);
            std::vector<float> wd(n), ad(n);
            tr.dequantize(wq.data(), wd.data(), n);
            ptr.dequantize(aq.data(), ad.data(), n);
            double ref = 0.0, mag = 0.0;
            for (int64_t i = 0; i < n; ++i) {
                ref += double(wd[i]) * ad[i];
                mag += std::abs(double(wd[i]) * ad[i]);
            }
            const double tol = (t == GgmlType::Q4_1 || t == GgmlType::Q5_1) ? 1e-3 : 1e-5;
            for (const cpu::MatMulOrderEntries& order : cpu::kMatMulOrders) {
                const cpu::VecDotFn dot = k.*order.dot;
                if (!dot)
                    continue;
                float got = 0.0f;
                dot(n, &got, wq.data(), aq.data());
                QVERIFY2(std::abs(got - ref) <= tol * mag,
                         qPrintable(QStringLiteral("%1 %4: %2 vs %3")
                                        .arg(QString::fromLatin1(tr.name.data(), int(tr.name.size())))
                                        .arg(got)
                                        .arg(ref)
                                        .arg(QLatin1String(order.name))));
            }
        }
    }

    void matmulSameOnAnyThreadCount()
    {
        const int64_t nIn = 256, nOut = 37, nTok = 5;
        std::mt19937 rng(3);
        std::normal_distribution<float> dist(0.0f, 1.0f);
        std::vector<float> wf(nIn * nOut), x(nIn * nTok);
        for (auto& v : wf)
            v = dist(rng);
        for (auto& v : x)
            v = dist(rng);
        std::vector<uint8_t> w(rowBytes(GgmlType::Q4_K, nIn) * nOut);
        for (int64_t r = 0; r < nOut; ++r)
            typeTraits(GgmlType::Q4_K).quantize(wf.data() + r * nIn, w.data() + r * rowBytes(GgmlType::Q4_K, nIn), nIn);

        const auto run = [&](int threads, int64_t tokens, int64_t first) {
            cpu::CpuBackend backend(threads);
            std::vector<float> out(nOut * tokens);
            OpList list;
            Op op;
            op.kind = OpKind::MatMul;
            op.src[0] = Tensor::dense(GgmlType::Q4_K, nIn, nOut);
            op.src[0].data = w.data();
            op.src[1] = Tensor::dense(GgmlType::F32, nIn, tokens);
            op.src[1].data = reinterpret_cast<uint8_t*>(x.data() + first * nIn);
            op.dst = Tensor::dense(GgmlType::F32, nOut, tokens);
            op.dst.data = reinterpret_cast<uint8_t*>(out.data());
            list.ops.push_back(op);
            backend.execute(list, ExecuteOptions{});
            return out;
        };
        const std::vector<float> one = run(1, nTok, 0);
        QCOMPARE(run(2, nTok, 0), one);
        for (int64_t t = 0; t < nTok; ++t) {
            const std::vector<float> single = run(2, 1, t);
            for (int64_t o = 0; o < nOut; ++o)
                QCOMPARE(single[o], one[t * nOut + o]);
        }
    }
};

QTEST_GUILESS_MAIN(TestCpuKernels)
#include "test_cpu_kernels.moc"

// Every op of the Vulkan backend against the CPU backend, on lavapipe, at
// small shapes, with a stated tolerance (NMSE, Σ(gpu-cpu)² / Σcpu², as
// ggml's test-backend-ops states its limits):
//   mat-vec / mat-mat, quantized weights   5e-4 (the CPU quantizes the
//       activations to Q8 blocks, the GPU keeps them f32)
//   mat-vec / mat-mat, f32 / f16 / bf16    1e-5 (the CPU rounds the
//       activations to f16 / bf16 for those)
//   get_rows (dequantize)                  1e-12 (same arithmetic)
//   rms_norm, add, mul, scale, soft cap, SwiGLU, store_rows f32,
//       rope_shift f32                     1e-10
//   rope                                   1e-8 (angles from pow() per pair,
//       not ggml's running product; positions up to 4095)
//   GeGLU                                  1e-6 (the CPU's f16 table)
//   store_rows / rope_shift f16, q8_0     1e-5 (one rounding of the type)
//   attention                              5e-4 (the CPU rounds q and the
//       probabilities to f16 as llama.cpp does)
// Every weight type goes through mat-vec, the tiled mat-mat (more than 8
// tokens), row chunks, and get_rows.

#include "op_harness.h"

#include "util/half.h"

using namespace hearth;

namespace {

const GgmlType kWeightTypes[] = {GgmlType::F32,  GgmlType::F16,  GgmlType::BF16, GgmlType::Q4_0,   GgmlType::Q4_1,
                                 GgmlType::Q5_0, GgmlType::Q5_1, GgmlType::Q8_0, GgmlType::Q2_K,   GgmlType::Q3_K,
                                 GgmlType::Q4_K, GgmlType::Q5_K, GgmlType::Q6_K, GgmlType::IQ4_NL, GgmlType::IQ4_XS};

bool floatType(GgmlType t)
{
    return t == GgmlType::F32 || t == GgmlType::F16 || t == GgmlType::BF16;
}

} // namespace

class TestVulkanOps : public QObject {
    Q_OBJECT

    std::unique_ptr<Backend> m_gpu;
    std::string m_why;

    void check(double err, double tol, const char* what)
    {
        qInfo("%s: nmse %.3g (limit %.3g)", what, err, tol);
        QVERIFY2(err <= tol, qPrintable(QStringLiteral("%1: nmse %2 > %3").arg(what).arg(err).arg(tol)));
    }

private slots:
    void initTestCase()
    {
        m_gpu = vktest::makeBackend(m_why);
        if (!m_gpu)
            QSKIP(m_why.c_str());
        qInfo("device: %s", m_gpu->device().name.c_str());
    }

    void matmul_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("tokens");
        for (GgmlType t : kWeightTypes)
            for (int n : {1, 3, 12})
                QTest::newRow((std::string(typeTraits(t).name) + "/n" + std::to_string(n)).c_str())
                    << static_cast<int>(t) << n;
    }

    void matmul()
    {
        QFETCH(int, type);
        QFETCH(int, tokens);
        const auto t = static_cast<GgmlType>(type);
        vktest::OpHarness h(*m_gpu);
        Op op;
        op.kind = OpKind::MatMul;
        op.src[0] = h.tensor(t, 512, 70); // 70 rows: a partial tile of 64
        op.src[1] = h.tensor(GgmlType::F32, 512, tokens);
        op.dst = h.tensor(GgmlType::F32, 70, tokens, 1, 1.0f, true);
        check(h.run(op), floatType(t) ? 1e-5 : 5e-4, typeTraits(t).name.data());
    }

    void getRows_data()
    {
        QTest::addColumn<int>("type");
        for (GgmlType t : kWeightTypes)
            QTest::newRow(std::string(typeTraits(t).name).c_str()) << static_cast<int>(t);
    }

    void getRows()
    {
        QFETCH(int, type);
        vktest::OpHarness h(*m_gpu);
        static const int32_t ids[] = {5, 0, 9, 5};
        Op op;
        op.kind = OpKind::GetRows;
        op.src[0] = h.tensor(static_cast<GgmlType>(type), 256, 10);
        op.ids = ids;
        op.dst = h.tensor(GgmlType::F32, 256, 4, 1, 1.0f, true);
        check(h.run(op), 1e-12, "get_rows");
    }

    void rmsNorm_data()
    {
        QTest::addColumn<bool>("weight");
        QTest::addColumn<bool>("perHead");
        QTest::newRow("weight") << true << false;
        QTest::newRow("plain") << false << false;
        QTest::newRow("per-head (QK norm)") << true << true;
    }

    void rmsNorm()
    {
        QFETCH(bool, weight);
        QFETCH(bool, perHead);
        vktest::OpHarness h(*m_gpu);
        Op op;
        op.kind = OpKind::RmsNorm;
        op.scalar = 1e-6f;
        op.src[0] = perHead ? h.tensor(GgmlType::F32, 16, 4, 3) : h.tensor(GgmlType::F32, 300, 5);
        if (weight)
            op.src[1] = h.tensor(GgmlType::F32, op.src[0].ne[0]);
        op.dst = h.tensor(GgmlType::F32, op.src[0].ne[0], op.src[0].ne[1], op.src[0].ne[2], 1.0f, true);
        check(h.run(op), 1e-10, "rms_norm");
    }

    void elementwise_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("broadcast");
        QTest::newRow("add") << int(OpKind::Add) << false;
        QTest::newRow("add broadcast (bias)") << int(OpKind::Add) << true;
        QTest::newRow("mul") << int(OpKind::Mul) << false;
        QTest::newRow("mul broadcast") << int(OpKind::Mul) << true;
        QTest::newRow("scale") << int(OpKind::Scale) << false;
        QTest::newRow("soft cap") << int(OpKind::SoftCap) << false;
        QTest::newRow("swiglu") << int(OpKind::SwiGlu) << false;
        QTest::newRow("geglu") << int(OpKind::GeGlu) << false;
    }

    void elementwise()
    {
        QFETCH(int, kind);
        QFETCH(bool, broadcast);
        vktest::OpHarness h(*m_gpu);
        Op op;
        op.kind = static_cast<OpKind>(kind);
        op.src[0] = h.tensor(GgmlType::F32, 96, 7, 1, 3.0f);
        if (op.kind != OpKind::Scale && op.kind != OpKind::SoftCap)
            op.src[1] = h.tensor(GgmlType::F32, 96, broadcast ? 1 : 7);
        op.scalar = op.kind == OpKind::SoftCap ? 2.5f : 0.7f;
        op.dst = h.tensor(GgmlType::F32, 96, 7, 1, 1.0f, true);
        check(h.run(op), op.kind == OpKind::GeGlu ? 1e-6 : 1e-10, opName(op.kind));
    }

    void rope_data()
    {
        QTest::addColumn<bool>("neox");
        QTest::addColumn<bool>("factors");
        QTest::addColumn<bool>("yarn");
        QTest::addColumn<int>("nRot");
        QTest::newRow("normal") << false << false << false << 32;
        QTest::newRow("neox") << true << false << false << 32;
        QTest::newRow("normal, frequency factors") << false << true << false << 32;
        QTest::newRow("neox, partial rotation") << true << false << false << 16;
        QTest::newRow("neox, yarn") << true << false << true << 32;
    }

    void rope()
    {
        QFETCH(bool, neox);
        QFETCH(bool, factors);
        QFETCH(bool, yarn);
        QFETCH(int, nRot);
        vktest::OpHarness h(*m_gpu);
        static const int32_t pos[] = {0, 1, 7, 300, 4095};
        static float ff[16];
        for (int i = 0; i < 16; ++i)
            ff[i] = 1.0f + 0.25f * static_cast<float>(i);
        Op op;
        op.kind = OpKind::Rope;
        op.src[0] = h.tensor(GgmlType::F32, 32, 3, 5);
        op.ids = pos;
        op.rope.mode = neox ? RopeMode::Neox : RopeMode::Normal;
        op.rope.nRot = nRot;
        op.rope.freqBase = 10000.0f;
        op.rope.freqFactors = factors ? ff : nullptr;
        if (yarn) {
            op.rope.freqScale = 0.25f;
            op.rope.extFactor = 1.0f;
            op.rope.nCtxOrig = 256;
        }
        op.dst = h.tensor(GgmlType::F32, 32, 3, 5, 1.0f, true);
        check(h.run(op), 1e-8, "rope");
    }

    void storeRows_data()
    {
        QTest::addColumn<int>("type");
        for (GgmlType t : {GgmlType::F16, GgmlType::F32, GgmlType::Q8_0})
            QTest::newRow(std::string(typeTraits(t).name).c_str()) << static_cast<int>(t);
    }

    void storeRows()
    {
        QFETCH(int, type);
        const auto t = static_cast<GgmlType>(type);
        vktest::OpHarness h(*m_gpu);
        static const int32_t cells[] = {3, 0, 6};
        Op op;
        op.kind = OpKind::StoreRows;
        op.src[0] = h.tensor(GgmlType::F32, 96, 3);
        op.dst = h.tensor(t, 96, 8, 1, 1.0f, true);
        op.ids = cells;
        check(h.run(op), t == GgmlType::F32 ? 1e-10 : 1e-5, "store_rows");
    }

    void attention_data()
    {
        QTest::addColumn<int>("type");
        QTest::addColumn<int>("tokens");
        QTest::addColumn<float>("softCap");
        QTest::addColumn<int>("window");
        for (GgmlType t : {GgmlType::F16, GgmlType::F32, GgmlType::Q8_0}) {
            const std::string n(typeTraits(t).name);
            QTest::newRow((n + " decode").c_str()) << int(t) << 1 << 0.0f << 0;
            QTest::newRow((n + " batch").c_str()) << int(t) << 5 << 0.0f << 0;
        }
        QTest::newRow("f16 soft cap + window") << int(GgmlType::F16) << 5 << 20.0f << 4;
    }

    // 70 cells (more than one tile of 64) of two sequences; GQA 4:2.
    void attention()
    {
        QFETCH(int, type);
        QFETCH(int, tokens);
        QFETCH(float, softCap);
        QFETCH(int, window);
        const auto t = static_cast<GgmlType>(type);
        vktest::OpHarness h(*m_gpu);
        constexpr int kCells = 70, kHeads = 4, kKv = 2, kDim = 32;
        static int32_t cellPos[kCells];
        static uint64_t cellSeqs[kCells];
        for (int c = 0; c < kCells; ++c) {
            cellPos[c] = c % 9 == 8 ? -1 : c / 2; // some empty cells
            cellSeqs[c] = cellPos[c] < 0 ? 0 : (c % 2 ? 2u : 1u) | (c < 10 ? 3u : 0u);
        }
        static const int32_t tokPos[] = {34, 30, 12, 34, 2};
        static const int32_t tokSeq[] = {0, 1, 0, 1, 0};
        Op op;
        op.kind = OpKind::Attention;
        op.src[0] = h.tensor(GgmlType::F32, kDim, kHeads, tokens);
        op.src[1] = h.tensor(t, kDim * kKv, kCells);
        op.src[2] = h.tensor(t, kDim * kKv, kCells);
        op.attn.nHead = kHeads;
        op.attn.nHeadKv = kKv;
        op.attn.headDimK = op.attn.headDimV = kDim;
        op.attn.scale = 0.3f;
        op.attn.softCap = softCap;
        op.attn.window = window;
        op.attn.mask = AttentionMask{kCells, cellPos, cellSeqs, tokPos, tokSeq};
        op.dst = h.tensor(GgmlType::F32, kDim * kHeads, tokens, 1, 1.0f, true);
        check(h.run(op), 5e-4, "attention");
    }

    void ropeShift_data() { storeRows_data(); }

    void ropeShift()
    {
        QFETCH(int, type);
        const auto t = static_cast<GgmlType>(type);
        vktest::OpHarness h(*m_gpu);
        static const int32_t delta[] = {0, -3, 5, 0, 12, -1};
        Op op;
        op.kind = OpKind::RopeShift;
        op.dst = h.tensor(t, 64, 6);
        op.ids = delta;
        op.rope.mode = RopeMode::Neox;
        op.rope.nRot = 32;
        op.attn.headDimK = 32;
        check(h.run(op), t == GgmlType::F32 ? 1e-10 : 1e-5, "rope_shift");
    }
};

QTEST_GUILESS_MAIN(TestVulkanOps)
#include "test_vulkan_ops.moc"

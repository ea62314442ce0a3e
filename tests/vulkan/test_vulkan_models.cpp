// Whole models on the Vulkan backend (lavapipe) against the CPU backend:
// synthetic llama, qwen2 and gemma3 files (scripts/refs/
// make_synthetic_models.py, f32 and q8_0) with every layer offloaded and
// with the split at every point (0 .. n_layer + 1 layers, as -ngl counts
// them), and the real SmolLM2 file.
//
// Tolerance: logits within 1e-3 · max |logit| of the CPU's (f32 weights)
// or 1e-2 (q8_0) for 16 positions (10 in one batch, 6 decoded one at a
// time), and the same 16 greedy tokens. The GPU rounds activations to the
// CPU's Q8 / f16 grids (act_round.comp) and the attention's q and
// probabilities as the CPU does, so what is left is float summation order
// (the CPU sums f32 weights in double) and, with q8_0, the odd activation
// whose Q8 rounding tips the other way: the same limits as
// test_engine_synthetic's against llama.cpp. Measured on lavapipe: llama
// 3e-7, qwen2 2e-4 (f32) / 6e-3 (q8_0), gemma3 4e-3.

#include "model_runner.h"
#include "test_support.h"

#include <QTemporaryDir>

using namespace hearth;

class TestVulkanModels : public QObject {
    Q_OBJECT

    std::unique_ptr<Backend> m_gpu;
    std::string m_why;
    QTemporaryDir m_dir;
    const std::vector<int32_t> m_tokens{1, 7, 42, 99, 3, 17, 64, 5, 88, 120, 33, 2, 71, 11, 90, 6};

    std::string path(const QString& name) const
    {
        return m_dir.path().toStdString() + "/" + name.toStdString() + ".gguf";
    }

private slots:
    void initTestCase()
    {
        m_gpu = vktest::makeBackend(m_why);
        if (!m_gpu)
            QSKIP(m_why.c_str());
        QVERIFY(m_dir.isValid());
        const std::string why = testsupport::makeSyntheticModels(
            m_dir.path().toStdString(), {"llama-f32", "llama-q8_0", "qwen2-f32", "qwen2-q8_0", "gemma3-q8_0"});
        if (!why.empty())
            QSKIP(qPrintable(QString::fromStdString(std::string(testsupport::kPythonMissing) + ": " + why)));
    }

    void splits_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("gpuLayers");
        for (const char* n : {"llama-f32", "llama-q8_0", "qwen2-f32", "qwen2-q8_0"})
            for (int l : {0, 1, 2, 3})
                QTest::newRow(qPrintable(QStringLiteral("%1/ngl%2").arg(QLatin1String(n)).arg(l)))
                    << QString::fromLatin1(n) << l;
        for (int l : {1, 4, 7, 8, 99}) // 7 layers: 5 sliding, 2 global
            QTest::newRow(qPrintable(QStringLiteral("gemma3-q8_0/ngl%1").arg(l))) << QStringLiteral("gemma3-q8_0") << l;
    }

    void splits()
    {
        QFETCH(QString, name);
        QFETCH(int, gpuLayers);
        cpu::CpuBackend cpu(2);
        vktest::Run ref = vktest::load(path(name), cpu, nullptr, 0);
        vktest::Run run = vktest::load(path(name), cpu, m_gpu.get(), gpuLayers);
        qInfo("%s", run.model->placementNote().c_str());
        const std::vector<float> want = vktest::logits(*ref.ctx, m_tokens, 10);
        const std::vector<float> got = vktest::logits(*run.ctx, m_tokens, 10);
        const double rel = vktest::relMaxDiff(got, want);
        qInfo("max |diff| / max |logit| = %.3g", rel);
        const double tol = name.endsWith(QLatin1String("f32")) ? 1e-3 : 1e-2;
        QVERIFY2(rel <= tol, qPrintable(QStringLiteral("logits differ by %1 of their range").arg(rel)));
        ref.ctx->kv().clear();
        run.ctx->kv().clear();
        const std::vector<int32_t> prompt{1, 7, 42};
        QCOMPARE(vktest::greedy(*run.ctx, prompt, 16), vktest::greedy(*ref.ctx, prompt, 16));
    }

    // The real model: the CPU's greedy tokens (hearth run -ngl 99 --temp 0
    // -n 8 goes the same way). Slow on lavapipe (about a minute).
    void smollm2()
    {
        HEARTH_REQUIRE_MODEL(file, smolLm2Path);
        cpu::CpuBackend cpu(2);
        vktest::Run ref = vktest::load(file, cpu, nullptr, 0, 256, 64);
        vktest::Run run = vktest::load(file, cpu, m_gpu.get(), 99, 256, 64);
        const std::vector<int32_t> prompt = ref.model->tokenizePrompt("The capital of France is");
        const std::vector<int32_t> want = vktest::greedy(*ref.ctx, prompt, 8);
        QCOMPARE(vktest::greedy(*run.ctx, prompt, 8), want);
    }
};

QTEST_GUILESS_MAIN(TestVulkanModels)
#include "test_vulkan_models.moc"

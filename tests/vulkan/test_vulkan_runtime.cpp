// The Vulkan backend's life around the ops, on lavapipe: perplexity with
// every layer offloaded (within 0.1% of the CPU's), the pipeline cache
// surviving a restart, a device budget too small for the layers asked for
// (a clear error with the count that fits; "auto" loads that many), and a
// device lost while decoding (an error, never a crash; a new backend and a
// reload work again).

#include "model_runner.h"
#include "test_support.h"

#include "runtime/gpu_layers.h"
#include "runtime/perplexity.h"
#include "util/error.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

using namespace hearth;

class TestVulkanRuntime : public QObject {
    Q_OBJECT

    std::unique_ptr<Backend> m_gpu;
    std::string m_why;
    QTemporaryDir m_dir;

    std::string model() const { return m_dir.path().toStdString() + "/llama-q8_0.gguf"; }

private slots:
    void initTestCase()
    {
        m_gpu = vktest::makeBackend(m_why);
        if (!m_gpu)
            QSKIP(m_why.c_str());
        const std::string why = testsupport::makeSyntheticModels(m_dir.path().toStdString(), {"llama-q8_0"});
        if (!why.empty())
            QSKIP(qPrintable(QString::fromStdString(std::string(testsupport::kPythonMissing) + ": " + why)));
    }

    // The committed slice (tests/data/engine/constitution.txt), its bytes
    // as tokens of the synthetic model's 128-token vocabulary.
    void perplexity()
    {
        QFile f(QString::fromStdString(testsupport::dataDir("engine") + "/constitution.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.read(4096);
        std::vector<int32_t> tokens;
        for (const char c : text)
            tokens.push_back(6 + static_cast<unsigned char>(c) % 122);
        cpu::CpuBackend cpu(2);
        // One micro-batch per chunk (nBatch = nCtx), as hearth perplexity runs it.
        vktest::Run ref = vktest::load(model(), cpu, nullptr, 0, 128, 128);
        vktest::Run run = vktest::load(model(), cpu, m_gpu.get(), 99, 128, 128);
        const PerplexityResult a = computePerplexity(*ref.ctx, tokens, 128, 1, 4);
        const PerplexityResult b = computePerplexity(*run.ctx, tokens, 128, 1, 4);
        qInfo("perplexity: CPU %.6f, Vulkan %.6f (%lld tokens scored)", a.perplexity, b.perplexity,
              static_cast<long long>(a.scoredTokens));
        QVERIFY(a.scoredTokens > 100);
        QVERIFY(std::abs(b.perplexity - a.perplexity) <= 1e-3 * a.perplexity);
    }

    // The second backend loads what the first saved; with a driver that
    // keeps pipelines in its cache, it compiles none (lavapipe 22.3 keeps
    // nothing, which the log says).
    void pipelineCache()
    {
        QTemporaryDir cache;
        std::vector<std::string> lines;
        const auto runOnce = [&] {
            vulkan::Options o;
            o.device = "llvmpipe";
            o.cacheDir = cache.path().toStdString();
            o.log = [&](const std::string& l) { lines.push_back(l); };
            std::unique_ptr<Backend> gpu = vulkan::createBackend(o);
            cpu::CpuBackend cpu(1);
            vktest::Run r = vktest::load(model(), cpu, gpu.get(), 99, 32, 8);
            const std::vector<int32_t> t{1, 2, 3};
            QVERIFY(!vktest::logits(*r.ctx, t, 3).empty());
        };
        runOnce();
        const auto has = [&](const char* what) {
            return std::any_of(lines.begin(), lines.end(),
                               [&](const std::string& l) { return l.find(what) != l.npos; });
        };
        QVERIFY(has("none yet"));
        QVERIFY(has("pipeline cache saved"));
        QCOMPARE(QDir(cache.path()).entryList({QStringLiteral("pipelines-*.bin")}, QDir::Files).size(), 1);
        lines.clear();
        runOnce();
        QVERIFY(has("bytes loaded"));
        const bool driverKeepsNothing = has("the driver keeps nothing");
        for (const std::string& l : lines)
            if (l.find("pipelines created") != l.npos) {
                qInfo("%s", l.c_str());
                if (!driverKeepsNothing)
                    QVERIFY2(l.find(" 0 compiled") != l.npos, l.c_str());
            }
    }

    void outOfMemory()
    {
        HEARTH_REQUIRE_MODEL(file, smolLm2Path);
        std::string why;
        std::unique_ptr<Backend> small = vktest::makeBackend(why, uint64_t{100} << 20);
        QVERIFY(small);
        cpu::CpuBackend cpu(1);
        try {
            vktest::load(file, cpu, small.get(), 99, 256, 32);
            QFAIL("99 layers fitted in 100 MiB");
        } catch (const OutOfDeviceMemory& e) {
            qInfo("%s", e.what());
            QVERIFY(std::string(e.what()).find("layers fit (-ngl ") != std::string::npos);
        }
        vktest::Run r = vktest::load(file, cpu, small.get(), kGpuLayersAuto, 256, 32);
        qInfo("auto: %s", r.model->placementNote().c_str());
        const int64_t placed = r.model->model().placement().gpuLayers();
        QVERIFY(placed > 0 && placed < 31);
        QVERIFY(small->device().memoryFree >= autoMargin(uint64_t{100} << 20) / 2);
        const std::vector<int32_t> one{1};
        QVERIFY(!vktest::logits(*r.ctx, one, 1).empty());
    }

    void deviceLost()
    {
        vulkan::Options o;
        o.device = "llvmpipe";
        o.cacheDir = "-";
        o.failAfterSubmits = 3;
        std::unique_ptr<Backend> flaky = vulkan::createBackend(o);
        cpu::CpuBackend cpu(1);
        vktest::Run r = vktest::load(model(), cpu, flaky.get(), 99);
        const std::vector<int32_t> t{1, 2, 3, 4, 5, 6};
        QVERIFY_THROWS_EXCEPTION(DeviceLost, vktest::logits(*r.ctx, t, 1));
        QVERIFY_THROWS_EXCEPTION(DeviceLost, vktest::logits(*r.ctx, t, 1)); // stays refused, no crash
        r = {};
        vktest::Run again = vktest::load(model(), cpu, m_gpu.get(), 99); // the model reloads on a good device
        QVERIFY(!vktest::logits(*again.ctx, t, 1).empty());
    }
};

QTEST_GUILESS_MAIN(TestVulkanRuntime)
#include "test_vulkan_runtime.moc"

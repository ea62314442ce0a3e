// The whole engine gives the same logits, bit for bit, on every kernel level
// this CPU can run: a prompt as one batch (gemm tiles, batched attention),
// then single tokens (one-token tiles, single-query attention), on the real
// models (Q4_1 + Q8_0 SmolLM2; Q5_0, Q8_0, Q4_K, Q6_K Gemma 3). This is what
// keeps greedy outputs identical to llama.cpp's whatever level runs.
#include "test_support.h"

#include "cpu/cpu_backend.h"
#include "cpu/cpu_features.h"
#include "cpu/kernels.h"
#include "gguf/gguf.h"
#include "model/model.h"
#include "runtime/context.h"

#include <QTest>

#include <cstring>
#include <vector>

using namespace hearth;

namespace {

// Logits of a 12-token prompt and of 3 single tokens after it, one level.
std::vector<float> run(const std::string& path, cpu::Isa isa)
{
    qputenv("HEARTH_CPU_ISA", cpu::isaName(isa));
    cpu::refreshActiveIsa();
    cpu::CpuBackend backend(2);
    const std::shared_ptr<const Model> model = Model::create(std::make_shared<gguf::File>(path), backend);
    Context ctx(model, backend, ContextParams{64, 16, GgmlType::F16});
    std::vector<int32_t> prompt;
    for (int i = 0; i < 12; ++i)
        prompt.push_back(100 + 37 * i);
    std::vector<float> all;
    if (!ctx.decode(prompt, 0, 0, false))
        return {};
    for (int step = 0; step < 4; ++step) {
        const auto logits = ctx.logits(0);
        all.insert(all.end(), logits.begin(), logits.end());
        if (step == 3)
            break;
        const int32_t t = 1000 + step;
        if (!ctx.decode(std::span<const int32_t>(&t, 1), 12 + step, 0, false))
            return {};
    }
    qunsetenv("HEARTH_CPU_ISA");
    cpu::refreshActiveIsa();
    return all;
}

} // namespace

class TestSimdEngine : public QObject {
    Q_OBJECT

private slots:
    void sameLogitsOnEveryLevel_data()
    {
        QTest::addColumn<QString>("model");
        QTest::newRow("smollm2") << QStringLiteral("smollm2");
        QTest::newRow("gemma3") << QStringLiteral("gemma3");
    }

    void sameLogitsOnEveryLevel()
    {
        QFETCH(QString, model);
        const std::string path =
            model == QLatin1String("smollm2") ? testsupport::smolLm2Path() : testsupport::gemma3Path();
        if (path.empty())
            QSKIP(testsupport::kModelsMissing);
        const std::vector<float> reference = run(path, cpu::Isa::Scalar);
        QVERIFY(!reference.empty());
        int levels = 0;
        for (cpu::Isa isa : {cpu::Isa::Avx2, cpu::Isa::Avx512, cpu::Isa::Neon}) {
            if (!cpu::isaAvailable(isa))
                continue;
            ++levels;
            const std::vector<float> got = run(path, isa);
            QCOMPARE(got.size(), reference.size());
            QVERIFY2(std::memcmp(got.data(), reference.data(), got.size() * sizeof(float)) == 0, cpu::isaName(isa));
        }
        if (levels == 0)
            QSKIP("this CPU has no SIMD level");
    }
};

QTEST_APPLESS_MAIN(TestSimdEngine)
#include "test_simd_engine.moc"

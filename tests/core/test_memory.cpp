// Memory accounting: the weights + KV + scratch a context reports agree with
// the growth of the process's resident memory (within 10%) once the model is
// fully read and a full batch has run, and the header-only estimate gives
// the same figures as the loaded context.

#include "test_support.h"

#include "cpu/cpu_backend.h"
#include "runtime/loaded_model.h"
#include "runtime/memory.h"
#include "util/system_memory.h"

#include <QTest>

#include <cmath>
#include <vector>

using namespace hearth;

class TestMemory : public QObject {
    Q_OBJECT

private slots:
    void reportedMatchesResident()
    {
        HEARTH_REQUIRE_MODEL(path, smolLm2Path);
        const uint64_t before = processResidentBytes();
        if (before == 0)
            QSKIP("this platform does not report resident memory");
        cpu::CpuBackend backend(2);
        const ContextParams params{2048, 64, GgmlType::F16};
        const MemoryEstimate estimate = estimateMemory(path, backend, params);

        std::shared_ptr<LoadedModel> model = LoadedModel::load(path, backend); // reads every weight page
        Context ctx(model->modelShared(), backend, params);
        std::vector<TokenId> batch(64);
        for (size_t i = 0; i < batch.size(); ++i)
            batch[i] = static_cast<TokenId>(100 + i);
        QVERIFY(ctx.decode(batch, 0, 0, false)); // a full batch touches the whole scratch area
        const MemoryUsage used = ctx.memory();
        const uint64_t after = processResidentBytes();

        const double reported = double(used.weightsResident + used.kv + used.scratch);
        const double measured = double(after - before);
        qInfo("weights %.1f MiB (mapped %.1f), kv %.1f MiB, scratch %.1f MiB: reported %.1f MiB, RSS grew %.1f MiB",
              used.weightsResident / 1048576.0, used.weightsMapped / 1048576.0, used.kv / 1048576.0,
              used.scratch / 1048576.0, reported / 1048576.0, measured / 1048576.0);
        QCOMPARE(used.weightsResident, used.weightsMapped);
        QVERIFY2(std::abs(reported - measured) <= 0.10 * measured, "reported memory is more than 10% off the RSS");

        // The header-only estimate names the same figures.
        QCOMPARE(estimate.cpu.weights, used.weightsMapped);
        QCOMPARE(estimate.cpu.kv, used.kv);
        QCOMPARE(estimate.cpu.scratch, used.scratch);
        QCOMPARE(estimate.gpu.total(), uint64_t(0));
    }

    void offloadSplitsByLayer()
    {
        HEARTH_REQUIRE_MODEL(path, smolLm2Path);
        cpu::CpuBackend backend(1);
        const ContextParams params{512, 64, GgmlType::F16};
        const MemoryEstimate none = estimateMemory(path, backend, params, 0);
        const MemoryEstimate some = estimateMemory(path, backend, params, 10);
        QVERIFY(some.gpu.weights > 0 && some.gpu.kv > 0);
        QCOMPARE(some.cpu.weights + some.gpu.weights, none.cpu.weights);
        QCOMPARE(some.cpu.kv + some.gpu.kv, none.cpu.kv);
    }
};

QTEST_GUILESS_MAIN(TestMemory)
#include "test_memory.moc"

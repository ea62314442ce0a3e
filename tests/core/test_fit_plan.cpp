// Where a model fits (runtime/fit_plan.h): the GPU / split / RAM / none
// verdict and its byte figures against synthetic device budgets (no GPU is
// needed), and, on SmolLM2's real header, the same figures as the
// per-backend memory estimate for the chosen layer count.

#include "test_support.h"

#include "cpu/cpu_backend.h"
#include "runtime/fit_plan.h"
#include "runtime/memory.h"

#include <QTest>

using namespace hearth;

namespace {

constexpr uint64_t MiB = uint64_t{1} << 20;
constexpr uint64_t GiB = uint64_t{1} << 30;

// Four layers of 100 MiB (weights + KV rows), an output layer of 50 MiB of
// which 40 MiB are a tied head's copy of the embeddings, 20 MiB of device
// scratch; 1000 MiB in RAM when nothing is offloaded.
DeviceNeeds fourLayers()
{
    DeviceNeeds d;
    d.layer.assign(4, 100 * MiB);
    d.output = 50 * MiB;
    d.outputShared = 40 * MiB;
    d.scratch = 20 * MiB;
    return d;
}

constexpr uint64_t kHostAll = 1000 * MiB;

DeviceBudget gpu(uint64_t free)
{
    return DeviceBudget{true, free};
}

} // namespace

class TestFitPlan : public QObject {
    Q_OBJECT

private slots:
    void noDeviceIsRam()
    {
        const FitPlan p = planFit(kHostAll, fourLayers(), kGpuLayersAuto, DeviceBudget{}, 2 * GiB);
        QCOMPARE(p.place, FitPlace::Ram);
        QCOMPARE(p.gpuLayers, int64_t(0));
        QCOMPARE(p.maxLayers, int64_t(5));
        QCOMPARE(p.hostBytes, kHostAll);
        QCOMPARE(p.deviceBytes, uint64_t(0));
        QCOMPARE(p.deviceFree, uint64_t(0));
        // One byte short of RAM: no fit.
        QCOMPARE(planFit(kHostAll, fourLayers(), 0, DeviceBudget{}, kHostAll - 1).place, FitPlace::None);
        QCOMPARE(planFit(kHostAll, fourLayers(), 0, DeviceBudget{}, kHostAll).place, FitPlace::Ram);
    }

    void zeroLayersWithADeviceIsRam()
    {
        const FitPlan p = planFit(kHostAll, fourLayers(), 0, gpu(8 * GiB), 2 * GiB);
        QCOMPARE(p.place, FitPlace::Ram);
        QCOMPARE(p.deviceBytes, uint64_t(0));
        QCOMPARE(p.deviceFree, 8 * GiB);
    }

    void autoOnALargeDeviceTakesEverything()
    {
        const FitPlan p = planFit(kHostAll, fourLayers(), kGpuLayersAuto, gpu(8 * GiB), 2 * GiB);
        QCOMPARE(p.place, FitPlace::Gpu);
        QCOMPARE(p.gpuLayers, int64_t(5));
        QCOMPARE(p.deviceBytes, (20 + 400 + 50) * MiB);
        // The layers and the output norm leave RAM; the tied head's
        // embeddings stay (the host still embeds tokens).
        QCOMPARE(p.hostBytes, kHostAll - (400 + 10) * MiB);
    }

    void autoSplitsWhereTheMarginStops()
    {
        // 400 MiB free, margin 64 MiB (a tenth is less, a quarter more):
        // 336 MiB for 20 of scratch and 100 per layer: three layers.
        QCOMPARE(autoMargin(400 * MiB), 64 * MiB);
        const FitPlan p = planFit(kHostAll, fourLayers(), kGpuLayersAuto, gpu(400 * MiB), 2 * GiB);
        QCOMPARE(p.place, FitPlace::Split);
        QCOMPARE(p.gpuLayers, int64_t(3));
        QCOMPARE(p.deviceBytes, 320 * MiB);
        QCOMPARE(p.hostBytes, kHostAll - 300 * MiB);
        QCOMPARE(p.deviceFree, 400 * MiB);
    }

    void autoOnATinyDeviceStaysInRam()
    {
        const FitPlan p = planFit(kHostAll, fourLayers(), kGpuLayersAuto, gpu(50 * MiB), 2 * GiB);
        QCOMPARE(p.place, FitPlace::Ram);
        QCOMPARE(p.gpuLayers, int64_t(0));
        QCOMPARE(p.hostBytes, kHostAll);
    }

    void explicitCountThatDoesNotFitIsRefused()
    {
        // All five need 470 MiB; 400 are free. A load would refuse it.
        const FitPlan p = planFit(kHostAll, fourLayers(), 5, gpu(400 * MiB), 2 * GiB);
        QCOMPARE(p.place, FitPlace::None);
        QCOMPARE(p.gpuLayers, int64_t(5));
        QCOMPARE(p.deviceBytes, 470 * MiB);
        // An explicit count has no margin: three layers (320 MiB) fit.
        QCOMPARE(planFit(kHostAll, fourLayers(), 3, gpu(320 * MiB), 2 * GiB).place, FitPlace::Split);
    }

    void explicitCountIsClampedAndTheOutputLayerCounts()
    {
        const FitPlan all = planFit(kHostAll, fourLayers(), 999, gpu(8 * GiB), 2 * GiB);
        QCOMPARE(all.gpuLayers, int64_t(5));
        QCOMPARE(all.place, FitPlace::Gpu);
        // n_layer offloads the repeating layers only: the output layer runs
        // on the CPU, so it is a split.
        const FitPlan layers = planFit(kHostAll, fourLayers(), 4, gpu(8 * GiB), 2 * GiB);
        QCOMPARE(layers.place, FitPlace::Split);
        QCOMPARE(layers.deviceBytes, 420 * MiB);
        QCOMPARE(layers.hostBytes, kHostAll - 400 * MiB);
    }

    void theGpuMakesATightMachineFit()
    {
        // 700 MiB of RAM: too little on the CPU alone, enough once the
        // layers are on the device.
        QCOMPARE(planFit(kHostAll, fourLayers(), kGpuLayersAuto, DeviceBudget{}, 700 * MiB).place, FitPlace::None);
        const FitPlan p = planFit(kHostAll, fourLayers(), kGpuLayersAuto, gpu(8 * GiB), 700 * MiB);
        QCOMPARE(p.place, FitPlace::Gpu);
        QVERIFY(p.hostBytes <= 700 * MiB);
        // RAM still short with only two layers on a small device.
        const FitPlan small = planFit(kHostAll, fourLayers(), kGpuLayersAuto, gpu(300 * MiB), 700 * MiB);
        QCOMPARE(small.gpuLayers, int64_t(2));
        QCOMPARE(small.hostBytes, 800 * MiB);
        QCOMPARE(small.place, FitPlace::None);
    }

    void names()
    {
        QCOMPARE(fitPlaceName(FitPlace::Gpu), "gpu");
        QCOMPARE(fitPlaceName(FitPlace::Split), "split");
        QCOMPARE(fitPlaceName(FitPlace::Ram), "ram");
        QCOMPARE(fitPlaceName(FitPlace::None), "none");
    }

    // On a real header the plan's figures are estimateMemory()'s for the
    // count it chose: one accounting, two views.
    void realHeaderAgreesWithTheMemoryEstimate()
    {
        HEARTH_REQUIRE_MODEL(path, smolLm2Path);
        cpu::CpuBackend backend(1);
        const gguf::File file(path);
        const ContextParams params{1024, 64, GgmlType::F16};
        const uint64_t ram = 64 * GiB;
        for (const int ngl : {1, 10, 30, 31, 999}) {
            const FitPlan p = planFit(file, backend, params, ngl, gpu(64 * GiB), ram);
            const MemoryEstimate e = estimateMemory(file, backend, params, int(p.gpuLayers));
            QCOMPARE(p.hostBytes, e.cpu.total());
            QCOMPARE(p.deviceBytes, e.gpu.total());
        }
        const FitPlan none = planFit(file, backend, params, kGpuLayersAuto, DeviceBudget{}, ram);
        QCOMPARE(none.place, FitPlace::Ram);
        QCOMPARE(none.hostBytes, estimateMemory(file, backend, params, 0).total());
        // A device whose free memory less the auto margin (a quarter, below
        // 256 MiB) is exactly what ten layers need: auto takes ten.
        const uint64_t ten = planFit(file, backend, params, 10, gpu(64 * GiB), ram).deviceBytes;
        const uint64_t free = (ten * 4 + 2) / 3;
        QVERIFY(free < 256 * MiB);
        const FitPlan split = planFit(file, backend, params, kGpuLayersAuto, gpu(free), ram);
        QCOMPARE(split.gpuLayers, int64_t(10));
        QCOMPARE(split.place, FitPlace::Split);
        QVERIFY(split.deviceBytes + autoMargin(free) <= free);
    }
};

QTEST_GUILESS_MAIN(TestFitPlan)
#include "test_fit_plan.moc"

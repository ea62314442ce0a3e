#include "cpu/cpu_features.h"

#include <QTest>

#include <cstdlib>

using namespace hearth::cpu;

class TestCpuFeatures : public QObject {
    Q_OBJECT

private slots:
    void scalarCanAlwaysBeForced()
    {
        qputenv("HEARTH_CPU_ISA", "scalar");
        refreshActiveIsa();
        QCOMPARE(activeIsa(), Isa::Scalar);
        qunsetenv("HEARTH_CPU_ISA");
        refreshActiveIsa();
    }

    void detectionIsConsistent()
    {
        const CpuFeatures& f = cpuFeatures();
        // AVX2 implies AVX; AVX-512 kernels need the 256-bit level too.
        if (f.avx2)
            QVERIFY(f.avx);
        if (activeIsa() == Isa::Avx512)
            QVERIFY(f.avx2 && f.avx512f && f.avx512bw);
        QVERIFY(!describeCpu().empty());
    }
};

QTEST_APPLESS_MAIN(TestCpuFeatures)
#include "test_cpu_features.moc"

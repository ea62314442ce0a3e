// Every SIMD kernel of every x86 level this CPU can run (AVX2, AVX-512
// without and with VNNI) against the scalar reference, each level's table
// built on its own so the paths are checked separately; and the
// HEARTH_CPU_ISA switch that selects the table the engine uses. The checks
// and their tolerances are in simd_check.h (NEON: simd_check_main under
// qemu-aarch64, tests/backends/neon).
#include "simd_check.h"

#include "cpu/cpu_features.h"
#include "cpu/kernels.h"

#include <QTest>

using namespace hearth;
using namespace hearth::cpu;

Q_DECLARE_METATYPE(hearth::GgmlType)

class TestSimdKernels : public QObject {
    Q_OBJECT

private slots:
    void kernelsMatchReference_data()
    {
        QTest::addColumn<int>("level");
        QTest::addColumn<GgmlType>("type");
        const auto levels = simdcheck::levels();
        for (size_t i = 0; i < levels.size(); ++i) {
            for (GgmlType type : simdcheck::kernelTypes()) {
                const QByteArray name = QByteArray::fromStdString(levels[i].name) + "/" + typeTraits(type).name.data();
                QTest::newRow(name.constData()) << static_cast<int>(i) << type;
            }
        }
    }

    void kernelsMatchReference()
    {
        QFETCH(int, level);
        QFETCH(GgmlType, type);
        const simdcheck::Level l = simdcheck::levels()[static_cast<size_t>(level)];
        if (!l.available)
            QSKIP("this CPU cannot run that level");
        const auto failures = simdcheck::checkType(l.build(), kernelTable(Isa::Scalar), type,
                                                   /*seed=*/1234u + static_cast<uint32_t>(type));
        for (const auto& f : failures)
            qWarning("%s", f.c_str());
        QVERIFY2(failures.empty(), failures.empty() ? "" : failures.front().c_str());
    }

    void attentionMatchesReference_data()
    {
        QTest::addColumn<int>("level");
        const auto levels = simdcheck::levels();
        for (size_t i = 0; i < levels.size(); ++i)
            QTest::newRow(levels[i].name.c_str()) << static_cast<int>(i);
    }

    void attentionMatchesReference()
    {
        QFETCH(int, level);
        const simdcheck::Level l = simdcheck::levels()[static_cast<size_t>(level)];
        if (!l.available)
            QSKIP("this CPU cannot run that level");
        const auto failures = simdcheck::checkAttention(l.build(), kernelTable(Isa::Scalar), /*seed=*/99u);
        for (const auto& f : failures)
            qWarning("%s", f.c_str());
        QVERIFY2(failures.empty(), failures.empty() ? "" : failures.front().c_str());
    }

    // The environment variable caps the level the engine's lookups use.
    void environmentSelectsTheTable()
    {
        for (Isa isa : {Isa::Scalar, Isa::Avx2, Isa::Avx512}) {
            if (!isaAvailable(isa))
                continue;
            qputenv("HEARTH_CPU_ISA", isaName(isa));
            refreshActiveIsa();
            QCOMPARE(activeIsa(), isa);
            QVERIFY(typeKernels(GgmlType::Q4_0).vecDot == kernelTable(isa).types[uint32_t(GgmlType::Q4_0)].vecDot);
        }
        qunsetenv("HEARTH_CPU_ISA");
        refreshActiveIsa();
    }

    // A level has its own dot product for every listed type in each of the
    // reference's summation orders, not the scalar fallback (so the
    // comparisons above really test SIMD code and prompts run on SIMD code).
    void levelsReplaceTheScalarKernels()
    {
        // The NEON levels are checked the same way by simd_check_main
        // (test_simd_neon_qemu).
        const KernelTable& scalar = kernelTable(Isa::Scalar);
        for (Isa isa : {Isa::Avx2, Isa::Avx512}) {
            if (!isaAvailable(isa))
                continue;
            QStringList missing;
            for (const std::string& entry : simdcheck::inheritedDots(kernelTable(isa), scalar))
                missing << QString::fromStdString(entry);
            QVERIFY2(missing.isEmpty(),
                     (QByteArray(isaName(isa)) + " lacks " + missing.join(", ").toUtf8()).constData());
        }
    }
};

QTEST_APPLESS_MAIN(TestSimdKernels)
#include "test_simd_kernels.moc"

// The kernel check without Qt, for cross builds run under an emulator
// (tests/backends/neon/run.sh): every level this CPU can run, every type,
// against the scalar reference. Exit status 0 when all pass.
#include "simd_check.h"

#include "cpu/cpu_features.h"

#include <cstdio>

int main()
{
    using namespace hearth;
    std::printf("cpu: %s\n", cpu::describeCpu().c_str());
    int failed = 0, run = 0;
    for (const simdcheck::Level& level : simdcheck::levels()) {
        if (!level.available) {
            std::printf("SKIP %s: not available on this CPU\n", level.name.c_str());
            continue;
        }
        const cpu::KernelTable table = level.build();
        for (GgmlType type : simdcheck::kernelTypes()) {
            const auto failures = simdcheck::checkType(table, cpu::kernelTable(cpu::Isa::Scalar), type,
                                                       /*seed=*/1234u + static_cast<uint32_t>(type));
            ++run;
            std::printf("%s %s/%s\n", failures.empty() ? "PASS" : "FAIL", level.name.c_str(),
                        typeTraits(type).name.data());
            for (const auto& f : failures)
                std::printf("    %s\n", f.c_str());
            failed += failures.empty() ? 0 : 1;
        }
        const auto failures = simdcheck::checkAttention(table, cpu::kernelTable(cpu::Isa::Scalar), /*seed=*/99u);
        ++run;
        std::printf("%s %s/attention\n", failures.empty() ? "PASS" : "FAIL", level.name.c_str());
        for (const auto& f : failures)
            std::printf("    %s\n", f.c_str());
        failed += failures.empty() ? 0 : 1;
    }
    std::printf("%d of %d passed\n", run - failed, run);
    return failed == 0 && run > 0 ? 0 : 1;
}

// The kernel check without Qt, for cross builds run under an emulator
// (tests/backends/neon/run.sh): every level this CPU can run, every type,
// against the scalar reference, and each level's own kernels: a dot
// product left to the scalar reference (or, in neon-dotprod, to the plain
// NEON copy) fails. Exit status 0 when all pass.
#include "simd_check.h"

#include "cpu/cpu_features.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace {

bool quantized(const std::string& entry)
{
    const auto type = hearth::parseTypeName(entry.substr(0, entry.find('.')));
    return type && hearth::typeTraits(*type).quantized;
}

// Fails for each entry of `table` inherited from `base`. `quantizedOnly`:
// only the integer kernels must differ (a dotprod variant has no reason to
// recompile the float ones).
int checkOwnKernels(const std::string& level, const hearth::cpu::KernelTable& table,
                    const hearth::cpu::KernelTable& base, const char* baseName, bool quantizedOnly)
{
    const auto inherited = simdcheck::inheritedDots(table, base);
    int failed = 0;
    for (const auto& entry : inherited) {
        if (!quantizedOnly || quantized(entry)) {
            std::printf("FAIL %s: %s is %s's kernel\n", level.c_str(), entry.c_str(), baseName);
            ++failed;
        }
    }
    std::printf("%s %s/own kernels (vs %s)\n", failed == 0 ? "PASS" : "FAIL", level.c_str(), baseName);
    return failed == 0 ? 0 : 1;
}

} // namespace

int main()
{
    using namespace hearth;
    std::printf("cpu: %s\n", cpu::describeCpu().c_str());
    int failed = 0, run = 0;
    std::map<std::string, cpu::KernelTable> built;
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
        ++run;
        failed += checkOwnKernels(level.name, table, cpu::kernelTable(cpu::Isa::Scalar), "the scalar reference", false);
        if (level.name == "neon-dotprod" && built.count("neon") != 0) {
            ++run;
            failed += checkOwnKernels(level.name, table, built.at("neon"), "neon", true);
        }
        built.emplace(level.name, table);
    }
    std::printf("%d of %d passed\n", run - failed, run);
    return failed == 0 && run > 0 ? 0 : 1;
}

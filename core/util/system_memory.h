// Physical memory of the machine and of this process, for the device
// description of the CPU backend, "will it fit" estimates and memory gauges.
// Best effort: 0 where the platform cannot tell.
#pragma once

#include <cstdint>

namespace hearth {

uint64_t systemMemoryTotal();
uint64_t systemMemoryAvailable();
// Resident set size of this process now (Linux: /proc/self/statm; macOS:
// task_info; Windows: working set).
uint64_t processResidentBytes();

} // namespace hearth

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
// Highest resident set size of this process so far, or since the last
// resetProcessPeakResident() where that worked (Linux: VmHWM; macOS and the
// BSDs: getrusage's ru_maxrss; Windows: peak working set).
uint64_t processPeakResidentBytes();
// Restarts the peak from the current RSS. Only Linux can (writing 5 to
// /proc/self/clear_refs); elsewhere returns false and the peak stays the
// process's lifetime peak.
bool resetProcessPeakResident();

} // namespace hearth

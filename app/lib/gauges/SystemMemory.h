// Process and system memory figures for the gauges and the fit estimate.
// Portable: Linux (/proc), macOS (Mach), Windows (psapi); 0 where unknown.
// Each call costs a small read (microseconds); call from any thread.
#pragma once

#include <QtGlobal>

namespace SystemMemory {

// Resident set size of this process, in bytes.
qint64 processResidentBytes();
// Physical memory the system could give us now without swapping, in bytes.
qint64 availableBytes();
// Installed physical memory, in bytes.
qint64 totalBytes();

} // namespace SystemMemory

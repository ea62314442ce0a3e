// Which logical processors this process may run on, and pinning a thread to
// one of them. The thread count defaults to the processors the process is
// allowed (taskset, cgroup cpusets, Windows job objects and affinity masks),
// not to every processor of the machine, so a restricted process does not
// oversubscribe the cores it has.
//
// Processor numbers are the OS's: Linux CPU ids; on Windows group * 64 +
// the processor's number in its group (machines with more than 64 logical
// processors have several groups). macOS has no hard affinity: every
// processor is allowed and pinning reports false.
//
// Thread-safety: all functions may be called from any thread.
#pragma once

#include <vector>

namespace hearth::cpu {

// The processors this process may run on, ascending; never empty.
std::vector<int> allowedCpus();

// Pins the calling thread to processor `cpu` (one of allowedCpus()).
// Returns false where the OS refuses or has no such call.
bool pinCurrentThread(int cpu);

// The processor the calling thread runs on at this instant, or -1 where the
// platform cannot tell.
int currentCpu();

} // namespace hearth::cpu

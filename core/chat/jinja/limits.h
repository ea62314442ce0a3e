// The sandbox limits of one render (see interpreter.h). The defaults stop a
// hostile template within about a second and a few hundred MiB at worst,
// while real chat templates use a tiny fraction of each.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hearth::chat::jinja {

struct Limits {
    int64_t maxSteps = 10'000'000;     // evaluation steps (bulk work counts in proportion)
    int maxCallDepth = 64;             // nested macro calls
    size_t maxOutputBytes = 16u << 20; // the rendered text, and any one string
    size_t maxItems = 1'000'000;       // elements of one list
    // Bytes of strings and list storage built over the whole render: bounds
    // memory even when garbage is made faster than it is freed.
    size_t maxAllocBytes = 256u << 20;
};

} // namespace hearth::chat::jinja

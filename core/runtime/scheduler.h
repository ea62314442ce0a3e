// Runs a recorded forward pass on the backends of a placement: each op goes
// to the backend of its layer (Op::layer, backend/placement.h), and where a
// tensor crosses between host and device memory an explicit Copy op moves
// it, in the device backend's run (uploads just before the op that needs
// them, downloads at the end of the device run that produced them).
// Activations get an arena per side (0: host scratch, 1: device scratch);
// one activation used on both sides has a twin in each.
//
// Host memory that device ops write or read besides activations (the
// caller's logits) gets a device shadow with the same copies. Host ops
// never see device memory: that would be a placement bug, reported as an
// error naming the op.
//
// Host-only placements change nothing: no copies, one arena, one run.
// Cost: O(ops) per pass. Thread-safety: one scheduler per context.
#pragma once

#include "backend/placement.h"
#include "model/graph.h"

#include <cstdint>
#include <vector>

namespace hearth {

class Scheduler {
public:
    explicit Scheduler(const Placement& placement) : m_placement(placement) {}

    const Placement& placement() const { return m_placement; }
    static constexpr int kHost = 0, kDevice = 1;
    // The side an op runs on (kHost or kDevice).
    int sideOf(const Op& op) const;

    // Between recording and g.finish(): rewrites g's op list with the copies
    // and assigns each activation its arena.
    void split(Graph& g);
    // Work bytes the ops of one side need from its backend.
    size_t workBytes(const OpList& ops, int side) const;
    // Runs the (finished) op list, one backend call per run of consecutive
    // ops of one side. Returns false when stopped through options.abort.
    bool execute(const OpList& ops, const ExecuteOptions& options = {});

private:
    Placement m_placement;
    OpList m_run; // reused between calls
};

} // namespace hearth

#include "runtime/scheduler.h"

#include "util/error.h"

#include <array>
#include <map>
#include <string>

namespace hearth {

namespace {

// A Copy of `bytes` bytes from `src` to `dst` (I8 tensors over whole slots
// or host regions).
Op copyOp(const Tensor& src, const Tensor& dst)
{
    Op op;
    op.kind = OpKind::Copy;
    op.src[0] = src;
    op.dst = dst;
    return op;
}

Tensor bytesOfSlot(int32_t slot, size_t bytes)
{
    Tensor t = Tensor::dense(GgmlType::I8, static_cast<int64_t>(bytes));
    t.slot = slot;
    return t;
}

Tensor bytesAt(uint8_t* data, size_t bytes)
{
    Tensor t = Tensor::dense(GgmlType::I8, static_cast<int64_t>(bytes));
    t.data = data;
    return t;
}

// Bytes from a tensor's first byte to one past its last.
size_t extentOf(const Tensor& t)
{
    size_t end = rowBytes(t.type, t.ne[0]);
    for (size_t d = 1; d < 4; ++d)
        end += static_cast<size_t>(t.ne[d] - 1) * t.nb[d];
    return end;
}

// Where each activation of the recording is, and which copies are current.
struct SlotState {
    std::array<int32_t, 2> phys{-1, -1}; // the slot on each side
    uint8_t valid = 0;                   // bit per side holding the current bytes
};

// A device shadow of host memory (the caller's logits).
struct Shadow {
    int32_t slot = -1;
    size_t bytes = 0;
    bool onDevice = false; // the device copy is current
    bool dirty = false;    // written on the device since the last download
};

class Splitter {
public:
    Splitter(const Scheduler& s, Graph& g) : m_s(s), m_g(g), m_state(g.slotCount()) {}

    void run()
    {
        const std::vector<Op> in = m_g.mutableOps().ops;
        for (const Op& op : in) {
            const int side = m_s.sideOf(op);
            if (side == Scheduler::kHost)
                downloadShadows();
            Op o = op;
            for (int i = 0; i < 3; ++i)
                rewrite(o, o.src[i], side, /*write=*/false);
            rewrite(o, o.dst, side, /*write=*/true);
            m_out.push_back(o);
            if (side == Scheduler::kDevice)
                m_deviceEnd = m_out.size();
        }
        downloadShadows();
        m_g.mutableOps().ops = std::move(m_out);
    }

private:
    void rewrite(const Op& op, Tensor& t, int side, bool write)
    {
        if (t.slot >= 0)
            rewriteSlot(t, side, write);
        else if (t.data)
            rewriteMemory(op, t, side, write);
    }

    void rewriteSlot(Tensor& t, int side, bool write)
    {
        SlotState& st = m_state[static_cast<size_t>(t.slot)];
        if (st.phys[0] < 0 && st.phys[1] < 0) {
            st.phys[static_cast<size_t>(side)] = t.slot; // its first use decides its home
            m_g.setArena(t.slot, side);
        }
        int32_t& mine = st.phys[static_cast<size_t>(side)];
        if (mine < 0)
            mine = m_g.addSlot(m_g.slotBytes(t.slot), side);
        const uint8_t bit = static_cast<uint8_t>(1u << side);
        if (st.valid != 0 && (st.valid & bit) == 0) {
            const int other = 1 - side;
            const size_t bytes = m_g.slotBytes(t.slot);
            const Op c = copyOp(bytesOfSlot(st.phys[static_cast<size_t>(other)], bytes), bytesOfSlot(mine, bytes));
            if (side == Scheduler::kHost) // download at the end of the device run that wrote it
                m_out.insert(m_out.begin() + static_cast<std::ptrdiff_t>(m_deviceEnd++), c);
            else
                m_out.push_back(c);
            st.valid |= bit;
        }
        if (write)
            st.valid = bit;
        t.slot = mine;
    }

    void rewriteMemory(const Op& op, Tensor& t, int side, bool write)
    {
        Backend* device = m_s.placement().device;
        const bool deviceMemory = device && device->owns(t.data);
        if (side == Scheduler::kHost) {
            if (deviceMemory)
                throw Error(std::string("placement error: the host runs ") + opName(op.kind) + " of layer " +
                            std::to_string(op.layer) + " on device memory");
            for (auto& [start, sh] : m_shadows) // the host changed it: the device copy is stale
                if (write && t.data >= start && t.data < start + sh.bytes)
                    sh.onDevice = false;
            return;
        }
        if (deviceMemory)
            return;
        auto it = m_shadows.find(t.data);
        const size_t extent = extentOf(t);
        if (it == m_shadows.end() || it->second.bytes < extent) {
            Shadow sh;
            sh.bytes = extent;
            sh.slot = m_g.addSlot(extent, Scheduler::kDevice);
            it = m_shadows.insert_or_assign(t.data, sh).first;
        }
        Shadow& sh = it->second;
        if (!sh.onDevice && !write) // a destination is written whole: nothing to bring up
            m_out.push_back(copyOp(bytesAt(t.data, sh.bytes), bytesOfSlot(sh.slot, sh.bytes)));
        sh.onDevice = true;
        sh.dirty = sh.dirty || write;
        t.offset = 0;
        t.data = nullptr;
        t.slot = sh.slot;
    }

    // Host memory the device wrote goes back before the host runs again.
    void downloadShadows()
    {
        for (auto& [start, sh] : m_shadows) {
            if (!sh.dirty)
                continue;
            m_out.push_back(copyOp(bytesOfSlot(sh.slot, sh.bytes), bytesAt(start, sh.bytes)));
            m_deviceEnd = m_out.size();
            sh.dirty = false;
        }
    }

    const Scheduler& m_s;
    Graph& m_g;
    std::vector<SlotState> m_state;
    std::map<uint8_t*, Shadow> m_shadows;
    std::vector<Op> m_out;
    size_t m_deviceEnd = 0; // where a download for the next host op goes
};

} // namespace

int Scheduler::sideOf(const Op& op) const
{
    if (op.kind == OpKind::Copy)
        return kDevice;
    return m_placement.onDevice(op.layer) ? kDevice : kHost;
}

void Scheduler::split(Graph& g)
{
    if (!m_placement.usesDevice())
        return;
    Splitter(*this, g).run();
}

size_t Scheduler::workBytes(const OpList& ops, int side) const
{
    OpList mine;
    for (const Op& op : ops.ops)
        if (sideOf(op) == side)
            mine.ops.push_back(op);
    Backend* b = side == kHost ? m_placement.host : m_placement.device;
    return b && !mine.ops.empty() ? b->workBytes(mine) : 0;
}

bool Scheduler::execute(const OpList& ops, const ExecuteOptions& options)
{
    if (!m_placement.usesDevice())
        return m_placement.host->execute(ops, options);
    size_t i = 0;
    while (i < ops.ops.size()) {
        const int side = sideOf(ops.ops[i]);
        m_run.ops.clear();
        while (i < ops.ops.size() && sideOf(ops.ops[i]) == side)
            m_run.ops.push_back(ops.ops[i++]);
        Backend& b = side == kHost ? *m_placement.host : *m_placement.device;
        if (!b.execute(m_run, options))
            return false;
    }
    return true;
}

} // namespace hearth

// Runs one op on the CPU backend and on the Vulkan backend from the same
// inputs and measures how far apart the results are. Inputs live in host
// buffers (random values, quantized with core's reference quantizers for
// weights); the Vulkan run gets device copies of every buffer an op
// touches, made before either run so in-place ops start alike.
#pragma once

#include "vulkan_test_support.h"

#include "cpu/cpu_backend.h"
#include "quant/types.h"

#include <list>
#include <map>
#include <random>
#include <stdexcept>

namespace vktest {

class OpHarness {
public:
    explicit OpHarness(hearth::Backend& gpu, uint32_t seed = 7) : m_gpu(gpu), m_cpu(2), m_rng(seed) {}

    // A host tensor of `type` [ne0, ne1, ne2], random N(0, 1) values scaled
    // by `scale` (quantized for block types), or zeros.
    hearth::Tensor tensor(hearth::GgmlType type, int64_t ne0, int64_t ne1 = 1, int64_t ne2 = 1, float scale = 1.0f,
                          bool zeros = false)
    {
        hearth::Tensor t = hearth::Tensor::dense(type, ne0, ne1, ne2);
        m_buffers.emplace_back(t.denseBytes() + 64, 0);
        t.data = m_buffers.back().data();
        if (zeros)
            return t;
        std::normal_distribution<float> n(0.0f, scale);
        std::vector<float> v(static_cast<size_t>(t.elements()));
        for (float& x : v)
            x = n(m_rng);
        const hearth::TypeTraits& tr = hearth::typeTraits(type);
        if (type == hearth::GgmlType::F32)
            std::memcpy(t.data, v.data(), v.size() * 4);
        else
            for (int64_t r = 0; r < t.rows(); ++r)
                tr.quantize(v.data() + r * ne0, t.data + static_cast<size_t>(r) * t.nb[1], ne0);
        return t;
    }

    std::mt19937& rng() { return m_rng; }

    // Runs `op` on both backends; returns the NMSE of the Vulkan dst against
    // the CPU's (dst dequantized to f32 first when it is a KV type).
    double run(const hearth::Op& op)
    {
        hearth::Op dev = op;
        for (hearth::Tensor* t : {&dev.dst, &dev.src[0], &dev.src[1], &dev.src[2]})
            if (t->data)
                t->data = deviceAddress(t->data);
        hearth::OpList cpuList, gpuList;
        cpuList.ops.push_back(op);
        gpuList.ops.push_back(dev);
        m_cpu.reserveWork(m_cpu.workBytes(cpuList));
        if (!m_cpu.execute(cpuList, {}))
            QTest::qFail("CPU run stopped", __FILE__, __LINE__);
        m_gpu.reserveWork(m_gpu.workBytes(gpuList));
        if (!m_gpu.execute(gpuList, {}))
            QTest::qFail("Vulkan run stopped", __FILE__, __LINE__);
        const Entry& e = entryOf(op.dst.data);
        std::vector<uint8_t> back(e.host->size());
        m_gpu.read(*e.device, 0, back.data(), back.size());
        const size_t off = static_cast<size_t>(op.dst.data - e.host->data());
        return compare(op.dst, back.data() + off, op.dst.data);
    }

private:
    struct Entry {
        std::vector<uint8_t>* host;
        std::unique_ptr<hearth::Buffer> device;
    };

    Entry& entryOf(const uint8_t* p)
    {
        for (auto& b : m_buffers) {
            if (p >= b.data() && p < b.data() + b.size()) {
                auto it = m_device.find(b.data());
                if (it == m_device.end()) {
                    Entry e{&b, m_gpu.allocate(b.size(), hearth::BufferUsage::Scratch)};
                    m_gpu.write(*e.device, 0, b.data(), b.size());
                    it = m_device.emplace(b.data(), std::move(e)).first;
                }
                return it->second;
            }
        }
        throw std::runtime_error("tensor outside the harness's buffers");
    }

    uint8_t* deviceAddress(uint8_t* p)
    {
        Entry& e = entryOf(p);
        return e.device->data() + (p - e.host->data());
    }

    static double compare(const hearth::Tensor& t, const uint8_t* got, const uint8_t* want)
    {
        const hearth::TypeTraits& tr = hearth::typeTraits(t.type);
        std::vector<float> a(static_cast<size_t>(t.ne[0])), b(a.size());
        double num = 0, den = 0;
        for (int64_t r = 0; r < t.rows(); ++r) {
            const size_t off = static_cast<size_t>(r) * t.nb[1];
            if (t.type == hearth::GgmlType::F32) {
                std::memcpy(a.data(), got + off, a.size() * 4);
                std::memcpy(b.data(), want + off, b.size() * 4);
            } else {
                tr.dequantize(got + off, a.data(), t.ne[0]);
                tr.dequantize(want + off, b.data(), t.ne[0]);
            }
            for (size_t i = 0; i < a.size(); ++i) {
                const double d = static_cast<double>(a[i]) - b[i];
                num += d * d;
                den += static_cast<double>(b[i]) * b[i];
            }
        }
        return den > 0 ? num / den : num;
    }

    hearth::Backend& m_gpu;
    hearth::cpu::CpuBackend m_cpu;
    std::mt19937 m_rng;
    std::list<std::vector<uint8_t>> m_buffers;
    std::map<const uint8_t*, Entry> m_device;
};

} // namespace vktest

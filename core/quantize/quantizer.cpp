#include "quantize/quantizer.h"

#include "gguf/gguf.h"
#include "gguf/gguf_writer.h"
#include "quantize/row_check.h"
#include "util/error.h"
#include "util/utf8_path.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

namespace hearth::quantize {

namespace {

constexpr uint32_t kQuantizationVersion = 2;    // GGML_QNT_VERSION
constexpr uint64_t kBatchBytes = 64ull << 20;   // output (and f32) bytes per batch, at most
constexpr int64_t kMinChunkElements = 32 * 512; // a worker's unit, as llama.cpp's chunks

int layerValue(const gguf::File& f, const std::string& key)
{
    const gguf::Value* v = f.find(key);
    if (!v)
        return 0;
    if (v->type() == gguf::ValueType::Array) // per-layer values: layer 0's, as hparams.n_head()
        return v->size() > 0 && gguf::isIntegerType(v->elementType()) ? static_cast<int>(v->intAt(0)) : 0;
    return static_cast<int>(v->toInt().value_or(0));
}

ModelShape modelShapeOf(const gguf::File& f)
{
    ModelShape m;
    m.architecture = std::string(f.architecture());
    const std::string& a = m.architecture;
    m.nLayer = layerValue(f, a + ".block_count");
    m.nHead = layerValue(f, a + ".attention.head_count");
    m.nHeadKv = f.find(a + ".attention.head_count_kv") ? layerValue(f, a + ".attention.head_count_kv") : m.nHead;
    m.nExpert = layerValue(f, a + ".expert_count");
    return m;
}

struct Job {
    const gguf::TensorInfo* src;
    TensorReport report;
};

struct Plan {
    std::unique_ptr<gguf::File> file;
    std::vector<Job> jobs;
    QuantizeResult result;
};

Plan makePlan(const QuantizeOptions& o)
{
    Plan p;
    p.file = std::make_unique<gguf::File>(pathToUtf8(o.input));
    const gguf::File& f = *p.file;
    std::vector<const gguf::TensorInfo*> order;
    for (const gguf::TensorInfo& t : f.tensors())
        order.push_back(&t);
    std::stable_sort(order.begin(), order.end(), [](const gguf::TensorInfo* a, const gguf::TensorInfo* b) {
        return tensorOrderLess(a->name, b->name);
    });
    std::vector<TensorShape> shapes;
    for (const gguf::TensorInfo* t : order)
        shapes.push_back({std::string(t->name), t->type, t->ne});
    const std::vector<TensorPlan> types = planTypes(modelShapeOf(f), shapes, {o.mix, o.leaveOutputTensor, o.pure});
    for (size_t i = 0; i < order.size(); ++i) {
        const gguf::TensorInfo& t = *order[i];
        Job j{&t, {shapes[i].name, t.ne, t.type, types[i].type, types[i].fallback, t.bytes, 0}};
        const TypeTraits& from = typeTraits(t.type);
        const TypeTraits& to = typeTraits(j.report.to);
        if (t.type != j.report.to) {
            if (from.quantized && !o.allowRequantize)
                throw Error(pathToUtf8(o.input) + ": tensor '" + j.report.name + "' is already " +
                            std::string(from.name) + "; requantizing it to " + std::string(to.name) +
                            " loses quality twice (pass --allow-requantize to do it anyway)");
            if (t.type != GgmlType::F32 && !from.dequantize)
                throw Error(pathToUtf8(o.input) + ": tensor '" + j.report.name + "' is " + std::string(from.name) +
                            ", which Hearth cannot convert to " + std::string(to.name));
            if (!to.quantizeChunk)
                throw Error("quantize: Hearth has no quantizer for " + std::string(to.name) + " (tensor '" +
                            j.report.name + "')");
        }
        j.report.bytesOut = rowBytes(j.report.to, t.ne[0]) * static_cast<uint64_t>(t.rows());
        p.result.bytesIn += j.report.bytesIn;
        p.result.bytesOut += j.report.bytesOut;
        p.result.elements += t.elements();
        p.result.fallbacks += j.report.fallback ? 1 : 0;
        p.jobs.push_back(std::move(j));
    }
    for (const Job& j : p.jobs)
        p.result.tensors.push_back(j.report);
    return p;
}

gguf::Writer makeWriter(const gguf::File& f, const std::vector<Job>& jobs, Mix mix)
{
    gguf::Writer w(3);
    for (const gguf::KeyValue& kv : f.metadata()) {
        if (kv.key.starts_with("split.") || kv.key == "general.quantization_version" || kv.key == "general.file_type")
            continue;
        w.addValue(kv.key, kv.value);
    }
    w.addUInt32("general.quantization_version", kQuantizationVersion);
    w.addUInt32("general.file_type", static_cast<uint32_t>(mix));
    for (const Job& j : jobs) {
        const int dims = countDims(j.report.ne);
        w.addTensorInfo(j.report.name, j.report.to,
                        std::span<const int64_t>(j.report.ne.data(), static_cast<size_t>(dims)));
    }
    return w;
}

// Converts rows [row0, row0 + rows) of `src` into `dst` (that range's
// output bytes) with `threads` workers; returns false if cancelled.
bool convertRows(const Job& j, int64_t row0, int64_t rows, uint8_t* dst, int threads, const std::atomic<bool>* cancel)
{
    const TypeTraits& from = typeTraits(j.report.from);
    const TypeTraits& to = typeTraits(j.report.to);
    const int64_t cols = j.report.ne[0];
    const size_t inRow = rowBytes(j.report.from, cols), outRow = rowBytes(j.report.to, cols);
    const int64_t chunkRows = std::max<int64_t>(1, kMinChunkElements / cols);
    const int64_t chunks = (rows + chunkRows - 1) / chunkRows;
    std::atomic<int64_t> next{0};
    std::atomic<bool> stopped{false};
    const auto work = [&] {
        std::vector<float> f32(j.report.from == GgmlType::F32 ? 0 : static_cast<size_t>(chunkRows * cols));
        for (int64_t c; (c = next.fetch_add(1)) < chunks;) {
            if (cancel && cancel->load(std::memory_order_relaxed)) {
                stopped = true;
                return;
            }
            const int64_t r0 = c * chunkRows, n = std::min(chunkRows, rows - r0);
            const uint8_t* in = j.src->data + static_cast<size_t>(row0 + r0) * inRow;
            const float* x = reinterpret_cast<const float*>(in); // F32 rows are 4-aligned in a GGUF
            if (j.report.from != GgmlType::F32) {
                from.dequantize(in, f32.data(), n * cols);
                x = f32.data();
            }
            to.quantizeChunk(x, dst + static_cast<size_t>(r0) * outRow, n * cols);
        }
    };
    const int nThreads = static_cast<int>(std::clamp<int64_t>(chunks, 1, threads));
    std::vector<std::thread> pool;
    for (int t = 1; t < nThreads; ++t)
        pool.emplace_back(work);
    work();
    for (std::thread& t : pool)
        t.join();
    return !stopped;
}

void writeTensor(const Job& j, gguf::Writer::TensorSink& sink, int threads, const std::atomic<bool>* cancel,
                 const std::function<void(uint64_t)>& advanced)
{
    if (j.report.from == j.report.to) {
        sink.write(j.src->data, j.src->bytes);
        advanced(j.src->bytes);
        return;
    }
    const int64_t cols = j.report.ne[0], rows = j.src->rows();
    const uint64_t outRow = rowBytes(j.report.to, cols);
    const uint64_t perRow = std::max<uint64_t>(outRow, static_cast<uint64_t>(cols) * 4);
    const int64_t batchRows = std::clamp<int64_t>(static_cast<int64_t>(kBatchBytes / perRow), 1, rows);
    std::vector<uint8_t> out(static_cast<size_t>(batchRows) * outRow);
    for (int64_t r = 0; r < rows; r += batchRows) {
        const int64_t n = std::min(batchRows, rows - r);
        if (!convertRows(j, r, n, out.data(), threads, cancel))
            throw Cancelled();
        const size_t bytes = static_cast<size_t>(n) * outRow;
        if (const std::string bad = checkRows(j.report.to, out.data(), bytes); !bad.empty())
            throw Error("quantize: tensor '" + j.report.name + "' rows " + std::to_string(r) + ".." +
                        std::to_string(r + n - 1) + " give invalid " + std::string(typeTraits(j.report.to).name) +
                        " data: " + bad + " (the input holds values that do not fit)");
        sink.write(out.data(), bytes);
        advanced(bytes);
    }
}

bool sameFile(const std::filesystem::path& a, const std::filesystem::path& b)
{
    std::error_code ec;
    return std::filesystem::exists(b, ec) && std::filesystem::equivalent(a, b, ec);
}

} // namespace

QuantizeResult planQuantize(const QuantizeOptions& options)
{
    return makePlan(options).result;
}

QuantizeResult quantizeModel(const QuantizeOptions& options)
{
    if (sameFile(options.input, options.output))
        throw Error(pathToUtf8(options.output) + ": the output would overwrite the input");
    Plan p = makePlan(options);
    const gguf::Writer w = makeWriter(*p.file, p.jobs, options.mix);
    const int threads =
        options.threads > 0 ? options.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    QuantizeProgress progress;
    progress.tensors = p.jobs.size();
    progress.bytesTotal = p.result.bytesOut;
    const auto report = [&] {
        if (options.progress)
            options.progress(progress);
    };
    w.write(pathToUtf8(options.output), [&](size_t index, gguf::Writer::TensorSink& sink) {
        if (options.cancel && options.cancel->load())
            throw Cancelled();
        progress.tensor = index;
        progress.current = &p.jobs[index].report;
        report();
        writeTensor(p.jobs[index], sink, threads, options.cancel, [&](uint64_t bytes) {
            progress.bytesDone += bytes;
            report();
        });
    });
    progress.tensor = p.jobs.size();
    progress.current = nullptr;
    report();
    p.result.fileBytes = std::filesystem::file_size(options.output);
    return p.result;
}

} // namespace hearth::quantize

// Output of `hearth bench`: a Markdown table like llama-bench's (model,
// size, params, backend, threads, test, t/s ± sd [, peak RSS]), or one JSON
// object per test with llama-bench's field names (`-o json`: an array, as
// llama-bench prints it; `-o jsonl`: one object per line). Rows are printed
// as tests finish, so a long run shows progress.
#pragma once

#include "BenchRunner.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <string>

namespace cli {

// What the table says about a model file.
struct BenchModel {
    std::string filename; // as given on the command line
    std::string type;     // "llama 135M Q4_1": architecture, parameters, file type
    uint64_t size = 0;    // bytes of tensor data (llama-bench's model_size)
    int64_t params = 0;   // elements of all tensors (model_n_params)
};

// Context shared by every row: what ran and how.
struct BenchRun {
    QString version;       // Hearth's
    QString cpuInfo;       // the CPU's features
    QString isa;           // the ISA level kernels are chosen for ("avx512", "scalar", ...)
    uint64_t startRss = 0; // RSS before any model was loaded (0: not measured)
    bool rss = false;
    QString backends = QStringLiteral("CPU");        // llama-bench's backend column: "CPU" or "Vulkan"
    QString gpuInfo;                                 // the GPU's name
    int gpuLayers = 0;                               // -ngl as asked (-1: auto)
    hearth::GgmlType kvType = hearth::GgmlType::F16; // -ctk / -ctv
};

class BenchPrinter {
public:
    virtual ~BenchPrinter() = default;
    virtual void header(const BenchRun&) {}
    virtual void row(const BenchRun& run, const BenchModel& model, const BenchResult& r, const QString& testTime) = 0;
    virtual void footer(const BenchRun&) {}
};

// "md", "json" or "jsonl"; nullptr for anything else.
std::unique_ptr<BenchPrinter> makeBenchPrinter(const QString& format);

// "pp512", "tg128", "pp512+tg128"; " @ d4096" added after a depth.
QString testName(const BenchTest& t);
// "135M", "1.2B" from a parameter count.
std::string sizeLabel(int64_t params);

} // namespace cli

#include "convert/converter.h"

#include "convert/arch.h"
#include "convert/tensor_data.h"

#include "gguf/gguf_writer.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace hearth::convert {

namespace {

// llama.cpp's LlamaFileType of each --outtype.
uint32_t fileTypeOf(OutType t)
{
    switch (t) {
    case OutType::F32: return 0;
    case OutType::F16: return 1;
    case OutType::Q8_0: return 7;
    case OutType::BF16: return 32;
    }
    return 1;
}

GgmlType weightTypeOf(OutType t)
{
    switch (t) {
    case OutType::F32: return GgmlType::F32;
    case OutType::F16: return GgmlType::F16;
    case OutType::BF16: return GgmlType::BF16;
    case OutType::Q8_0: return GgmlType::Q8_0;
    }
    return GgmlType::F16;
}

// prepare_tensors(): 1-D tensors, norms, biases and the few tensors ggml
// wants in F32 stay F32; the rest take the output type, and Q8_0 falls back
// to F16 for rows that are not a multiple of 32.
GgmlType tensorTypeOf(const std::string& name, const std::vector<int64_t>& shape, OutType out)
{
    if (shape.size() <= 1 || name.ends_with("_norm.weight"))
        return GgmlType::F32;
    if (name == "position_embd.weight" || name == "token_types.weight" || !name.ends_with(".weight"))
        return GgmlType::F32;
    const GgmlType t = weightTypeOf(out);
    if (t == GgmlType::Q8_0 && shape.back() % 32 != 0)
        return GgmlType::F16;
    return t;
}

// gguf.size_label(): "135M", "1.2B", ... (Python's round and %f rules).
std::string sizeLabel(int64_t params)
{
    double scaled;
    char suffix;
    if (params > 1e12) {
        scaled = static_cast<double>(params) * 1e-12, suffix = 'T';
    } else if (params > 1e9) {
        scaled = static_cast<double>(params) * 1e-9, suffix = 'B';
    } else if (params > 1e6) {
        scaled = static_cast<double>(params) * 1e-6, suffix = 'M';
    } else {
        scaled = static_cast<double>(params) * 1e-3, suffix = 'K';
    }
    const double rounded = std::nearbyint(scaled); // round half to even, as Python's round()
    std::string digits = std::to_string(static_cast<long long>(rounded));
    digits.erase(0, digits.find_first_not_of('0'));
    const int fix = std::max(2 - static_cast<int>(digits.size()), 0);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f%c", fix, scaled, suffix);
    return buf;
}

// generation_config.json's sampling settings, as the gguf package's Metadata
// writes them (general.sampling.*).
void writeSampling(const HfFolder& folder, gguf::Writer& w)
{
    if (!folder.hasFile("generation_config.json"))
        return;
    Json gen;
    try {
        gen = readJsonFile(folder.path("generation_config.json"));
    } catch (const Error&) {
        return; // the converter ignores an unreadable generation_config.json too
    }
    if (!gen.is_object())
        return;
    const auto str = [&](const char* key, const char* gguf) {
        if (const auto it = gen.find(key); it != gen.end() && it->is_string() && !it->get<std::string>().empty())
            w.addString(std::string("general.sampling.") + gguf, it->get<std::string>());
    };
    const auto i32 = [&](const char* key, const char* gguf) {
        if (const auto it = gen.find(key); it != gen.end() && it->is_number_integer())
            w.addInt32(std::string("general.sampling.") + gguf, it->get<int32_t>());
    };
    const auto f32 = [&](const char* key, const char* gguf) {
        if (const auto it = gen.find(key); it != gen.end() && it->is_number())
            w.addFloat32(std::string("general.sampling.") + gguf, it->get<float>());
    };
    str("sequence", "sequence");
    i32("top_k", "top_k");
    f32("top_p", "top_p");
    f32("min_p", "min_p");
    f32("xtc_probability", "xtc_probability");
    f32("xtc_threshold", "xtc_threshold");
    f32("temperature", "temp");
    i32("penalty_last_n", "penalty_last_n");
    f32("penalty_repeat", "penalty_repeat");
    i32("mirostat", "mirostat");
    f32("mirostat_tau", "mirostat_tau");
    f32("mirostat_eta", "mirostat_eta");
}

// The tensors to write, in the converter's order: generated ones first, then
// the sources (files by name, each file's tensors by name).
std::vector<TensorJob> planTensors(const HfFolder& folder, const Architecture& arch, OutType out)
{
    std::vector<TensorJob> jobs;
    for (GeneratedTensor& g : arch.extraTensors(folder)) {
        TensorJob j;
        j.shape = {static_cast<int64_t>(g.values.size())};
        j.type = GgmlType::F32;
        j.name = std::move(g.name);
        j.generated = std::move(g.values);
        jobs.push_back(std::move(j));
    }
    for (const StTensor* t : folder.weights().tensors()) {
        if (t->name.ends_with(".attention.masked_bias") || t->name.ends_with(".attention.bias") ||
            t->name.ends_with(".rotary_emb.inv_freq"))
            continue;
        for (MappedTensor& m : arch.mapTensor(folder, *t)) {
            TensorJob j;
            j.source = m.source;
            j.transform = m.transform;
            j.shape = m.source->shape;
            if (j.shape.empty())
                j.shape = {1};            // a scalar is written as one element
            if (m.transform.keepRows > 0) // as torch's data[:n]: more rows than there are keeps them all
                j.shape[0] = std::min(j.shape[0], m.transform.keepRows);
            if (j.shape.size() > 4)
                throw Error(t->file + ": tensor '" + t->name + "' has " + std::to_string(j.shape.size()) +
                            " dimensions; GGUF allows 4");
            checkConvertible(*m.source);
            j.type = tensorTypeOf(m.name, j.shape, out);
            j.name = std::move(m.name);
            checkTransform(j);
            jobs.push_back(std::move(j));
        }
    }
    for (size_t i = 0; i < jobs.size(); ++i)
        for (size_t k = i + 1; k < jobs.size(); ++k)
            if (jobs[i].name == jobs[k].name)
                throw Error(folder.dir().string() + ": two source tensors both become '" + jobs[i].name + "'");
    return jobs;
}

} // namespace

std::optional<OutType> parseOutType(std::string_view name)
{
    if (name == "f32")
        return OutType::F32;
    if (name == "f16")
        return OutType::F16;
    if (name == "bf16")
        return OutType::BF16;
    if (name == "q8_0")
        return OutType::Q8_0;
    return std::nullopt;
}

std::string_view outTypeName(OutType t)
{
    switch (t) {
    case OutType::F32: return "f32";
    case OutType::F16: return "f16";
    case OutType::BF16: return "bf16";
    case OutType::Q8_0: return "q8_0";
    }
    return "f16";
}

ConvertResult convertModel(const ConvertOptions& options)
{
    const HfFolder folder(options.inputs);
    const std::unique_ptr<Architecture> arch = findArchitecture(folder.hfArchitecture());
    if (!arch)
        throw Error(folder.path("config.json").string() + ": architecture " + folder.hfArchitecture() +
                    " is not supported; hearth convert supports " + supportedArchitectures());
    std::vector<TensorJob> jobs = planTensors(folder, *arch, options.outType);
    int64_t params = 0;
    for (const TensorJob& j : jobs) {
        int64_t n = 1;
        for (int64_t d : j.shape)
            n *= d;
        params += n;
    }

    gguf::Writer w;
    w.setReplaceExisting(true); // a later key overwrites an earlier one, as in the gguf package
    w.addString("general.architecture", arch->ggufName());
    w.addString("general.type", "model");
    writeSampling(folder, w);
    std::string name = options.modelName.empty() ? folder.dir().filename().string() : options.modelName;
    if (name.empty() || name == ".")
        name = std::filesystem::absolute(folder.dir()).parent_path().filename().string();
    w.addString("general.name", name);
    if (params > 0)
        w.addString("general.size_label", sizeLabel(params));
    arch->writeParameters(folder, w, fileTypeOf(options.outType));
    w.addUInt32("general.quantization_version", 2);
    VocabOptions vocab;
    vocab.vocabSize = folder.config().findInt("vocab_size");
    vocab.preTokenizer = options.preTokenizer;
    arch->writeVocab(folder, w, vocab);

    uint64_t total = 0;
    for (const TensorJob& j : jobs) {
        std::vector<int64_t> ne(j.shape.rbegin(), j.shape.rend());
        w.addTensorInfo(j.name, j.type, ne);
        total += w.tensorBytes(w.tensorCount() - 1);
    }
    ConvertProgress progress;
    progress.tensors = jobs.size();
    progress.bytesTotal = total;
    w.write(options.output.string(), [&](size_t index, gguf::Writer::TensorSink& sink) {
        progress.tensor = index;
        progress.name = jobs[index].name;
        if (options.progress)
            options.progress(progress);
        writeTensorData(jobs[index], sink, options.cancel);
        progress.bytesDone += w.tensorBytes(index);
    });
    if (options.progress) {
        progress.tensor = jobs.size();
        options.progress(progress);
    }
    ConvertResult r;
    r.architecture = std::string(arch->ggufName());
    r.tensors = jobs.size();
    r.parameters = params;
    r.fileBytes = std::filesystem::file_size(options.output);
    return r;
}

} // namespace hearth::convert

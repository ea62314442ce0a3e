#include "runtime/loaded_model.h"

#include "runtime/gpu_layers.h"
#include "util/error.h"

#include <algorithm>

namespace hearth {

namespace {

void checkCancel(const LoadOptions& o)
{
    if (o.cancel && o.cancel->load(std::memory_order_relaxed))
        throw Cancelled();
}

// Reads one byte per page of every tensor so the weights are resident,
// reporting progress by bytes.
void touchWeights(const gguf::File& file, const LoadOptions& o)
{
    uint64_t total = 0, done = 0;
    for (const auto& t : file.tensors())
        total += t.bytes;
    volatile uint8_t sink = 0;
    constexpr size_t kPage = 4096;
    for (const auto& t : file.tensors()) {
        for (size_t off = 0; off < t.bytes; off += kPage)
            sink = sink + t.data[off];
        done += t.bytes;
        checkCancel(o);
        if (o.progress && total > 0)
            o.progress(0.2 + 0.75 * static_cast<double>(done) / static_cast<double>(total), "reading weights");
    }
    (void)sink;
}

std::string mib(uint64_t b)
{
    return std::to_string((b + (1u << 20) - 1) >> 20) + " MiB";
}

// Decides the -ngl count (auto: as many as fit with the margin; explicit:
// refused with the count that fits when it does not) and copies those
// layers' weights. Returns the note for the user.
std::string placeOnDevice(Model& model, Backend& host, const LoadOptions& o)
{
    const ModelParams& hp = model.params();
    Backend& device = *o.device;
    // The device's scratch: the activations (as the host's), its work area
    // (rounded activations, about as large) and a shadow of a whole batch
    // of logits.
    ContextParams cp = o.context;
    if (cp.nCtx <= 0)
        cp.nCtx = defaultContextSize(hp);
    const auto batch = static_cast<uint64_t>(std::clamp<int64_t>(cp.nBatch, 1, cp.nCtx));
    const uint64_t scratch =
        2 * Context::scratchBytesFor(model, host, cp) + static_cast<uint64_t>(hp.nVocab) * batch * sizeof(float);
    const DeviceNeeds needs = deviceNeeds(model.file(), hp, o.context, scratch);
    const uint64_t free = device.device().memoryFree;
    const bool autoCount = o.gpuLayers < 0;
    int64_t count = std::min<int64_t>(o.gpuLayers, needs.maxCount());
    const int64_t fits = needs.countThatFits(free, autoCount ? autoMargin(free) : 0);
    if (autoCount)
        count = fits;
    else if (count > fits)
        throw OutOfDeviceMemory(
            "out of GPU memory: " + std::to_string(count) + " layers need " + mib(needs.bytesFor(count)) + ", " +
                mib(free) + " are free on " + device.device().name + "; " + std::to_string(fits) + " of " +
                std::to_string(needs.maxCount()) + " layers fit (-ngl " + std::to_string(fits) + ", or -ngl auto)",
            needs.bytesFor(count), free);
    UploadOptions up;
    up.cancel = o.cancel;
    if (o.progress)
        up.progress = [&](double f) { o.progress(0.2 + 0.75 * f, "copying weights to the GPU"); };
    for (;;) {
        try {
            model.placeWeights(Placement::fromGpuLayers(host, &device, hp.nLayer, count), up);
            break;
        } catch (const OutOfDeviceMemory&) {
            if (!autoCount || count == 0) // the driver refused what the budget promised
                throw;
            --count;
        }
    }
    return std::to_string(count) + " of " + std::to_string(needs.maxCount()) + " layers on " + device.device().name +
           " (" + mib(needs.bytesFor(count)) + ")";
}

} // namespace

LoadedModel::LoadedModel(std::shared_ptr<const Model> model, std::unique_ptr<Tokenizer> tokenizer,
                         chat::ChatTemplate tmpl, std::string warning)
    : m_model(std::move(model))
    , m_tokenizer(std::move(tokenizer))
    , m_template(std::move(tmpl))
    , m_templateWarning(std::move(warning))
{
}

std::shared_ptr<LoadedModel> LoadedModel::load(const std::string& path, Backend& backend, const LoadOptions& o)
{
    const auto report = [&](double f, const char* stage) {
        checkCancel(o);
        if (o.progress)
            o.progress(f, stage);
    };
    report(0.0, "opening");
    auto file = std::make_shared<gguf::File>(path);
    report(0.05, "binding tensors");
    std::unique_ptr<Model> created = Model::create(file, backend);
    std::string note;
    if (o.device && o.gpuLayers != 0)
        note = placeOnDevice(*created, backend, o);
    std::shared_ptr<const Model> model = std::move(created);
    report(0.1, "reading the vocabulary");
    std::unique_ptr<Tokenizer> tokenizer = Tokenizer::fromGguf(*file);
    if (tokenizer->vocabSize() > model->params().nVocab)
        throw Error(path + ": the vocabulary has " + std::to_string(tokenizer->vocabSize()) +
                    " tokens but token_embd.weight only " + std::to_string(model->params().nVocab) + " rows");
    report(0.15, "reading the chat template");
    std::string warning;
    chat::ChatTemplate tmpl = chat::ChatTemplate::forModel(*file, &warning);
    if (o.touchWeights && note.empty()) // offloaded weights were read by the upload
        touchWeights(*file, o);
    report(1.0, "ready");
    auto loaded = std::shared_ptr<LoadedModel>(
        new LoadedModel(std::move(model), std::move(tokenizer), std::move(tmpl), std::move(warning)));
    loaded->m_placementNote = note;
    return loaded;
}

std::vector<TokenId> LoadedModel::tokenizePrompt(std::string_view text) const
{
    std::vector<TokenId> ids = m_tokenizer->encode(text, /*addSpecial=*/true, /*parseSpecial=*/true);
    const TokenId bos = m_tokenizer->bos();
    if (bos >= 0 && ids.size() >= 2 && ids[0] == bos && ids[1] == bos)
        ids.erase(ids.begin()); // the text already began with BOS
    return ids;
}

} // namespace hearth

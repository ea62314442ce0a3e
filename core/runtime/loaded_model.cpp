#include "runtime/loaded_model.h"

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
    std::shared_ptr<const Model> model = Model::create(file, backend);
    report(0.1, "reading the vocabulary");
    std::unique_ptr<Tokenizer> tokenizer = Tokenizer::fromGguf(*file);
    if (tokenizer->vocabSize() > model->params().nVocab)
        throw Error(path + ": the vocabulary has " + std::to_string(tokenizer->vocabSize()) +
                    " tokens but token_embd.weight only " + std::to_string(model->params().nVocab) + " rows");
    report(0.15, "reading the chat template");
    std::string warning;
    chat::ChatTemplate tmpl = chat::ChatTemplate::forModel(*file, &warning);
    if (o.touchWeights)
        touchWeights(*file, o);
    report(1.0, "ready");
    return std::shared_ptr<LoadedModel>(
        new LoadedModel(std::move(model), std::move(tokenizer), std::move(tmpl), std::move(warning)));
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

// A model ready to use: the mapped GGUF file, the weights bound for a
// backend, the tokenizer and the chat template, loaded in one call that
// reports progress and can be cancelled.
//
// Thread-safety: immutable after load(); any number of contexts and sessions
// may use it at once. Ownership: shared; the mapping lives as long as the
// last holder.
#pragma once

#include "backend/backend.h"
#include "chat/chat_template.h"
#include "model/model.h"
#include "runtime/context.h"
#include "tokenizer/tokenizer.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>

namespace hearth {

struct LoadOptions {
    // Called with a fraction in [0, 1] and what is being done; may be called
    // from the loading thread only.
    std::function<void(double fraction, const char* stage)> progress;
    // Checked between steps and while reading the weights: load() then
    // throws hearth::Cancelled.
    const std::atomic<bool>* cancel = nullptr;
    // Read every weight page now (so the first answer is not slow and the
    // memory gauges are right); false leaves it to the first use.
    bool touchWeights = true;
    // Layers on a GPU (runtime/gpu_layers.h): `gpuLayers` as -ngl counts
    // them, kGpuLayersAuto for as many as fit. `context` is the context
    // that will be made, for its KV rows and scratch on the device. Too
    // many layers for the device's memory: an error saying how many fit
    // (auto takes that many).
    Backend* device = nullptr;
    int gpuLayers = 0;
    ContextParams context;
};

class LoadedModel {
public:
    // Throws hearth::Error (bad file, unknown architecture, unsupported
    // tensor type, broken vocabulary) or hearth::Cancelled.
    static std::shared_ptr<LoadedModel> load(const std::string& path, Backend& backend,
                                             const LoadOptions& options = {});

    const Model& model() const { return *m_model; }
    std::shared_ptr<const Model> modelShared() const { return m_model; }
    const Tokenizer& tokenizer() const { return *m_tokenizer; }
    const chat::ChatTemplate& chatTemplate() const { return m_template; }
    // Why the built-in template replaced the file's (empty when it did not).
    const std::string& templateWarning() const { return m_templateWarning; }
    const gguf::File& file() const { return m_model->file(); }
    // What the load did with the GPU ("12 of 31 layers on ..."), or "".
    const std::string& placementNote() const { return m_placementNote; }

    // Tokens of a prompt as llama.cpp's CLI makes them: special tokens
    // parsed, BOS added when the vocabulary asks, never twice.
    std::vector<TokenId> tokenizePrompt(std::string_view text) const;

private:
    LoadedModel(std::shared_ptr<const Model> model, std::unique_ptr<Tokenizer> tokenizer, chat::ChatTemplate tmpl,
                std::string warning);

    std::shared_ptr<const Model> m_model;
    std::unique_ptr<Tokenizer> m_tokenizer;
    chat::ChatTemplate m_template;
    std::string m_templateWarning;
    std::string m_placementNote;
};

} // namespace hearth

// A Hugging Face model as `hearth convert` reads it: the folder with
// config.json, the weights (*.safetensors, sharded ones through
// model.safetensors.index.json) and the tokenizer files beside them.
//
// Inputs are either one folder or a list of files in one folder (the
// .safetensors among them are the weights; config and tokenizer files are
// looked up in the same folder). The weights are opened and validated here,
// before anything is written.
#pragma once

#include "convert/json_file.h"
#include "convert/safetensors.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hearth::convert {

class HfFolder {
public:
    // Throws hearth::Error naming what is missing or malformed.
    explicit HfFolder(const std::vector<std::filesystem::path>& inputs);

    const std::filesystem::path& dir() const { return m_dir; }
    std::filesystem::path path(std::string_view file) const { return m_dir / file; }
    bool hasFile(std::string_view file) const;

    // config.json, with a multimodal model's "text_config" merged into the
    // top level (as llama.cpp's converter does).
    const JsonObject& config() const { return m_configView; }
    // The "architectures"[0] entry of config.json.
    const std::string& hfArchitecture() const { return m_hfArch; }

    // Parsed on first use; nullptr when the file does not exist.
    const Json* tokenizerJson() const;
    const Json* tokenizerConfig() const;

    const SafetensorsSet& weights() const { return *m_weights; }

private:
    std::filesystem::path m_dir;
    Json m_config;
    JsonObject m_configView;
    std::string m_hfArch;
    std::unique_ptr<SafetensorsSet> m_weights;
    mutable std::optional<Json> m_tokenizerJson, m_tokenizerConfig;
    mutable bool m_tokenizerJsonRead = false, m_tokenizerConfigRead = false;
};

} // namespace hearth::convert

#include "convert/hf_folder.h"

#include "util/error.h"

#include <algorithm>
#include <set>

namespace hearth::convert {

namespace fs = std::filesystem;

namespace {

bool endsWith(const std::string& s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// model*.safetensors of a folder, by name (llama.cpp's part order).
std::vector<fs::path> weightFilesOf(const fs::path& dir)
{
    std::vector<fs::path> files;
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (e.is_regular_file() && name.starts_with("model") && endsWith(name, ".safetensors"))
            files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// The files a sharded checkpoint's index names, in name order. A name must be
// a plain file name in the folder: an index cannot point elsewhere.
std::vector<fs::path> indexedFiles(const fs::path& index, const fs::path& dir)
{
    const Json j = readJsonFile(index);
    const auto map = j.find("weight_map");
    if (!j.is_object() || map == j.end() || !map->is_object())
        throw Error(index.string() + ": no \"weight_map\" object");
    std::set<std::string> names;
    for (const auto& [tensor, file] : map->items()) {
        if (!file.is_string())
            throw Error(index.string() + ": the file of tensor '" + tensor + "' is not a string");
        const std::string f = file.get<std::string>();
        if (f.empty() || fs::path(f).filename().string() != f || f == "." || f == "..")
            throw Error(index.string() + ": \"" + f + "\" is not a file name in the model folder");
        names.insert(f);
    }
    std::vector<fs::path> files;
    for (const std::string& f : names) {
        if (!fs::is_regular_file(dir / f))
            throw Error(index.string() + " names " + f + ", which is not in " + dir.string() +
                        " (incomplete download?)");
        files.push_back(dir / f);
    }
    return files;
}

} // namespace

HfFolder::HfFolder(const std::vector<fs::path>& inputs)
{
    if (inputs.empty())
        throw Error("no model folder or files given");
    std::vector<fs::path> given;
    if (inputs.size() == 1 && fs::is_directory(inputs[0])) {
        m_dir = inputs[0];
    } else {
        for (const fs::path& p : inputs) {
            if (!fs::is_regular_file(p))
                throw Error(p.string() + ": no such file");
            const fs::path parent = fs::absolute(p).parent_path();
            if (m_dir.empty())
                m_dir = parent;
            else if (parent != m_dir)
                throw Error("the model files must be in one folder (" + m_dir.string() + " and " + parent.string() +
                            ")");
            if (p.extension() == ".safetensors")
                given.push_back(p);
        }
    }
    const fs::path configPath = m_dir / "config.json";
    if (!fs::is_regular_file(configPath))
        throw Error(m_dir.string() + ": no config.json (a Hugging Face model folder has one)");
    m_config = readJsonFile(configPath, 64u << 20);
    if (!m_config.is_object())
        throw Error(configPath.string() + ": expected a JSON object");
    if (const auto text = m_config.find("text_config"); text != m_config.end() && text->is_object())
        for (const auto& [k, v] : text->items())
            m_config[k] = v;
    m_configView = JsonObject(&m_config, configPath.string());
    if (const Json* archs = m_configView.find("architectures");
        archs && archs->is_array() && !archs->empty() && (*archs)[0].is_string())
        m_hfArch = (*archs)[0].get<std::string>();
    else
        throw Error(configPath.string() + ": no \"architectures\" list naming the model class");

    const fs::path index = m_dir / "model.safetensors.index.json";
    const bool hasIndex = fs::is_regular_file(index);
    std::vector<fs::path> files = !given.empty() ? given : hasIndex ? indexedFiles(index, m_dir) : weightFilesOf(m_dir);
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        if (hasFile("pytorch_model.bin") || fs::is_regular_file(m_dir / "pytorch_model.bin.index.json"))
            throw Error(m_dir.string() + ": only PyTorch .bin weights; hearth convert reads safetensors (save the "
                                         "model with safe_serialization=True)");
        throw Error(m_dir.string() + ": no model*.safetensors weights");
    }
    m_weights = std::make_unique<SafetensorsSet>(files, hasIndex ? index : fs::path());
}

bool HfFolder::hasFile(std::string_view file) const
{
    return fs::is_regular_file(m_dir / file);
}

const Json* HfFolder::tokenizerJson() const
{
    if (!m_tokenizerJsonRead) {
        m_tokenizerJsonRead = true;
        if (hasFile("tokenizer.json"))
            m_tokenizerJson = readJsonFile(path("tokenizer.json"));
    }
    return m_tokenizerJson ? &*m_tokenizerJson : nullptr;
}

const Json* HfFolder::tokenizerConfig() const
{
    if (!m_tokenizerConfigRead) {
        m_tokenizerConfigRead = true;
        if (hasFile("tokenizer_config.json"))
            m_tokenizerConfig = readJsonFile(path("tokenizer_config.json"));
    }
    return m_tokenizerConfig ? &*m_tokenizerConfig : nullptr;
}

} // namespace hearth::convert

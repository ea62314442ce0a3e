// hearth convert on broken input: each corruption of a small synthetic BERT
// folder (truncated safetensors, header length beyond the file, overlapping
// or out-of-range offsets, dtype/shape mismatch, bad JSON, missing shards,
// hostile paths, an unknown architecture) must give a clear error naming
// what is wrong, and leave no output file (nor its .tmp).

#include "hf_folder_writer.h"

#include "convert/converter.h"
#include "gguf/gguf.h"
#include "util/error.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <filesystem>

using namespace hearth;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const char* kVocab = "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\nworld\n##s\n";

std::vector<hftest::Tensor> bertTensors()
{
    using hftest::randomTensor;
    std::vector<hftest::Tensor> t;
    uint64_t seed = 1;
    t.push_back(randomTensor("embeddings.word_embeddings.weight", "F32", {8, 32}, seed++));
    t.push_back(randomTensor("embeddings.position_embeddings.weight", "F32", {16, 32}, seed++));
    t.push_back(randomTensor("embeddings.token_type_embeddings.weight", "F32", {2, 32}, seed++));
    t.push_back(randomTensor("embeddings.LayerNorm.weight", "F32", {32}, seed++, 0.1f, 1.0f));
    t.push_back(randomTensor("embeddings.LayerNorm.bias", "F32", {32}, seed++));
    const std::pair<const char*, std::vector<int64_t>> layer[] = {
        {"attention.self.query", {32, 32}},   {"attention.self.key", {32, 32}},
        {"attention.self.value", {32, 32}},   {"attention.output.dense", {32, 32}},
        {"attention.output.LayerNorm", {32}}, {"intermediate.dense", {64, 32}},
        {"output.dense", {32, 64}},           {"output.LayerNorm", {32}}};
    for (const auto& [name, shape] : layer) {
        const std::string base = std::string("encoder.layer.0.") + name;
        t.push_back(randomTensor(base + ".weight", "F32", shape, seed++));
        t.push_back(randomTensor(base + ".bias", "F32", {shape[0]}, seed++));
    }
    return t;
}

json bertConfig()
{
    return {{"architectures", {"BertModel"}}, {"hidden_size", 32},      {"intermediate_size", 64},
            {"num_attention_heads", 4},       {"num_hidden_layers", 1}, {"max_position_embeddings", 16},
            {"type_vocab_size", 2},           {"vocab_size", 8},        {"layer_norm_eps", 1e-12}};
}

} // namespace

class TestConvertCorrupt : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    int m_case = 0;

    // A fresh, valid folder.
    fs::path makeFolder()
    {
        const fs::path dir = fs::path(m_tmp.path().toStdString()) / ("model" + std::to_string(++m_case));
        hftest::writeJson(dir / "config.json", bertConfig());
        hftest::writeText(dir / "vocab.txt", kVocab);
        hftest::writeSafetensors(dir / "model.safetensors", bertTensors());
        return dir;
    }

    // Converts; returns the error message ("" on success) and checks that a
    // failure left nothing behind.
    std::string convert(const fs::path& dir)
    {
        const fs::path out = dir.parent_path() / (dir.filename().string() + ".gguf");
        convert::ConvertOptions o;
        o.inputs = {dir};
        o.output = out;
        o.preTokenizer = "bert-bge"; // a toy vocabulary has no known hash
        try {
            convert::convertModel(o);
        } catch (const Error& e) {
            if (fs::exists(out) || fs::exists(out.string() + ".tmp"))
                return std::string("left an output file after: ") + e.what();
            return e.what();
        }
        return {};
    }

    void expectError(const fs::path& dir, const char* fragment)
    {
        const std::string msg = convert(dir);
        QVERIFY2(!msg.empty(), "the broken input was accepted");
        QVERIFY2(msg.find(fragment) != std::string::npos, msg.c_str());
        QVERIFY2(msg.find("left an output file") == std::string::npos, msg.c_str());
    }

    std::vector<uint8_t> stBytes() { return hftest::safetensorsBytes(bertTensors()); }

    static uint64_t headerLength(const std::vector<uint8_t>& b)
    {
        uint64_t n;
        std::memcpy(&n, b.data(), 8);
        return n;
    }

    // The file with its header JSON replaced (kept at the same data).
    static std::vector<uint8_t> withHeader(const std::vector<uint8_t>& b, std::string header)
    {
        const uint64_t old = headerLength(b);
        const size_t data = b.size() - 8 - static_cast<size_t>(old);
        std::vector<uint8_t> out(8 + header.size() + data);
        const uint64_t n = header.size();
        std::memcpy(out.data(), &n, 8);
        std::memcpy(out.data() + 8, header.data(), header.size());
        std::memcpy(out.data() + 8 + header.size(), b.data() + 8 + old, data);
        return out;
    }

    static json header(const std::vector<uint8_t>& b)
    {
        return json::parse(b.begin() + 8, b.begin() + 8 + static_cast<std::ptrdiff_t>(headerLength(b)));
    }

private slots:
    void validFolderConverts()
    {
        const fs::path dir = makeFolder();
        QCOMPARE(convert(dir), std::string());
        const gguf::File f(dir.string() + ".gguf");
        QCOMPARE(f.tensors().size(), size_t{21});
    }

    void truncatedSafetensors()
    {
        const fs::path dir = makeFolder();
        std::vector<uint8_t> b = stBytes();
        b.resize(b.size() - 100); // the last tensor's data is cut
        hftest::writeBytes(dir / "model.safetensors", b);
        expectError(dir, "outside the");
        b.resize(4);
        hftest::writeBytes(dir / "model.safetensors", b);
        expectError(dir, "too short");
    }

    void headerLengthBeyondFile()
    {
        const fs::path dir = makeFolder();
        std::vector<uint8_t> b = stBytes();
        const uint64_t huge = uint64_t{1} << 40;
        std::memcpy(b.data(), &huge, 8);
        hftest::writeBytes(dir / "model.safetensors", b);
        expectError(dir, "header length 1099511627776 runs past the end");
    }

    void overlappingOffsets()
    {
        const fs::path dir = makeFolder();
        const std::vector<uint8_t> b = stBytes();
        json h = header(b);
        h["embeddings.LayerNorm.bias"]["data_offsets"] = h["embeddings.LayerNorm.weight"]["data_offsets"];
        hftest::writeBytes(dir / "model.safetensors", withHeader(b, h.dump()));
        expectError(dir, "overlap");
    }

    void outOfRangeOffsets()
    {
        const fs::path dir = makeFolder();
        const std::vector<uint8_t> b = stBytes();
        json h = header(b);
        h["embeddings.LayerNorm.bias"]["data_offsets"] = {100000, 100128};
        hftest::writeBytes(dir / "model.safetensors", withHeader(b, h.dump()));
        expectError(dir, "lie outside the");
        h["embeddings.LayerNorm.bias"]["data_offsets"] = {200, 100};
        hftest::writeBytes(dir / "model.safetensors", withHeader(b, h.dump()));
        expectError(dir, "lie outside the");
    }

    void dtypeShapeMismatch()
    {
        const fs::path dir = makeFolder();
        const std::vector<uint8_t> b = stBytes();
        json h = header(b);
        h["embeddings.LayerNorm.bias"]["dtype"] = "F16"; // 32 halves are 64 bytes, the range is 128
        hftest::writeBytes(dir / "model.safetensors", withHeader(b, h.dump()));
        expectError(dir, "need 64 bytes, data_offsets give 128");
        h["embeddings.LayerNorm.bias"]["dtype"] = "F32";
        h["embeddings.LayerNorm.bias"]["shape"] = {33};
        hftest::writeBytes(dir / "model.safetensors", withHeader(b, h.dump()));
        expectError(dir, "need 132 bytes");
        h["embeddings.LayerNorm.bias"]["shape"] = {32};
        h["embeddings.LayerNorm.bias"]["dtype"] = "Q4";
        hftest::writeBytes(dir / "model.safetensors", withHeader(b, h.dump()));
        expectError(dir, "unknown dtype \"Q4\"");
        h["embeddings.LayerNorm.bias"]["dtype"] = "I32"; // known, but not a float
        hftest::writeBytes(dir / "model.safetensors", withHeader(b, h.dump()));
        expectError(dir, "is I32");
    }

    void badJson()
    {
        fs::path dir = makeFolder();
        hftest::writeText(dir / "config.json", "{\"architectures\": [\"BertModel\"], ");
        expectError(dir, "config.json: not valid JSON");
        dir = makeFolder();
        hftest::writeText(dir / "config.json", std::string(100000, '[') + std::string(100000, ']'));
        expectError(dir, "nested deeper");
        dir = makeFolder();
        const std::vector<uint8_t> b = stBytes();
        hftest::writeBytes(dir / "model.safetensors", withHeader(b, "{\"a\": [1, 2"));
        expectError(dir, "the header is not valid JSON");
        dir = makeFolder();
        hftest::writeText(dir / "tokenizer.json", "{\"model\": {\"type\": \"WordPiece\", \"vocab\": {\"a\": }}");
        expectError(dir, "tokenizer.json: not valid JSON");
        dir = makeFolder();
        json cfg = bertConfig();
        cfg["num_hidden_layers"] = "one";
        hftest::writeJson(dir / "config.json", cfg);
        expectError(dir, "\"num_hidden_layers\" must be a non-negative integer");
    }

    void duplicateTensorName()
    {
        const fs::path dir = makeFolder();
        const std::vector<uint8_t> b = stBytes();
        std::string text(b.begin() + 8, b.begin() + 8 + static_cast<std::ptrdiff_t>(headerLength(b)));
        const std::string entry = "\"embeddings.LayerNorm.bias\":";
        const size_t at = text.find(entry);
        const size_t end = text.find('}', at) + 1;
        text.insert(1, text.substr(at, end - at) + ",");
        hftest::writeBytes(dir / "model.safetensors", withHeader(b, text));
        expectError(dir, "appears twice");
    }

    void shardsAndIndex()
    {
        fs::path dir = makeFolder();
        std::vector<hftest::Tensor> all = bertTensors();
        const std::vector<hftest::Tensor> first(all.begin(), all.begin() + 10), second(all.begin() + 10, all.end());
        fs::remove(dir / "model.safetensors");
        hftest::writeSafetensors(dir / "model-00001-of-00002.safetensors", first);
        hftest::writeSafetensors(dir / "model-00002-of-00002.safetensors", second);
        json map = json::object();
        for (size_t i = 0; i < all.size(); ++i)
            map[all[i].name] = i < 10 ? "model-00001-of-00002.safetensors" : "model-00002-of-00002.safetensors";
        hftest::writeJson(dir / "model.safetensors.index.json", {{"weight_map", map}});
        QCOMPARE(convert(dir), std::string()); // sharded: fine
        fs::remove(dir.string() + ".gguf");
        fs::remove(dir / "model-00002-of-00002.safetensors");
        expectError(dir, "model-00002-of-00002.safetensors, which is not in");
        hftest::writeSafetensors(dir / "model-00002-of-00002.safetensors", {second.begin(), second.end() - 1});
        expectError(dir, "tensors of the index are missing");
        map[all[0].name] = "../outside.safetensors";
        hftest::writeJson(dir / "model.safetensors.index.json", {{"weight_map", map}});
        expectError(dir, "is not a file name in the model folder");
    }

    void unknownArchitecture()
    {
        const fs::path dir = makeFolder();
        json cfg = bertConfig();
        cfg["architectures"] = {"MambaForCausalLM"};
        hftest::writeJson(dir / "config.json", cfg);
        expectError(dir, "MambaForCausalLM is not supported; hearth convert supports ");
        expectError(dir, "BertModel");
    }

    void noWeightsOrConfig()
    {
        fs::path dir = makeFolder();
        fs::remove(dir / "model.safetensors");
        expectError(dir, "no model*.safetensors weights");
        dir = makeFolder();
        fs::remove(dir / "config.json");
        expectError(dir, "no config.json");
    }

    void cancelLeavesNothing()
    {
        const fs::path dir = makeFolder();
        convert::ConvertOptions o;
        o.inputs = {dir};
        o.output = dir.string() + ".gguf";
        o.preTokenizer = "bert-bge";
        std::atomic<bool> cancel{true};
        o.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(Cancelled, convert::convertModel(o));
        QVERIFY(!fs::exists(o.output));
        QVERIFY(!fs::exists(o.output.string() + ".tmp"));
    }
};

QTEST_GUILESS_MAIN(TestConvertCorrupt)
#include "test_convert_corrupt.moc"

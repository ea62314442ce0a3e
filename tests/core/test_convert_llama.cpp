// hearth convert round trip for the Llama family (llama, qwen2, qwen3):
// a synthetic Hugging Face folder per architecture (random weights, the real
// config.json keys, a byte-level BPE tokenizer.json made from the GPT-2
// vocabulary of ../shared/testdata) converts to a GGUF whose tensors are the
// source values (Llama's q/k rows with the rotary permutation undone),
// whose keys are the architecture's, and that the engine loads and runs.

#include "hf_folder_writer.h"
#include "test_support.h"

#include "convert/converter.h"
#include "cpu/cpu_backend.h"
#include "gguf/gguf.h"
#include "model/model.h"
#include "runtime/context.h"
#include "util/error.h"
#include "util/half.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <filesystem>

using namespace hearth;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int64_t kEmbd = 64, kFf = 128, kHeads = 4, kKvHeads = 2, kLayers = 2;

// tokenizer.json for GPT-2's byte-level BPE, from llama.cpp's vocabulary file.
json gpt2TokenizerJson(const std::string& vocabGguf, int64_t& vocabSize)
{
    const gguf::File f(vocabGguf);
    const gguf::Value* tokens = f.findArray("tokenizer.ggml.tokens");
    const gguf::Value* merges = f.findArray("tokenizer.ggml.merges");
    json vocab = json::object(), mergeList = json::array();
    for (uint64_t i = 0; i < tokens->size(); ++i)
        vocab[std::string(tokens->stringAt(i))] = i;
    for (uint64_t i = 0; i < merges->size(); ++i)
        mergeList.push_back(std::string(merges->stringAt(i)));
    vocabSize = static_cast<int64_t>(tokens->size());
    const json byteLevel = {
        {"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", true}, {"use_regex", true}};
    return {{"version", "1.0"},
            {"added_tokens",
             {{{"id", vocabSize - 1},
               {"content", "<|endoftext|>"},
               {"single_word", false},
               {"lstrip", false},
               {"rstrip", false},
               {"normalized", false},
               {"special", true}}}},
            {"normalizer", nullptr},
            {"pre_tokenizer", byteLevel},
            {"post_processor", byteLevel},
            {"decoder", byteLevel},
            {"model",
             {{"type", "BPE"},
              {"dropout", nullptr},
              {"unk_token", nullptr},
              {"byte_fallback", false},
              {"vocab", vocab},
              {"merges", mergeList}}}};
}

// A SentencePiece tokenizer.model (sentencepiece.ModelProto's pieces) with
// the pieces, scores and types of llama.cpp's SPM vocabulary file.
std::vector<uint8_t> spmModelBytes(const std::string& vocabGguf, int64_t& vocabSize)
{
    const gguf::File f(vocabGguf);
    const gguf::Value* tokens = f.findArray("tokenizer.ggml.tokens");
    const gguf::Value* scores = f.findArray("tokenizer.ggml.scores");
    const gguf::Value* types = f.findArray("tokenizer.ggml.token_type");
    const auto varint = [](std::vector<uint8_t>& out, uint64_t v) {
        for (; v >= 0x80; v >>= 7)
            out.push_back(static_cast<uint8_t>(v | 0x80));
        out.push_back(static_cast<uint8_t>(v));
    };
    std::vector<uint8_t> out;
    for (uint64_t i = 0; i < tokens->size(); ++i) {
        std::vector<uint8_t> piece;
        const std::string_view text = tokens->stringAt(i);
        piece.push_back(0x0a); // field 1, length-delimited
        varint(piece, text.size());
        piece.insert(piece.end(), text.begin(), text.end());
        piece.push_back(0x15); // field 2, fixed32
        const float score = static_cast<float>(scores->floatAt(i));
        uint8_t b[4];
        std::memcpy(b, &score, 4);
        piece.insert(piece.end(), b, b + 4);
        piece.push_back(0x18); // field 3, varint
        varint(piece, static_cast<uint64_t>(types->intAt(i)));
        out.push_back(0x0a);
        varint(out, piece.size());
        out.insert(out.end(), piece.begin(), piece.end());
    }
    out.insert(out.end(), {0x12, 0x02, 0x18, 0x01}); // a trainer_spec to skip
    vocabSize = static_cast<int64_t>(tokens->size());
    return out;
}

struct Folder {
    std::vector<hftest::Tensor> tensors;
};

Folder writeFolder(const fs::path& dir, const std::string& arch, const json& tokenizer, int64_t vocab)
{
    using hftest::randomTensor;
    const bool qwen = arch != "llama";
    const bool gemma2 = arch == "gemma2";
    const bool phi3 = arch == "phi3";
    const bool gemma = arch == "gemma3" || gemma2;
    const char* hfClass = arch == "llama"   ? "LlamaForCausalLM"
                          : arch == "qwen2" ? "Qwen2ForCausalLM"
                          : gemma2          ? "Gemma2ForCausalLM"
                          : phi3            ? "Phi3ForCausalLM"
                          : gemma           ? "Gemma3ForCausalLM"
                                            : "Qwen3ForCausalLM";
    // Gemma 3's embedding has rows past the tokenizer's vocabulary (padding).
    const int64_t rows = gemma && !gemma2 ? vocab + 6 : vocab;
    json cfg = {{"architectures", {hfClass}},
                {"hidden_size", kEmbd},
                {"intermediate_size", kFf},
                {"num_attention_heads", kHeads},
                {"num_key_value_heads", kKvHeads},
                {"num_hidden_layers", kLayers},
                {"max_position_embeddings", 256},
                {"rms_norm_eps", 1e-6},
                {"rope_theta", qwen ? 1000000.0 : 10000.0},
                {"vocab_size", rows},
                {"hidden_act", "silu"},
                {"tie_word_embeddings", qwen},
                {"torch_dtype", "bfloat16"},
                {"bos_token_id", vocab - 1},
                {"eos_token_id", vocab - 1}};
    if (arch == "qwen3" || gemma)
        cfg["head_dim"] = kEmbd / kHeads;
    if (gemma) {
        cfg["sliding_window"] = 32;
        cfg["rope_local_base_freq"] = 10000.0;
        cfg["query_pre_attn_scalar"] = kEmbd / kHeads;
        cfg["final_logit_softcapping"] = nullptr;
    }
    if (phi3) { // a long-context Phi-3: longrope factors, 8 per list (rope dims / 2)
        cfg["original_max_position_embeddings"] = 128;
        cfg["sliding_window"] = 64;
        cfg["tie_word_embeddings"] = false;
        std::vector<double> longF, shortF;
        for (int i = 0; i < 8; ++i) {
            longF.push_back(1.0 + 0.5 * i);
            shortF.push_back(1.0 + 0.01 * i);
        }
        cfg["rope_scaling"] = {{"type", "longrope"}, {"long_factor", longF}, {"short_factor", shortF}};
    }
    if (gemma2) {
        cfg["attn_logit_softcapping"] = 50.0;
        cfg["final_logit_softcapping"] = 30.0;
    }
    if (arch == "llama") // Llama 3's scaling: the converter adds rope_freqs.weight
        cfg["rope_scaling"] = {{"rope_type", "llama3"},
                               {"factor", 32.0},
                               {"low_freq_factor", 1.0},
                               {"high_freq_factor", 4.0},
                               {"original_max_position_embeddings", 64}};
    hftest::writeJson(dir / "config.json", cfg);
    if (tokenizer.is_binary())
        hftest::writeBytes(dir / "tokenizer.model", tokenizer.get_binary());
    else
        hftest::writeJson(dir / "tokenizer.json", tokenizer);
    hftest::writeJson(dir / "tokenizer_config.json",
                      {{"bos_token", nullptr},
                       {"eos_token", "<|endoftext|>"},
                       {"add_bos_token", false},
                       {"chat_template", "{% for m in messages %}{{ m['content'] }}{% endfor %}"}});
    Folder f;
    uint64_t seed = 11;
    const int64_t kv = kEmbd / kHeads * kKvHeads;
    f.tensors.push_back(randomTensor("model.embed_tokens.weight", "BF16", {rows, kEmbd}, seed++));
    f.tensors.push_back(randomTensor("model.norm.weight", "F32", {kEmbd}, seed++, 0.1f, 1.0f));
    if (!qwen || phi3)
        f.tensors.push_back(randomTensor("lm_head.weight", "F16", {vocab, kEmbd}, seed++));
    for (int i = 0; i < kLayers; ++i) {
        const std::string b = "model.layers." + std::to_string(i) + ".";
        f.tensors.push_back(randomTensor(b + "input_layernorm.weight", "F32", {kEmbd}, seed++, 0.1f, 1.0f));
        f.tensors.push_back(randomTensor(b + "post_attention_layernorm.weight", "F32", {kEmbd}, seed++, 0.1f, 1.0f));
        if (phi3) { // fused projections
            f.tensors.push_back(randomTensor(b + "self_attn.qkv_proj.weight", "F32", {kEmbd + 2 * kv, kEmbd}, seed++));
            f.tensors.push_back(randomTensor(b + "mlp.gate_up_proj.weight", "BF16", {2 * kFf, kEmbd}, seed++));
        } else {
            f.tensors.push_back(randomTensor(b + "self_attn.q_proj.weight", "F32", {kEmbd, kEmbd}, seed++));
            f.tensors.push_back(randomTensor(b + "self_attn.k_proj.weight", "F32", {kv, kEmbd}, seed++));
            f.tensors.push_back(randomTensor(b + "self_attn.v_proj.weight", "F32", {kv, kEmbd}, seed++));
            f.tensors.push_back(randomTensor(b + "mlp.gate_proj.weight", "BF16", {kFf, kEmbd}, seed++));
            f.tensors.push_back(randomTensor(b + "mlp.up_proj.weight", "BF16", {kFf, kEmbd}, seed++));
        }
        f.tensors.push_back(randomTensor(b + "self_attn.o_proj.weight", "F32", {kEmbd, kEmbd}, seed++));
        f.tensors.push_back(randomTensor(b + "mlp.down_proj.weight", "BF16", {kEmbd, kFf}, seed++));
        if (arch == "qwen2") {
            f.tensors.push_back(randomTensor(b + "self_attn.q_proj.bias", "F32", {kEmbd}, seed++));
            f.tensors.push_back(randomTensor(b + "self_attn.k_proj.bias", "F32", {kv}, seed++));
            f.tensors.push_back(randomTensor(b + "self_attn.v_proj.bias", "F32", {kv}, seed++));
        }
        if (gemma) {
            f.tensors.push_back(randomTensor(b + "pre_feedforward_layernorm.weight", "F32", {kEmbd}, seed++, 0.1f));
            f.tensors.push_back(randomTensor(b + "post_feedforward_layernorm.weight", "F16", {kEmbd}, seed++, 0.1f));
        }
        if (arch == "qwen3" || (gemma && !gemma2)) {
            f.tensors.push_back(
                randomTensor(b + "self_attn.q_norm.weight", "F32", {kEmbd / kHeads}, seed++, 0.1f, 1.f));
            f.tensors.push_back(
                randomTensor(b + "self_attn.k_norm.weight", "F32", {kEmbd / kHeads}, seed++, 0.1f, 1.f));
        }
    }
    hftest::writeSafetensors(dir / "model.safetensors", f.tensors);
    return f;
}

// The GGUF name of a source tensor (the table the converter must follow).
std::string ggufName(const std::string& hf, bool gemma)
{
    if (hf.ends_with("post_attention_layernorm.weight"))
        return "blk." + std::to_string(std::stoi(hf.substr(13))) +
               (gemma ? ".post_attention_norm.weight" : ".ffn_norm.weight");
    static const std::pair<const char*, const char*> kParts[] = {{"self_attn.qkv_proj", "attn_qkv"},
                                                                 {"mlp.gate_up_proj", "ffn_up"},
                                                                 {"input_layernorm", "attn_norm"},
                                                                 {"pre_feedforward_layernorm", "ffn_norm"},
                                                                 {"post_feedforward_layernorm", "post_ffw_norm"},
                                                                 {"self_attn.q_proj", "attn_q"},
                                                                 {"self_attn.k_proj", "attn_k"},
                                                                 {"self_attn.v_proj", "attn_v"},
                                                                 {"self_attn.o_proj", "attn_output"},
                                                                 {"self_attn.q_norm", "attn_q_norm"},
                                                                 {"self_attn.k_norm", "attn_k_norm"},
                                                                 {"mlp.gate_proj", "ffn_gate"},
                                                                 {"mlp.up_proj", "ffn_up"},
                                                                 {"mlp.down_proj", "ffn_down"}};
    if (hf == "model.embed_tokens.weight")
        return "token_embd.weight";
    if (hf == "model.norm.weight")
        return "output_norm.weight";
    if (hf == "lm_head.weight")
        return "output.weight";
    const size_t dot = hf.find('.', 13); // after "model.layers."
    const std::string layer = hf.substr(13, dot - 13), rest = hf.substr(dot + 1);
    for (const auto& [from, to] : kParts)
        if (rest.starts_with(std::string(from) + "."))
            return "blk." + layer + "." + to + rest.substr(std::strlen(from));
    return {};
}

} // namespace

class TestConvertLlama : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::newRow("llama") << QStringLiteral("llama");
        QTest::newRow("qwen2") << QStringLiteral("qwen2");
        QTest::newRow("qwen3") << QStringLiteral("qwen3");
        QTest::newRow("gemma3") << QStringLiteral("gemma3");
        QTest::newRow("gemma2") << QStringLiteral("gemma2");
        QTest::newRow("phi3") << QStringLiteral("phi3");
    }

    void roundTrip()
    {
        QFETCH(QString, arch);
        HEARTH_REQUIRE_TESTDATA(testdata);
        int64_t vocab = 0;
        const bool spm = arch == QStringLiteral("gemma2") || arch == QStringLiteral("phi3");
        const json tokenizer = spm ? json::binary(spmModelBytes(testdata + "/vocab/ggml-vocab-llama-spm.gguf", vocab))
                                   : gpt2TokenizerJson(testdata + "/vocab/ggml-vocab-gpt-2.gguf", vocab);
        QTemporaryDir dir;
        const fs::path src = dir.filePath(QStringLiteral("hf")).toStdString();
        fs::create_directories(src);
        const Folder folder = writeFolder(src, arch.toStdString(), tokenizer, vocab);

        convert::ConvertOptions o;
        o.inputs = {src};
        o.output = dir.filePath(QStringLiteral("out.gguf")).toStdString();
        o.outType = convert::OutType::F32;
        const convert::ConvertResult r = convert::convertModel(o);
        QCOMPARE(QString::fromStdString(r.architecture), arch);

        auto file = std::make_shared<gguf::File>(o.output.string());
        const std::string a = arch.toStdString();
        QCOMPARE(file->architecture(), std::string_view(a));
        QCOMPARE(file->getInt(a + ".block_count"), kLayers);
        QCOMPARE(file->getInt(a + ".embedding_length"), kEmbd);
        QCOMPARE(file->getInt(a + ".feed_forward_length"), kFf);
        QCOMPARE(file->getInt(a + ".attention.head_count"), kHeads);
        QCOMPARE(file->getInt(a + ".attention.head_count_kv"), kKvHeads);
        if (spm) { // the SPM vocabulary: llama.cpp's own file has the same pieces, scores and types
            const gguf::File ref(testdata + "/vocab/ggml-vocab-llama-spm.gguf");
            QCOMPARE(file->getString("tokenizer.ggml.model"), std::string_view("llama"));
            QCOMPARE(file->getString("tokenizer.ggml.pre"), std::string_view("default"));
            if (a == "gemma2")
                QCOMPARE(file->findBool("tokenizer.ggml.add_space_prefix"), std::optional<bool>(false));
            const gguf::Value* t = file->findArray("tokenizer.ggml.tokens");
            const gguf::Value* rt = ref.findArray("tokenizer.ggml.tokens");
            const gguf::Value* sc = file->findArray("tokenizer.ggml.scores");
            const gguf::Value* rsc = ref.findArray("tokenizer.ggml.scores");
            const gguf::Value* ty = file->findArray("tokenizer.ggml.token_type");
            const gguf::Value* rty = ref.findArray("tokenizer.ggml.token_type");
            QCOMPARE(t->size(), rt->size());
            for (uint64_t i = 0; i < t->size(); ++i) {
                QCOMPARE(t->stringAt(i), rt->stringAt(i));
                QCOMPARE(sc->floatAt(i), rsc->floatAt(i));
                QCOMPARE(ty->intAt(i), rty->intAt(i));
            }
            if (a == "gemma2") {
                QCOMPARE(file->getFloat("gemma2.attn_logit_softcapping"), 50.0);
                QCOMPARE(file->getFloat("gemma2.final_logit_softcapping"), 30.0);
            }
        } else {
            QCOMPARE(file->getString("tokenizer.ggml.model"), std::string_view("gpt2"));
            QCOMPARE(file->getString("tokenizer.ggml.pre"), std::string_view("gpt-2"));
        }
        QVERIFY(file->findString("tokenizer.chat_template").has_value());
        if (a == "llama") {
            QCOMPARE(file->getInt("llama.vocab_size"), vocab);
            QCOMPARE(file->getInt("llama.rope.dimension_count"), kEmbd / kHeads);
        }

        // Every source tensor, by its GGUF name, with the source's values.
        QCOMPARE(file->tensors().size(), folder.tensors.size() + (a == "llama" ? 1 : a == "phi3" ? 2 : 0));
        if (a == "phi3") {
            QCOMPARE(file->getInt("phi3.rope.scaling.original_context_length"), 128);
            QCOMPARE(file->getInt("phi3.rope.dimension_count"), kEmbd / kHeads);
            QCOMPARE(file->getInt("phi3.attention.sliding_window"), 64);
            // sqrt(1 + ln(256 / 128) / ln(128))
            QCOMPARE(file->getFloat("phi3.rope.scaling.attn_factor"),
                     static_cast<double>(static_cast<float>(std::sqrt(1 + std::log(2.0) / std::log(128.0)))));
            const gguf::TensorInfo* lf = file->findTensor("rope_factors_long.weight");
            QVERIFY(lf && lf->elements() == 8);
            QCOMPARE(reinterpret_cast<const float*>(lf->data)[3], 2.5f);
            QVERIFY(file->findTensor("rope_factors_short.weight"));
        }
        if (a == "llama") {
            // 1 for high frequencies, the factor for low ones, a smooth blend between.
            const gguf::TensorInfo* rf = file->findTensor("rope_freqs.weight");
            QVERIFY(rf);
            const int64_t dim = kEmbd / kHeads;
            QCOMPARE(rf->elements(), dim / 2);
            const float* f = reinterpret_cast<const float*>(rf->data);
            for (int64_t i = 0; i < dim / 2; ++i) {
                const double freq = 1.0 / std::pow(10000.0, 2.0 * static_cast<double>(i) / static_cast<double>(dim));
                const double wavelen = 2 * M_PI / freq;
                double want = 1.0;
                if (wavelen > 64.0)
                    want = 32.0;
                else if (wavelen >= 16.0) {
                    const double smooth = (64.0 / wavelen - 1.0) / 3.0;
                    want = 1.0 / ((1.0 - smooth) / 32.0 + smooth);
                }
                QVERIFY2(std::abs(f[i] - want) <= 1e-5 * want, qPrintable(QString::number(i)));
            }
        }
        const int64_t half = kEmbd / kHeads / 2;
        for (const hftest::Tensor& t : folder.tensors) {
            const bool gemma = a == "gemma3" || a == "gemma2";
            const std::string name = ggufName(t.name, gemma);
            const gguf::TensorInfo* g = file->findTensor(name);
            QVERIFY2(g, (t.name + " -> " + name).c_str());
            QCOMPARE(g->type, GgmlType::F32);
            const bool embd = name == "token_embd.weight";
            // Gemma 3: the rows past the vocabulary go (llama.cpp counts the
            // vocabulary plus the added tokens, <|endoftext|> twice here); norms
            // get 1 added (F16 ones in F16).
            QCOMPARE(static_cast<size_t>(g->elements()),
                     a == "gemma3" && embd ? static_cast<size_t>((vocab + 1) * kEmbd) : t.values.size());
            const bool plusOne = gemma && name.ends_with("norm.weight");
            const float* v = reinterpret_cast<const float*>(g->data);
            const bool permuted = a == "llama" && (name.find("attn_q.weight") != std::string::npos ||
                                                   name.find("attn_k.weight") != std::string::npos);
            const int64_t cols = t.shape.size() > 1 ? t.shape[1] : 1;
            for (size_t e = 0; e < static_cast<size_t>(g->elements()); ++e) {
                int64_t row = static_cast<int64_t>(e) / cols;
                const int64_t col = static_cast<int64_t>(e) % cols;
                if (permuted) { // output row h*2*half + 2i + j comes from source row h*2*half + j*half + i
                    const int64_t h = row / (2 * half), within = row % (2 * half);
                    row = h * 2 * half + (within % 2) * half + within / 2;
                }
                float want = t.values[static_cast<size_t>(row * cols + col)];
                if (plusOne)
                    want = t.dtype == "F16" ? f16ToF32(f32ToF16(want + 1.0f)) : want + 1.0f;
                if (v[e] != want)
                    QFAIL(qPrintable(QStringLiteral("%1 element %2 differs").arg(QString::fromStdString(name)).arg(e)));
            }
        }

        // The engine loads it and computes finite logits.
        cpu::CpuBackend backend(1);
        std::shared_ptr<const Model> model = Model::create(file, backend);
        Context ctx(model, backend, ContextParams{32, 8, GgmlType::F16});
        const std::vector<int32_t> prompt{464, 3139, 286, 4881, 318};
        QVERIFY(ctx.decode(prompt, 0, 0, /*allLogits=*/false));
        const auto logits = ctx.logits(0);
        QCOMPARE(static_cast<int64_t>(logits.size()), file->findTensor("token_embd.weight")->ne[1]);
        if (a == "gemma3") {
            QCOMPARE(file->getInt("gemma3.attention.sliding_window"), 32);
            QCOMPARE(file->getInt("gemma3.attention.key_length"), kEmbd / kHeads);
            QCOMPARE(file->getFloat("gemma3.rope.freq_base_swa"), 10000.0);
            QVERIFY(!file->find("gemma3.final_logit_softcapping"));
        }
        QVERIFY(std::all_of(logits.begin(), logits.end(), [](float x) { return std::isfinite(x); }));
    }

    void refusedTokenizers()
    {
        HEARTH_REQUIRE_TESTDATA(testdata);
        int64_t vocab = 0;
        json tokenizer = gpt2TokenizerJson(testdata + "/vocab/ggml-vocab-gpt-2.gguf", vocab);
        tokenizer["model"]["byte_fallback"] = true; // Llama 2 style: not written yet, a clear error
        QTemporaryDir dir;
        const fs::path src = dir.filePath(QStringLiteral("hf")).toStdString();
        fs::create_directories(src);
        writeFolder(src, "llama", tokenizer, vocab);
        convert::ConvertOptions o;
        o.inputs = {src};
        o.output = dir.filePath(QStringLiteral("out.gguf")).toStdString();
        try {
            convert::convertModel(o);
            QFAIL("a byte-fallback tokenizer was accepted");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("byte fallback") != std::string::npos, e.what());
        }
        QVERIFY(!fs::exists(o.output) && !fs::exists(o.output.string() + ".tmp"));
    }

    // A Llama 2 style folder: tokenizer.model takes precedence (LlamaModel
    // tries SentencePiece first); the engine runs the result.
    void llamaSentencePiece()
    {
        HEARTH_REQUIRE_TESTDATA(testdata);
        int64_t vocab = 0;
        const std::string spm = testdata + "/vocab/ggml-vocab-llama-spm.gguf";
        QTemporaryDir dir;
        const fs::path src = dir.filePath(QStringLiteral("hf")).toStdString();
        fs::create_directories(src);
        const json spmModel = json::binary(spmModelBytes(spm, vocab)); // sets vocab
        writeFolder(src, "llama", spmModel, vocab);
        convert::ConvertOptions o;
        o.inputs = {src};
        o.output = dir.filePath(QStringLiteral("out.gguf")).toStdString();
        try {
            convert::convertModel(o);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        auto file = std::make_shared<gguf::File>(o.output.string());
        const gguf::File ref(spm);
        QCOMPARE(file->getString("tokenizer.ggml.model"), std::string_view("llama"));
        QCOMPARE(file->getString("tokenizer.ggml.pre"), std::string_view("default"));
        const gguf::Value* t = file->findArray("tokenizer.ggml.tokens");
        const gguf::Value* rt = ref.findArray("tokenizer.ggml.tokens");
        QCOMPARE(t->size(), rt->size());
        for (uint64_t i = 0; i < t->size(); i += 97)
            QCOMPARE(t->stringAt(i), rt->stringAt(i));
        cpu::CpuBackend backend(1);
        std::shared_ptr<const Model> model = Model::create(file, backend);
        Context ctx(model, backend, ContextParams{32, 8, GgmlType::F16});
        const std::vector<int32_t> prompt{1, 450, 7483, 310};
        QVERIFY(ctx.decode(prompt, 0, 0, /*allLogits=*/false));
        QCOMPARE(static_cast<int64_t>(ctx.logits(0).size()), vocab);
    }

    // A broken tokenizer.model: truncated, a length past the end, an
    // unknown wire type, a piece type out of range, no pieces. Each is an
    // error naming the file; no output file.
    void corruptSentencePiece_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("truncated") << 0;
        QTest::newRow("length past the end") << 1;
        QTest::newRow("bad wire type") << 2;
        QTest::newRow("bad piece type") << 3;
        QTest::newRow("no pieces") << 4;
    }

    void corruptSentencePiece()
    {
        QFETCH(int, kind);
        HEARTH_REQUIRE_TESTDATA(testdata);
        int64_t vocab = 0;
        std::vector<uint8_t> model = spmModelBytes(testdata + "/vocab/ggml-vocab-llama-spm.gguf", vocab);
        switch (kind) {
        case 0: model.resize(model.size() / 2 + 3); break;
        case 1: model = {0x0a, 0xff, 0xff, 0x03, 0x0a, 0x01}; break;
        case 2: model.insert(model.begin(), {0x0f, 0x00}); break; // field 1, wire type 7
        case 3: model = {0x0a, 0x05, 0x0a, 0x01, 'a', 0x18, 0x09}; break;
        default: model = {0x12, 0x02, 0x18, 0x01}; break;
        }
        QTemporaryDir dir;
        const fs::path src = dir.filePath(QStringLiteral("hf")).toStdString();
        fs::create_directories(src);
        writeFolder(src, "gemma2", json::binary(model), vocab);
        convert::ConvertOptions o;
        o.inputs = {src};
        o.output = dir.filePath(QStringLiteral("out.gguf")).toStdString();
        try {
            convert::convertModel(o);
            QFAIL("a broken tokenizer.model was accepted");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("tokenizer.model") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("not a SentencePiece model") != std::string::npos, e.what());
        }
        QVERIFY(!fs::exists(o.output) && !fs::exists(o.output.string() + ".tmp"));
    }
};

QTEST_GUILESS_MAIN(TestConvertLlama)
#include "test_convert_llama.moc"

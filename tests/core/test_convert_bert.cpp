// hearth convert on the real all-MiniLM-L6-v2 (BERT) folder that scripts/setup
// fetches: the keys, tensor names and types llama.cpp's BERT loader reads
// (scripts/refs/check_convert_with_llama_cpp.py loads the result in
// llama.cpp itself), tensor data equal to the source (F32 exactly, Q8_0 as
// the reference quantizer gives it), and the tokenizer giving Hugging Face's
// ids.

#include "test_support.h"

#include "convert/converter.h"
#include "convert/pre_tokenizer_detect.h"
#include "convert/safetensors.h"
#include "gguf/gguf.h"
#include "quant/legacy.h"
#include "tokenizer/tokenizer.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <set>

using namespace hearth;

namespace {

// What llama.cpp's bert model loads (src/models: tok_embd, type_embd,
// pos_embd, tok_norm + per layer wq/wk/wv, wo, attn_out_norm, ffn_up,
// ffn_down, layer_out_norm, each with its bias).
std::set<std::string> llamaCppBertTensors(int layers)
{
    std::set<std::string> names{"token_embd.weight", "token_types.weight", "position_embd.weight",
                                "token_embd_norm.weight", "token_embd_norm.bias"};
    for (int i = 0; i < layers; ++i)
        for (const char* t : {"attn_q", "attn_k", "attn_v", "attn_output", "attn_output_norm", "ffn_up", "ffn_down",
                              "layer_output_norm"})
            for (const char* s : {".weight", ".bias"})
                names.insert("blk." + std::to_string(i) + "." + t + s);
    return names;
}

} // namespace

class TestConvertBert : public QObject {
    Q_OBJECT

private:
    std::string m_source;
    QTemporaryDir m_tmp;

    std::string convertTo(convert::OutType type, const char* file)
    {
        convert::ConvertOptions o;
        o.inputs = {m_source};
        o.output = m_tmp.filePath(QString::fromUtf8(file)).toStdString();
        o.outType = type;
        convert::convertModel(o);
        return o.output.string();
    }

private slots:
    void init()
    {
        m_source = testsupport::hfSourceDir("all-MiniLM-L6-v2");
        if (m_source.empty())
            QSKIP(testsupport::kSourceMissing);
    }

    void metadataAsLlamaCpp()
    {
        const gguf::File f(convertTo(convert::OutType::Q8_0, "minilm-q8.gguf"));
        QCOMPARE(f.architecture(), std::string_view("bert"));
        QCOMPARE(f.getInt("bert.block_count"), 6);
        QCOMPARE(f.getInt("bert.context_length"), 512);
        QCOMPARE(f.getInt("bert.embedding_length"), 384);
        QCOMPARE(f.getInt("bert.feed_forward_length"), 1536);
        QCOMPARE(f.getInt("bert.attention.head_count"), 12);
        QCOMPARE(static_cast<float>(f.getFloat("bert.attention.layer_norm_epsilon")), 1e-12f);
        QCOMPARE(f.findBool("bert.attention.causal"), std::optional<bool>(false));
        QCOMPARE(f.getInt("bert.pooling_type"), 1); // mean, from 1_Pooling/config.json
        QCOMPARE(f.getInt("general.file_type"), 7);
        QCOMPARE(f.getString("tokenizer.ggml.model"), std::string_view("bert"));
        // The check-text hash of this tokenizer is bge's; llama.cpp's table
        // names it twice and the later entry wins.
        QCOMPARE(f.getString("tokenizer.ggml.pre"), std::string_view("jina-v2-en"));
        QCOMPARE(f.getInt("tokenizer.ggml.token_type_count"), 2);
        QCOMPARE(f.getInt("tokenizer.ggml.bos_token_id"), 101); // [CLS]
        QCOMPARE(f.getInt("tokenizer.ggml.eos_token_id"), 102); // [SEP]
        QCOMPARE(f.getInt("tokenizer.ggml.unknown_token_id"), 100);
        QCOMPARE(f.getInt("tokenizer.ggml.seperator_token_id"), 102);
        QCOMPARE(f.getInt("tokenizer.ggml.padding_token_id"), 0);
        QCOMPARE(f.getInt("tokenizer.ggml.mask_token_id"), 103);
        QCOMPARE(f.findBool("tokenizer.ggml.add_bos_token"), std::optional<bool>(true));
        QCOMPARE(f.findBool("tokenizer.ggml.add_eos_token"), std::optional<bool>(true));
        const gguf::Value* tokens = f.findArray("tokenizer.ggml.tokens");
        QVERIFY(tokens);
        QCOMPARE(tokens->size(), uint64_t{30522});
        QCOMPARE(tokens->stringAt(101), std::string_view("[CLS]"));      // control: as is
        QCOMPARE(tokens->stringAt(1996), std::string_view("\u2581the")); // word start: U+2581
        QCOMPARE(tokens->stringAt(2015), std::string_view("s"));         // "##s": prefix removed
    }

    void tensorsAsLlamaCpp()
    {
        const gguf::File f(m_tmp.filePath(QStringLiteral("minilm-q8.gguf")).toStdString());
        std::set<std::string> names;
        int q8 = 0;
        for (const gguf::TensorInfo& t : f.tensors()) {
            names.insert(std::string(t.name));
            const bool matrix = t.ne[1] > 1 && t.name != "position_embd.weight" && t.name != "token_types.weight";
            QCOMPARE(t.type, matrix ? GgmlType::Q8_0 : GgmlType::F32);
            q8 += t.type == GgmlType::Q8_0;
        }
        QCOMPARE(names, llamaCppBertTensors(6));
        QCOMPARE(q8, 37);
    }

    // F32 output is the source's bytes; Q8_0 is the reference quantizer's.
    void dataEqualsSource()
    {
        const gguf::File f32(convertTo(convert::OutType::F32, "minilm-f32.gguf"));
        const gguf::File q8(m_tmp.filePath(QStringLiteral("minilm-q8.gguf")).toStdString());
        const convert::SafetensorsFile src(m_source + "/model.safetensors");
        for (const convert::StTensor& s : src.tensors()) {
            std::string name = s.name;
            if (name == "embeddings.position_ids" || name.starts_with("pooler."))
                continue;
            QCOMPARE(s.dtype, convert::StDtype::F32);
            const auto it = std::find_if(f32.tensors().begin(), f32.tensors().end(), [&](const gguf::TensorInfo& t) {
                return t.bytes == s.bytes && std::memcmp(t.data, s.data, s.bytes) == 0;
            });
            QVERIFY2(it != f32.tensors().end(), s.name.c_str());
            const gguf::TensorInfo* t = q8.findTensor(it->name);
            QVERIFY(t);
            if (t->type != GgmlType::Q8_0)
                continue;
            std::vector<BlockQ8_0> want(static_cast<size_t>(t->elements() / 32));
            const int64_t n = t->ne[0];
            for (int64_t r = 0; r < t->rows(); ++r)
                quantizeRowQ8_0(reinterpret_cast<const float*>(s.data) + r * n, want.data() + r * n / 32, n);
            QVERIFY(std::memcmp(t->data, want.data(), t->bytes) == 0);
        }
    }

    // Hugging Face's ids (tokenizers, and llama.cpp on this file).
    void tokenizesAsHuggingFace()
    {
        const gguf::File f(m_tmp.filePath(QStringLiteral("minilm-q8.gguf")).toStdString());
        const auto tok = Tokenizer::fromGguf(f);
        QCOMPARE(tok->encode("This is an example sentence", true, false),
                 (std::vector<TokenId>{101, 2023, 2003, 2019, 2742, 6251, 102}));
        const std::vector<TokenId> ids = tok->encode(convert::preTokenizerCheckText(), true, false);
        QCOMPARE(convert::sha256Hex(convert::pythonListString(ids)),
                 std::string("0876d13b50744004aa9aeae05e7b0647eac9d801b5ba4668afc01e709c15e19f"));
    }
};

QTEST_GUILESS_MAIN(TestConvertBert)
#include "test_convert_bert.moc"

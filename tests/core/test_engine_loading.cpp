// Loading refuses bad models with a clear message (unknown architecture,
// missing or misshapen tensors, types the backend cannot compute with,
// absurd hyperparameters), and the q8_0 KV cache works where the head size
// allows it and is refused where it does not.

#include "test_support.h"

#include "cpu/cpu_backend.h"
#include "gguf/gguf.h"
#include "gguf/gguf_writer.h"
#include "model/model.h"
#include "runtime/context.h"
#include "util/error.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <vector>

using namespace hearth;

namespace {

struct Spec {
    std::string arch = "llama";
    int64_t layers = 1;
    int64_t embd = 32;
    int64_t ff = 64;
    GgmlType attnType = GgmlType::F32;
    bool dropAttnQ = false;
    int64_t attnQRows = 32;
};

void addF32(gguf::Writer& w, const std::string& name, std::vector<int64_t> ne)
{
    int64_t n = 1;
    for (int64_t d : ne)
        n *= d;
    std::vector<float> v(static_cast<size_t>(n), 0.01f);
    w.addTensor(name, GgmlType::F32, ne,
                std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(float)));
}

std::string writeModel(const QTemporaryDir& dir, const Spec& s, const char* name)
{
    gguf::Writer w;
    w.addString("general.architecture", s.arch);
    const std::string a = s.arch;
    w.addUInt32(a + ".block_count", static_cast<uint32_t>(s.layers));
    w.addUInt32(a + ".embedding_length", static_cast<uint32_t>(s.embd));
    w.addUInt32(a + ".feed_forward_length", static_cast<uint32_t>(s.ff));
    w.addUInt32(a + ".attention.head_count", 2);
    w.addUInt32(a + ".attention.head_count_kv", 2);
    w.addUInt32(a + ".context_length", 64);
    addF32(w, "token_embd.weight", {s.embd, 16});
    addF32(w, "output_norm.weight", {s.embd});
    for (int64_t i = 0; i < std::min<int64_t>(s.layers, 2); ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        addF32(w, b + "attn_norm.weight", {s.embd});
        if (!s.dropAttnQ) {
            if (s.attnType == GgmlType::F32) {
                addF32(w, b + "attn_q.weight", {s.embd, s.attnQRows});
            } else {
                std::vector<uint8_t> raw(rowBytes(s.attnType, s.embd * 8) * static_cast<size_t>(s.attnQRows) / 8);
                w.addTensor(b + "attn_q.weight", s.attnType, std::vector<int64_t>{s.embd * 8, s.attnQRows / 8}, raw);
            }
        }
        addF32(w, b + "attn_k.weight", {s.embd, s.embd});
        addF32(w, b + "attn_v.weight", {s.embd, s.embd});
        addF32(w, b + "attn_output.weight", {s.embd, s.embd});
        addF32(w, b + "ffn_norm.weight", {s.embd});
        addF32(w, b + "ffn_gate.weight", {s.embd, s.ff});
        addF32(w, b + "ffn_up.weight", {s.embd, s.ff});
        addF32(w, b + "ffn_down.weight", {s.ff, s.embd});
    }
    const std::string path = dir.path().toStdString() + "/" + name + ".gguf";
    w.write(path);
    return path;
}

// The message of the error create() throws, or "" when it loads.
std::string loadError(const std::string& path)
{
    cpu::CpuBackend backend(1);
    try {
        Model::create(std::make_shared<gguf::File>(path), backend);
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestEngineLoading : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void validModelLoads() { QVERIFY(loadError(writeModel(m_dir, Spec{}, "ok")).empty()); }

    void unknownArchitectureIsNamed()
    {
        Spec s;
        s.arch = "frobnicator";
        const std::string e = loadError(writeModel(m_dir, s, "arch"));
        QVERIFY2(e.find("frobnicator") != std::string::npos && e.find("supported") != std::string::npos, e.c_str());
    }

    void missingTensorIsNamed()
    {
        Spec s;
        s.dropAttnQ = true;
        const std::string e = loadError(writeModel(m_dir, s, "missing"));
        QVERIFY2(e.find("blk.0.attn_q.weight") != std::string::npos && e.find("missing") != std::string::npos,
                 e.c_str());
    }

    void wrongShapeIsNamed()
    {
        Spec s;
        s.attnQRows = 48;
        const std::string e = loadError(writeModel(m_dir, s, "shape"));
        QVERIFY2(e.find("blk.0.attn_q.weight") != std::string::npos && e.find("shape") != std::string::npos, e.c_str());
    }

    void unsupportedTypeIsNamed()
    {
        Spec s;
        s.embd = 32;
        s.attnType = GgmlType::IQ2_XXS;
        s.attnQRows = 32 * 8;
        const std::string e = loadError(writeModel(m_dir, s, "type"));
        QVERIFY2(!e.empty(), "an IQ2_XXS weight was accepted");
    }

    void absurdHyperparametersAreRefused()
    {
        Spec s;
        s.layers = int64_t{1} << 40;
        const std::string e = loadError(writeModel(m_dir, s, "layers"));
        QVERIFY2(e.find("block_count") != std::string::npos, e.c_str());
    }

    void q8KvCacheNeedsWholeBlocks()
    {
        cpu::CpuBackend backend(1);
        std::shared_ptr<const Model> model =
            Model::create(std::make_shared<gguf::File>(writeModel(m_dir, Spec{}, "kv")), backend);
        // head size 16: q8_0 rows need multiples of 32
        QVERIFY_THROWS_EXCEPTION(Error, Context(model, backend, ContextParams{32, 8, GgmlType::Q8_0}));
        QVERIFY_THROWS_EXCEPTION(Error, Context(model, backend, ContextParams{32, 8, GgmlType::Q4_K}));
    }

    // On a real model a q8_0 cache gives logits close to the f16 cache's.
    void q8KvCacheOnRealModel()
    {
        HEARTH_REQUIRE_MODEL(path, smolLm2Path);
        cpu::CpuBackend backend(2);
        std::shared_ptr<const Model> model = Model::create(std::make_shared<gguf::File>(path), backend);
        const std::vector<int32_t> prompt = {504, 3575, 282, 4649, 314, 7042, 30};
        std::vector<float> ref;
        for (const GgmlType type : {GgmlType::F16, GgmlType::Q8_0}) {
            Context ctx(model, backend, ContextParams{64, 16, type});
            QVERIFY(ctx.decode(prompt, 0, 0, false));
            const auto l = ctx.logits(0);
            if (ref.empty()) {
                ref.assign(l.begin(), l.end());
                continue;
            }
            double diff = 0, scale = 0;
            for (size_t i = 0; i < ref.size(); ++i) {
                diff = std::max(diff, std::abs(double(l[i]) - ref[i]));
                scale = std::max(scale, std::abs(double(ref[i])));
            }
            qInfo("q8_0 vs f16 cache: max |diff| %.3g of %.3g", diff, scale);
            QVERIFY(diff < 0.1 * scale);
        }
    }
};

QTEST_GUILESS_MAIN(TestEngineLoading)
#include "test_engine_loading.moc"

// The per-tensor type rules of `hearth quantize` (core/quantize/quant_policy)
// against llama.cpp's llama-quantize rules as src/llama-quant.cpp states
// them, worked out here by hand for model shapes where they differ: a
// Llama-3.2-1B-shaped model (16 layers, GQA 4, tied embeddings), SmolLM2
// (rows of 576: fallbacks), an untied model, an 8-expert model. The
// byte-level check against llama.cpp itself is test_quantize_golden.

#include "quantize/quant_policy.h"
#include "util/error.h"

#include <QTest>

#include <algorithm>
#include <set>

using namespace hearth;
using namespace hearth::quantize;

namespace {

struct Model {
    ModelShape shape;
    std::vector<TensorShape> tensors;
};

void add(Model& m, const std::string& name, std::array<int64_t, 4> ne, GgmlType type = GgmlType::F16)
{
    m.tensors.push_back({name, type, ne});
}

// A decoder in GGUF names, F16 weights and F32 norms, sorted as llama.cpp does.
Model decoder(const std::string& arch, int layers, int64_t embd, int64_t ff, int64_t vocab, int heads, int kvHeads,
              bool tied)
{
    Model m;
    m.shape = {arch, layers, heads, kvHeads, 0};
    const int64_t kv = embd / heads * kvHeads;
    add(m, "token_embd.weight", {embd, vocab, 1, 1});
    add(m, "output_norm.weight", {embd, 1, 1, 1}, GgmlType::F32);
    if (!tied)
        add(m, "output.weight", {embd, vocab, 1, 1});
    for (int i = 0; i < layers; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        add(m, b + "attn_norm.weight", {embd, 1, 1, 1}, GgmlType::F32);
        add(m, b + "attn_q.weight", {embd, embd, 1, 1});
        add(m, b + "attn_k.weight", {embd, kv, 1, 1});
        add(m, b + "attn_v.weight", {embd, kv, 1, 1});
        add(m, b + "attn_output.weight", {embd, embd, 1, 1});
        add(m, b + "ffn_norm.weight", {embd, 1, 1, 1}, GgmlType::F32);
        add(m, b + "ffn_gate.weight", {embd, ff, 1, 1});
        add(m, b + "ffn_up.weight", {embd, ff, 1, 1});
        add(m, b + "ffn_down.weight", {ff, embd, 1, 1});
    }
    std::stable_sort(m.tensors.begin(), m.tensors.end(),
                     [](const TensorShape& a, const TensorShape& b) { return tensorOrderLess(a.name, b.name); });
    return m;
}

GgmlType typeOf(const Model& m, const std::vector<TensorPlan>& plan, const std::string& name)
{
    for (size_t i = 0; i < m.tensors.size(); ++i)
        if (m.tensors[i].name == name)
            return plan[i].type;
    qFatal("no tensor %s", name.c_str());
}

std::string blk(int i, const char* what)
{
    return "blk." + std::to_string(i) + "." + what + ".weight";
}

const char* name(GgmlType t)
{
    return typeTraits(t).name.data();
}

#define CHECK_TYPE(model, plan, tensor, expected)                                                                      \
    do {                                                                                                               \
        const GgmlType got_ = typeOf(model, plan, tensor);                                                             \
        if (got_ != (expected))                                                                                        \
            QFAIL(qPrintable(QStringLiteral("%1: %2, expected %3")                                                     \
                                 .arg(QString::fromStdString(tensor), name(got_), name(expected))));                   \
    } while (0)

// use_more_bits for 16 layers: i < 2, i >= 14, or (i - 2) % 3 == 2.
const std::set<int> kMoreBits16{0, 1, 4, 7, 10, 13, 14, 15};

} // namespace

class TestQuantizePolicy : public QObject {
    Q_OBJECT

private slots:
    void mixNames()
    {
        QCOMPARE(parseMix("q4_k_m"), std::optional(Mix::Q4_K_M));
        QCOMPARE(parseMix("Q4_K"), std::optional(Mix::Q4_K_M)); // llama-quantize's aliases
        QCOMPARE(parseMix("Q3_K"), std::optional(Mix::Q3_K_M));
        QCOMPARE(parseMix("Q5_K"), std::optional(Mix::Q5_K_M));
        QCOMPARE(parseMix("15"), std::optional(Mix::Q4_K_M)); // llama_ftype ids
        QCOMPARE(parseMix("30"), std::optional(Mix::IQ4_XS));
        QCOMPARE(parseMix("Q4_K_X"), std::nullopt);
        QCOMPARE(parseMix("IQ2_XXS"), std::nullopt); // needs an importance matrix: not offered
        QCOMPARE(parseMix(""), std::nullopt);
        QCOMPARE(mixInfo(Mix::IQ4_XS).defaultType, GgmlType::IQ4_XS);
        QVERIFY(quantize::mixNames().find("Q5_K_M") != std::string::npos);
    }

    void orderByLayerThenName()
    {
        QVERIFY(tensorOrderLess("output.weight", "blk.0.attn_k.weight"));
        QVERIFY(tensorOrderLess("blk.2.ffn_up.weight", "blk.10.attn_k.weight")); // by number, not text
        QVERIFY(tensorOrderLess("blk.3.attn_k.weight", "blk.3.attn_q.weight"));
        QVERIFY(!tensorOrderLess("blk.3.attn_q.weight", "blk.3.attn_q.weight"));
        QCOMPARE(countDims({2048, 1, 1, 1}), 1);
        QCOMPARE(countDims({2048, 1, 8, 1}), 3);
    }

    void llama1bQ4KM()
    {
        const Model m = decoder("llama", 16, 2048, 8192, 128256, 32, 8, /*tied=*/true);
        const auto plan = planTypes(m.shape, m.tensors, {Mix::Q4_K_M});
        CHECK_TYPE(m, plan, std::string("token_embd.weight"), GgmlType::Q6_K); // tied: the output rule
        CHECK_TYPE(m, plan, std::string("output_norm.weight"), GgmlType::F32);
        for (int i = 0; i < 16; ++i) {
            const GgmlType bumped = kMoreBits16.count(i) ? GgmlType::Q6_K : GgmlType::Q4_K;
            CHECK_TYPE(m, plan, blk(i, "attn_v"), bumped);
            CHECK_TYPE(m, plan, blk(i, "ffn_down"), bumped);
            CHECK_TYPE(m, plan, blk(i, "attn_q"), GgmlType::Q4_K);
            CHECK_TYPE(m, plan, blk(i, "attn_k"), GgmlType::Q4_K);
            CHECK_TYPE(m, plan, blk(i, "attn_output"), GgmlType::Q4_K);
            CHECK_TYPE(m, plan, blk(i, "ffn_gate"), GgmlType::Q4_K);
            CHECK_TYPE(m, plan, blk(i, "attn_norm"), GgmlType::F32);
        }
        QVERIFY(std::none_of(plan.begin(), plan.end(), [](const TensorPlan& p) { return p.fallback; }));
    }

    void llama1bOtherMixes()
    {
        const Model m = decoder("llama", 16, 2048, 8192, 128256, 32, 8, true);
        const auto iq4 = planTypes(m.shape, m.tensors, {Mix::IQ4_XS});
        const auto q3m = planTypes(m.shape, m.tensors, {Mix::Q3_K_M});
        const auto q4s = planTypes(m.shape, m.tensors, {Mix::Q4_K_S});
        const auto q2 = planTypes(m.shape, m.tensors, {Mix::Q2_K});
        const auto q80 = planTypes(m.shape, m.tensors, {Mix::Q8_0});
        CHECK_TYPE(m, iq4, std::string("token_embd.weight"), GgmlType::Q6_K);
        CHECK_TYPE(m, q80, std::string("token_embd.weight"), GgmlType::Q8_0); // Q8_0 stays Q8_0
        for (int i = 0; i < 16; ++i) {
            CHECK_TYPE(m, iq4, blk(i, "attn_v"), GgmlType::Q5_K); // GQA >= 4
            CHECK_TYPE(m, iq4, blk(i, "ffn_down"), i < 2 ? GgmlType::Q5_K : GgmlType::IQ4_XS);
            CHECK_TYPE(m, iq4, blk(i, "attn_q"), GgmlType::IQ4_XS);
            CHECK_TYPE(m, q3m, blk(i, "attn_v"), i < 2 ? GgmlType::Q5_K : GgmlType::Q4_K);
            CHECK_TYPE(m, q3m, blk(i, "ffn_down"), i < 1 ? GgmlType::Q5_K : GgmlType::Q4_K);
            CHECK_TYPE(m, q3m, blk(i, "attn_output"), GgmlType::Q4_K);
            CHECK_TYPE(m, q3m, blk(i, "attn_q"), GgmlType::Q3_K);
            CHECK_TYPE(m, q4s, blk(i, "attn_v"), i < 4 ? GgmlType::Q5_K : GgmlType::Q4_K);
            CHECK_TYPE(m, q4s, blk(i, "ffn_down"), i < 2 ? GgmlType::Q5_K : GgmlType::Q4_K);
            CHECK_TYPE(m, q2, blk(i, "attn_v"), GgmlType::Q4_K); // GQA >= 4
            CHECK_TYPE(m, q2, blk(i, "ffn_down"), GgmlType::Q3_K);
            CHECK_TYPE(m, q2, blk(i, "attn_output"), GgmlType::Q3_K);
            CHECK_TYPE(m, q2, blk(i, "ffn_up"), GgmlType::Q2_K);
            CHECK_TYPE(m, q80, blk(i, "attn_v"), GgmlType::Q8_0);
        }
    }

    void smolLm2Fallbacks()
    {
        // Rows of 576 fit 32-blocks but not 256-blocks; GQA 3.
        const Model m = decoder("llama", 30, 576, 1536, 49152, 9, 3, true);
        const auto q4km = planTypes(m.shape, m.tensors, {Mix::Q4_K_M});
        const auto q6 = planTypes(m.shape, m.tensors, {Mix::Q6_K});
        const auto iq4 = planTypes(m.shape, m.tensors, {Mix::IQ4_XS});
        const auto q40 = planTypes(m.shape, m.tensors, {Mix::Q4_0});
        CHECK_TYPE(m, q4km, std::string("token_embd.weight"), GgmlType::Q8_0); // output rule: rows % 256
        CHECK_TYPE(m, q40, std::string("token_embd.weight"), GgmlType::Q8_0);  // Q6_K, then its fallback
        for (int i = 0; i < 30; ++i) {
            const bool more = i < 3 || i >= 26 || (i - 3) % 3 == 2;
            CHECK_TYPE(m, q4km, blk(i, "attn_q"), GgmlType::Q5_0);
            CHECK_TYPE(m, q4km, blk(i, "attn_v"), more ? GgmlType::Q8_0 : GgmlType::Q5_0);
            CHECK_TYPE(m, q4km, blk(i, "ffn_down"), more ? GgmlType::Q6_K : GgmlType::Q4_K); // rows of 1536
            CHECK_TYPE(m, q6, blk(i, "attn_q"), GgmlType::Q8_0);
            CHECK_TYPE(m, q6, blk(i, "ffn_down"), GgmlType::Q6_K);
            CHECK_TYPE(m, iq4, blk(i, "attn_v"), GgmlType::IQ4_NL); // GQA 3: no bump
            CHECK_TYPE(m, iq4, blk(i, "ffn_down"), i < 3 ? GgmlType::Q5_K : GgmlType::IQ4_XS);
            CHECK_TYPE(m, q40, blk(i, "attn_q"), GgmlType::Q4_0);
        }
        const auto fallbacks = std::count_if(q4km.begin(), q4km.end(), [](const TensorPlan& p) { return p.fallback; });
        QCOMPARE(fallbacks, 30 * 6); // q, k, v, output, gate, up of every layer
    }

    void untiedOutputAndFlags()
    {
        const Model m = decoder("qwen2", 8, 512, 1024, 1000, 8, 8, /*tied=*/false);
        const auto q40 = planTypes(m.shape, m.tensors, {Mix::Q4_0});
        CHECK_TYPE(m, q40, std::string("output.weight"), GgmlType::Q6_K);
        CHECK_TYPE(m, q40, std::string("token_embd.weight"), GgmlType::Q4_0); // untied: the mix's type
        const auto kept = planTypes(m.shape, m.tensors, {Mix::Q4_0, /*leaveOutputTensor=*/true});
        CHECK_TYPE(m, kept, std::string("output.weight"), GgmlType::F16);
        const auto pure = planTypes(m.shape, m.tensors, {Mix::Q4_K_M, false, /*pure=*/true});
        CHECK_TYPE(m, pure, std::string("output.weight"), GgmlType::Q4_K);
        CHECK_TYPE(m, pure, blk(0, "attn_v"), GgmlType::Q4_K);
        CHECK_TYPE(m, pure, blk(0, "attn_norm"), GgmlType::F32);
        const auto f16 = planTypes(m.shape, m.tensors, {Mix::BF16});
        CHECK_TYPE(m, f16, std::string("output.weight"), GgmlType::BF16); // float mixes: no rules
        CHECK_TYPE(m, f16, blk(3, "ffn_down"), GgmlType::BF16);
        CHECK_TYPE(m, f16, blk(3, "ffn_norm"), GgmlType::F32);
        // GQA 1: Q2_K's attn_v gets Q3_K, not Q4_K.
        const auto q2 = planTypes(m.shape, m.tensors, {Mix::Q2_K});
        CHECK_TYPE(m, q2, blk(0, "attn_v"), GgmlType::Q3_K);
    }

    void eightExperts()
    {
        Model m;
        m.shape = {"llama", 2, 32, 8, 8};
        add(m, "blk.0.attn_k.weight", {4096, 1024, 1, 1});
        add(m, "blk.0.attn_v.weight", {4096, 1024, 1, 1});
        add(m, "blk.0.ffn_down_exps.weight", {14336, 4096, 8, 1});
        add(m, "blk.0.ffn_gate_inp.weight", {4096, 8, 1, 1}, GgmlType::F32);
        add(m, "blk.1.attn_output.weight", {4096, 4096, 1, 1});
        add(m, "blk.1.ffn_down_exps.weight", {14336, 4096, 8, 1});
        add(m, "output.weight", {4096, 32000, 1, 1});
        const auto plan = planTypes(m.shape, m.tensors, {Mix::Q4_K_M});
        CHECK_TYPE(m, plan, std::string("blk.0.attn_k.weight"), GgmlType::Q8_0);
        CHECK_TYPE(m, plan, std::string("blk.0.attn_v.weight"), GgmlType::Q8_0);
        CHECK_TYPE(m, plan, std::string("blk.0.ffn_gate_inp.weight"), GgmlType::F32); // expert gates stay
        CHECK_TYPE(m, plan, std::string("blk.1.attn_output.weight"), GgmlType::Q5_K);
        // The layer comes from the name: blk.1 of 2 layers is "more bits".
        CHECK_TYPE(m, plan, std::string("blk.1.ffn_down_exps.weight"), GgmlType::Q6_K);
        m.tensors.push_back({"blk.7.ffn_down_exps.weight", GgmlType::F16, {14336, 4096, 8, 1}});
        QVERIFY_THROWS_EXCEPTION(Error, planTypes(m.shape, m.tensors, {Mix::Q4_K_M})); // layer 7 of 2
    }

    void rowsThatFitNothing()
    {
        Model m;
        m.shape = {"llama", 1, 1, 1, 0};
        add(m, "blk.0.attn_q.weight", {96, 48, 1, 1});
        const auto k = planTypes(m.shape, m.tensors, {Mix::Q4_K_M});
        QCOMPARE(k[0].type, GgmlType::Q5_0); // 96 % 256 != 0: Q4_K falls back to Q5_0
        QVERIFY(k[0].fallback);
        m.tensors[0].ne = {40, 48, 1, 1}; // 40 fits neither 256 nor 32
        const auto f = planTypes(m.shape, m.tensors, {Mix::Q4_K_M});
        QCOMPARE(f[0].type, GgmlType::F16);
        // A 32-block mix that does not fit has no smaller block: F16.
        const auto q8 = planTypes(m.shape, m.tensors, {Mix::Q8_0});
        QCOMPARE(q8[0].type, GgmlType::F16);
        QVERIFY(q8[0].fallback);
    }
};

QTEST_APPLESS_MAIN(TestQuantizePolicy)
#include "test_quantize_policy.moc"

// hearth quantize on a small synthetic F16 model: the written file has the
// planned types, each tensor's bytes are the scalar reference quantization of
// its values (which test_quant_quantize shows bit-exact with ggml's), the
// metadata is the input's in order with general.quantization_version and
// general.file_type last, the bytes do not depend on the thread count, and
// refusals (requantizing, values that overflow a scale, cancelling) leave no
// output file.

#include "gguf/gguf.h"
#include "gguf/gguf_writer.h"
#include "quant/types.h"
#include "quantize/quantizer.h"
#include "util/error.h"
#include "util/half.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace hearth;
using namespace hearth::quantize;
namespace fs = std::filesystem;

namespace {

std::vector<float> values(int64_t n, uint32_t seed)
{
    std::vector<float> v(static_cast<size_t>(n));
    uint32_t s = seed * 2654435761u + 1;
    for (float& x : v) {
        s = s * 1664525u + 1013904223u;
        x = (static_cast<float>(s >> 8) / 16777216.0f - 0.5f) * 0.2f;
    }
    return v;
}

std::vector<uint8_t> encode(GgmlType t, const std::vector<float>& v)
{
    std::vector<uint8_t> out(rowBytes(t, static_cast<int64_t>(v.size())));
    typeTraits(t).quantize(v.data(), out.data(), static_cast<int64_t>(v.size()));
    return out;
}

// A 2-layer llama-style model: F16 weights (stored as the f16 of `values`),
// F32 norms; rows of 256 and 512 so that every mix's types fit.
std::string writeModel(const QTemporaryDir& dir, GgmlType weightType = GgmlType::F16, float spike = 0.0f)
{
    gguf::Writer w;
    w.addString("general.architecture", "llama");
    w.addString("general.name", "tiny");
    w.addUInt32("general.file_type", 1);
    w.addUInt32("llama.block_count", 2);
    w.addUInt32("llama.attention.head_count", 4);
    w.addUInt32("llama.attention.head_count_kv", 1);
    w.addUInt32("general.quantization_version", 2);
    w.addString("zz.after", "kept in place");
    uint32_t seed = 1;
    const auto tensor = [&](const std::string& name, std::vector<int64_t> ne, GgmlType t) {
        int64_t n = 1;
        for (int64_t d : ne)
            n *= d;
        std::vector<float> v = values(n, seed++);
        if (spike != 0.0f && name == "blk.1.ffn_up.weight")
            v[3] = spike;
        w.addTensor(name, t, ne, encode(t, v));
    };
    // Out of llama.cpp's order on purpose: the output is sorted by layer, then name.
    tensor("blk.1.ffn_up.weight", {256, 512}, weightType);
    tensor("blk.0.attn_v.weight", {256, 64}, weightType);
    tensor("token_embd.weight", {256, 300}, weightType);
    tensor("output_norm.weight", {256}, GgmlType::F32);
    for (int i = 0; i < 2; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        tensor(b + "attn_norm.weight", {256}, GgmlType::F32);
        tensor(b + "attn_q.weight", {256, 256}, weightType);
        tensor(b + "ffn_down.weight", {512, 256}, weightType);
        if (i == 1)
            tensor(b + "attn_v.weight", {256, 64}, weightType);
    }
    const std::string path = dir.filePath("in.gguf").toStdString();
    w.write(path);
    return path;
}

std::vector<uint8_t> fileBytes(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), {}};
}

QuantizeOptions options(const std::string& in, const std::string& out, Mix mix)
{
    QuantizeOptions o;
    o.input = in;
    o.output = out;
    o.mix = mix;
    o.threads = 2;
    return o;
}

} // namespace

class TestQuantizeModel : public QObject {
    Q_OBJECT

private slots:
    void typesBytesAndMetadata()
    {
        QTemporaryDir dir;
        const std::string in = writeModel(dir), out = dir.filePath("q4km.gguf").toStdString();
        const QuantizeResult r = quantizeModel(options(in, out, Mix::Q4_K_M));
        const gguf::File src(in), dst(out);

        // Metadata: the input's in order, the two rewritten keys last.
        std::vector<std::string> keys;
        for (const gguf::KeyValue& kv : dst.metadata())
            keys.emplace_back(kv.key);
        const std::vector<std::string> expected{"general.architecture",
                                                "general.name",
                                                "llama.block_count",
                                                "llama.attention.head_count",
                                                "llama.attention.head_count_kv",
                                                "zz.after",
                                                "general.quantization_version",
                                                "general.file_type"};
        QCOMPARE(keys, expected);
        QCOMPARE(dst.getInt("general.file_type"), 15);

        // Tensors: llama.cpp's order and the mix's types (2 layers: layer 1
        // gets more bits; token_embd is tied, so the output rule: Q6_K).
        std::vector<std::string> names;
        for (const gguf::TensorInfo& t : dst.tensors())
            names.emplace_back(t.name);
        const std::vector<std::string> order{"output_norm.weight",     "token_embd.weight",   "blk.0.attn_norm.weight",
                                             "blk.0.attn_q.weight",    "blk.0.attn_v.weight", "blk.0.ffn_down.weight",
                                             "blk.1.attn_norm.weight", "blk.1.attn_q.weight", "blk.1.attn_v.weight",
                                             "blk.1.ffn_down.weight",  "blk.1.ffn_up.weight"};
        QCOMPARE(names, order);
        const std::pair<const char*, GgmlType> types[] = {
            {"output_norm.weight", GgmlType::F32},     {"token_embd.weight", GgmlType::Q6_K},
            {"blk.0.attn_q.weight", GgmlType::Q4_K},   {"blk.0.attn_v.weight", GgmlType::Q4_K},
            {"blk.0.ffn_down.weight", GgmlType::Q4_K}, {"blk.1.attn_v.weight", GgmlType::Q6_K},
            {"blk.1.ffn_down.weight", GgmlType::Q6_K}, {"blk.1.ffn_up.weight", GgmlType::Q4_K}};
        for (const auto& [name, type] : types)
            QCOMPARE(dst.findTensor(name)->type, type);

        // Data: the reference quantizer applied to the f16 values.
        for (const gguf::TensorInfo& t : dst.tensors()) {
            const gguf::TensorInfo* s = src.findTensor(t.name);
            QVERIFY(s);
            std::vector<float> f32(static_cast<size_t>(s->elements()));
            typeTraits(s->type).dequantize(s->data, f32.data(), s->elements());
            const std::vector<uint8_t> want = encode(t.type, f32);
            QCOMPARE(t.bytes, want.size());
            QVERIFY2(std::memcmp(t.data, want.data(), want.size()) == 0, t.name.data());
        }
        QCOMPARE(r.tensors.size(), size_t{11});
        QCOMPARE(r.bytesIn, [&] {
            uint64_t b = 0;
            for (const gguf::TensorInfo& t : src.tensors())
                b += t.bytes;
            return b;
        }());
        QCOMPARE(r.fileBytes, static_cast<uint64_t>(fs::file_size(out)));
        QVERIFY(r.bpwOut() < r.bpwIn());
        QVERIFY(!fs::exists(out + ".tmp"));

        // A plan (dry run) says the same without writing.
        const QuantizeResult plan = planQuantize(options(in, dir.filePath("none.gguf").toStdString(), Mix::Q4_K_M));
        QCOMPARE(plan.bytesOut, r.bytesOut);
        QVERIFY(!fs::exists(dir.filePath("none.gguf").toStdString()));
    }

    void threadCountDoesNotMatter()
    {
        QTemporaryDir dir;
        const std::string in = writeModel(dir);
        for (Mix mix : {Mix::IQ4_XS, Mix::Q5_K_M, Mix::Q8_0, Mix::BF16}) {
            QuantizeOptions a = options(in, dir.filePath("a.gguf").toStdString(), mix);
            QuantizeOptions b = options(in, dir.filePath("b.gguf").toStdString(), mix);
            a.threads = 1;
            b.threads = 3;
            quantizeModel(a);
            quantizeModel(b);
            QVERIFY(fileBytes(a.output.string()) == fileBytes(b.output.string()));
        }
    }

    void progressIsReported()
    {
        QTemporaryDir dir;
        const std::string in = writeModel(dir);
        QuantizeOptions o = options(in, dir.filePath("p.gguf").toStdString(), Mix::Q4_0);
        size_t calls = 0;
        uint64_t last = 0;
        bool ended = false;
        o.progress = [&](const QuantizeProgress& p) {
            ++calls;
            QVERIFY(p.bytesDone >= last);
            last = p.bytesDone;
            ended = p.current == nullptr && p.tensor == p.tensors && p.bytesDone == p.bytesTotal;
        };
        quantizeModel(o);
        QVERIFY(calls > 11);
        QVERIFY(ended);
    }

    void refusalsLeaveNoFile()
    {
        QTemporaryDir dir;
        const std::string out = dir.filePath("out.gguf").toStdString();

        // Already quantized: refused unless allowed.
        const std::string q = writeModel(dir, GgmlType::Q8_0);
        try {
            quantizeModel(options(q, out, Mix::Q4_K_M));
            QFAIL("requantizing was not refused");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("--allow-requantize") != std::string::npos, e.what());
        }
        QVERIFY(!fs::exists(out) && !fs::exists(out + ".tmp"));
        QuantizeOptions allowed = options(q, out, Mix::Q4_K_M);
        allowed.allowRequantize = true;
        quantizeModel(allowed);
        QVERIFY(fs::exists(out));
        fs::remove(out);

        // A value no f16 scale can hold: llama.cpp's validation error.
        QTemporaryDir dir2;
        const std::string big = writeModel(dir2, GgmlType::F32, 3.0e38f);
        try {
            quantizeModel(options(big, out, Mix::Q8_0));
            QFAIL("an overflowing scale was not refused");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("blk.1.ffn_up.weight") != std::string::npos, e.what());
        }
        QVERIFY(!fs::exists(out) && !fs::exists(out + ".tmp"));

        // Cancelled half-way.
        const std::string in = writeModel(dir2);
        std::atomic<bool> cancel{false};
        QuantizeOptions o = options(in, out, Mix::Q4_K_M);
        o.cancel = &cancel;
        o.progress = [&](const QuantizeProgress& p) {
            if (p.tensor == 5)
                cancel = true;
        };
        QVERIFY_THROWS_EXCEPTION(Cancelled, quantizeModel(o));
        QVERIFY(!fs::exists(out) && !fs::exists(out + ".tmp"));

        // A truncated input is refused by the GGUF reader before any output.
        {
            std::vector<uint8_t> bytes = fileBytes(in);
            bytes.resize(bytes.size() - 1000);
            const std::string cut = dir2.filePath("cut.gguf").toStdString();
            std::ofstream(cut, std::ios::binary)
                .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
            QVERIFY_THROWS_EXCEPTION(Error, quantizeModel(options(cut, out, Mix::Q4_K_M)));
            QVERIFY(!fs::exists(out) && !fs::exists(out + ".tmp"));
        }

        // The output may not be the input; a missing input is an error.
        QVERIFY_THROWS_EXCEPTION(Error, quantizeModel(options(in, in, Mix::Q8_0)));
        QVERIFY(fs::exists(in));
        QVERIFY_THROWS_EXCEPTION(Error,
                                 quantizeModel(options(dir.filePath("missing.gguf").toStdString(), out, Mix::Q8_0)));
        QVERIFY(!fs::exists(out));
    }
};

QTEST_APPLESS_MAIN(TestQuantizeModel)
#include "test_quantize_model.moc"

// hearth quantize against files llama.cpp's llama-quantize wrote, without
// the reference venv: the two real models are dequantized to F16 and
// quantized back to their own mix. Every block format whose quantizer is
// idempotent on its own dequantized values gives back llama.cpp's bytes:
//   SmolLM2-135M-Instruct.Q4_1: all 272 tensors (Q4_1, the Q8_0 tied
//     embedding and the F32 norms) byte-identical, same types;
//   gemma-3-270m Q4_K_M: the same per-tensor types, tensor order and
//     metadata keys in the same order, and every F32, Q5_0 and Q8_0 tensor
//     byte-identical (the K-quant scale search is not idempotent, so Q4_K /
//     Q6_K bytes are compared in test_quantize_golden instead).

#include "test_support.h"

#include "gguf/gguf.h"
#include "quantize/quantizer.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <thread>

using namespace hearth;
using namespace hearth::quantize;

namespace {

std::string requantize(const QTemporaryDir& dir, const std::string& src, Mix mix)
{
    QuantizeOptions o;
    o.input = src;
    o.output = dir.filePath(QStringLiteral("f16.gguf")).toStdString();
    o.mix = Mix::F16;
    o.allowRequantize = true;
    o.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    quantizeModel(o);
    o.input = o.output;
    o.output = dir.filePath(QStringLiteral("back.gguf")).toStdString();
    o.mix = mix;
    o.allowRequantize = false;
    quantizeModel(o);
    return o.output.string();
}

std::vector<std::string> keysOf(const gguf::File& f)
{
    std::vector<std::string> keys;
    for (const gguf::KeyValue& kv : f.metadata())
        keys.emplace_back(kv.key);
    return keys;
}

bool sameData(const gguf::TensorInfo& a, const gguf::TensorInfo& b)
{
    return a.bytes == b.bytes && std::memcmp(a.data, b.data, a.bytes) == 0;
}

} // namespace

class TestQuantizeRequant : public QObject {
    Q_OBJECT

private slots:
    void smolLm2Q4_1()
    {
        HEARTH_REQUIRE_MODEL(path, smolLm2Path);
        QTemporaryDir dir;
        const gguf::File orig(path), back(requantize(dir, path, Mix::Q4_1));
        QCOMPARE(back.tensors().size(), orig.tensors().size());
        for (const gguf::TensorInfo& t : orig.tensors()) {
            const gguf::TensorInfo* b = back.findTensor(t.name);
            QVERIFY2(b, t.name.data());
            QCOMPARE(b->type, t.type);
            QVERIFY2(sameData(t, *b), t.name.data());
        }
    }

    void gemma3Q4KM()
    {
        HEARTH_REQUIRE_MODEL(path, gemma3Path);
        QTemporaryDir dir;
        const gguf::File orig(path), back(requantize(dir, path, Mix::Q4_K_M));
        QCOMPARE(keysOf(back), keysOf(orig));
        QCOMPARE(back.getInt("general.file_type"), orig.getInt("general.file_type"));
        QCOMPARE(back.tensors().size(), orig.tensors().size());
        int exact = 0;
        for (size_t i = 0; i < orig.tensors().size(); ++i) {
            const gguf::TensorInfo& t = orig.tensors()[i];
            const gguf::TensorInfo& b = back.tensors()[i];
            QCOMPARE(b.name, t.name);
            QCOMPARE(b.type, t.type);
            if (t.type == GgmlType::F32 || t.type == GgmlType::Q5_0 || t.type == GgmlType::Q8_0) {
                QVERIFY2(sameData(t, b), t.name.data());
                ++exact;
            }
        }
        QVERIFY(exact > 100);
    }
};

QTEST_GUILESS_MAIN(TestQuantizeRequant)
#include "test_quantize_requant.moc"

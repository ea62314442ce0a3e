// gguf::Writer: every value type and tensor layout survives a round trip
// through Hearth's reader; the real models' headers are reproduced byte for
// byte by copyOf(); every caller mistake is refused with an error.

#include "test_support.h"

#include "gguf/gguf.h"
#include "gguf/gguf_writer.h"
#include "util/error.h"
#include "util/mapped_file.h"

#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <cstring>
#include <fstream>
#include <iterator>

using namespace hearth;

namespace {

std::vector<uint8_t> ramp(size_t n, uint8_t seed)
{
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = static_cast<uint8_t>(seed + i * 7);
    return v;
}

// A writer with one key of every type and tensors of mixed types and ranks.
gguf::Writer everyKind(uint32_t version, uint64_t alignment)
{
    gguf::Writer w(version);
    w.addString("general.architecture", "llama");
    w.setAlignment(alignment);
    w.addUInt8("t.u8", 200);
    w.addInt8("t.i8", -100);
    w.addUInt16("t.u16", 60000);
    w.addInt16("t.i16", -30000);
    w.addUInt32("t.u32", 4000000000u);
    w.addInt32("t.i32", -2000000000);
    w.addUInt64("t.u64", 18000000000000000000ull);
    w.addInt64("t.i64", -9000000000000000000ll);
    w.addFloat32("t.f32", 0.25f);
    w.addFloat64("t.f64", -1e300);
    w.addBool("t.bool", true);
    w.addString("t.str", std::string_view("h\0llo", 5));
    w.addArray<int32_t>("t.arr.i32", std::vector<int32_t>{1, -2, 3});
    w.addArray<float>("t.arr.f32", std::vector<float>{0.5f, -1.5f});
    w.addArray<uint64_t>("t.arr.empty", std::vector<uint64_t>{});
    const std::array<bool, 3> flags{true, false, true};
    w.addArray<bool>("t.arr.bool", std::span<const bool>(flags));
    w.addStringArray("t.arr.str", std::vector<std::string>{"a", "", "ccc"});
    const std::array<int64_t, 2> ne2{64, 3};
    const std::array<int64_t, 1> ne1{5};
    const std::array<int64_t, 4> ne4{256, 1, 2, 1};
    w.addTensor("a", GgmlType::Q4_0, ne2, ramp(rowBytes(GgmlType::Q4_0, 64) * 3, 1));
    w.addTensor("b", GgmlType::F32, ne1, ramp(20, 2));
    w.addTensor("c", GgmlType::Q4_K, ne4, ramp(rowBytes(GgmlType::Q4_K, 256) * 2, 3));
    w.addTensor("d", GgmlType::F16, ne1, ramp(10, 4));
    return w;
}

void writeBytes(const std::string& path, const std::vector<uint8_t>& b)
{
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

} // namespace

class TestGgufWriter : public QObject {
    Q_OBJECT

private slots:
    void roundTripsEveryKind_data()
    {
        QTest::addColumn<uint32_t>("version");
        QTest::addColumn<qulonglong>("alignment");
        QTest::newRow("v3 align 32") << 3u << qulonglong(32);
        QTest::newRow("v2 align 64") << 2u << qulonglong(64);
        QTest::newRow("v3 align 1") << 3u << qulonglong(1);
    }

    void roundTripsEveryKind()
    {
        QFETCH(uint32_t, version);
        QFETCH(qulonglong, alignment);
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("all.gguf")).toStdString();
        const gguf::Writer w = everyKind(version, alignment);
        w.write(path);
        const gguf::File f(path);
        QCOMPARE(f.version(), version);
        QCOMPARE(f.alignment(), uint64_t(alignment));
        QCOMPARE(f.metadata().size(), w.metadataCount());
        QCOMPARE(f.getInt("t.u8"), int64_t(200));
        QCOMPARE(f.getInt("t.i8"), int64_t(-100));
        QCOMPARE(f.getInt("t.u16"), int64_t(60000));
        QCOMPARE(f.getInt("t.i16"), int64_t(-30000));
        QCOMPARE(f.getInt("t.u32"), int64_t(4000000000));
        QCOMPARE(f.getInt("t.i32"), int64_t(-2000000000));
        QCOMPARE(*f.find("t.u64")->toUInt64(), 18000000000000000000ull);
        QCOMPARE(f.getInt("t.i64"), int64_t(-9000000000000000000ll));
        QCOMPARE(f.getFloat("t.f32"), 0.25);
        QCOMPARE(f.getFloat("t.f64"), -1e300);
        QCOMPARE(*f.findBool("t.bool"), true);
        QCOMPARE(f.getString("t.str"), std::string_view("h\0llo", 5));
        const gguf::Value* a = f.findArray("t.arr.i32");
        QVERIFY(a && a->elementType() == gguf::ValueType::Int32 && a->size() == 3 && a->intAt(1) == -2);
        QCOMPARE(f.findArray("t.arr.f32")->floatAt(1), -1.5);
        QCOMPARE(f.findArray("t.arr.empty")->size(), uint64_t(0));
        QCOMPARE(f.findArray("t.arr.bool")->intAt(2), int64_t(1));
        const gguf::Value* s = f.findArray("t.arr.str");
        QVERIFY(s->stringAt(0) == "a" && s->stringAt(1).empty() && s->stringAt(2) == "ccc");

        QCOMPARE(f.tensors().size(), size_t(4));
        const gguf::TensorInfo* c = f.findTensor("c");
        QVERIFY(c && c->type == GgmlType::Q4_K && c->nDims == 4 && c->ne[2] == 2);
        QVERIFY(std::memcmp(c->data, ramp(c->bytes, 3).data(), c->bytes) == 0);
        for (const gguf::TensorInfo& t : f.tensors())
            QCOMPARE(t.fileOffset % alignment, uint64_t(0));
        // bytes() is the same file as write().
        const MappedFile m(path);
        const std::vector<uint8_t> b = w.bytes();
        QCOMPARE(b.size(), m.size());
        QVERIFY(std::memcmp(b.data(), m.data(), b.size()) == 0);
        QCOMPARE(uint64_t(w.headerBytes().size()), f.dataOffset());
    }

    // llama.cpp (and the gguf package) wrote the real models; writing them
    // again must give the same header, so the layouts agree.
    void reproducesRealHeaders_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("smollm2") << QString::fromStdString(testsupport::smolLm2Path());
        QTest::newRow("gemma3") << QString::fromStdString(testsupport::gemma3Path());
    }

    void reproducesRealHeaders()
    {
        QFETCH(QString, path);
        if (path.isEmpty())
            QSKIP(testsupport::kModelsMissing);
        const gguf::File f(path.toStdString());
        const std::vector<uint8_t> head = gguf::copyOf(f).headerBytes();
        QCOMPARE(uint64_t(head.size()), f.dataOffset());
        QVERIFY(std::memcmp(head.data(), f.mapping().data(), head.size()) == 0);
    }

    void refusesMistakes()
    {
        const std::array<int64_t, 1> ne32{32};
        const std::array<int64_t, 1> ne31{31};
        const std::array<int64_t, 5> ne5{32, 1, 1, 1, 1};
        const std::vector<uint8_t> q80(34);
        gguf::Writer w;
        w.addString("k", "v");
        QVERIFY_THROWS_EXCEPTION(Error, w.addInt32("k", 1));
        QVERIFY_THROWS_EXCEPTION(Error, w.addString("", "v"));
        QVERIFY_THROWS_EXCEPTION(Error, w.setAlignment(48));
        QVERIFY_THROWS_EXCEPTION(Error, w.addUInt32("general.alignment", 0));
        QVERIFY_THROWS_EXCEPTION(Error, w.addArray("a", gguf::ValueType::String, nullptr, 0));
        w.addTensor("t", GgmlType::Q8_0, ne32, q80);
        QVERIFY_THROWS_EXCEPTION(Error, w.addTensor("t", GgmlType::Q8_0, ne32, q80));
        QVERIFY_THROWS_EXCEPTION(Error, w.addTensor("u", GgmlType::Q8_0, ne31, q80));
        QVERIFY_THROWS_EXCEPTION(Error, w.addTensor("u", GgmlType::Q8_0, ne5, q80));
        QVERIFY_THROWS_EXCEPTION(Error, w.addTensor("u", GgmlType::Q8_0, ne32, std::vector<uint8_t>(33)));
        QVERIFY_THROWS_EXCEPTION(Error, gguf::Writer(4));
        QVERIFY_THROWS_EXCEPTION(Error, w.write("/nonexistent-dir/x.gguf"));
        QCOMPARE(w.tensorCount(), size_t(1));
        QCOMPARE(w.metadataCount(), size_t(1));
    }

    void rewritingAlignmentKeepsOneKey()
    {
        gguf::Writer w;
        w.setAlignment(64);
        w.addUInt32("general.alignment", 128);
        QCOMPARE(w.metadataCount(), size_t(1));
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("a.gguf")).toStdString();
        writeBytes(path, w.bytes());
        QCOMPARE(gguf::File(path).alignment(), uint64_t(128));
    }
};

QTEST_APPLESS_MAIN(TestGgufWriter)
#include "test_gguf_writer.moc"

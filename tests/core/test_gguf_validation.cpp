// The reader refuses each kind of broken GGUF file with a message that names
// the file, what is wrong and where; it accepts the unusual-but-valid ones
// (no tensors, split models, any non-zero bool). Files are built by hand so
// the defects are exact.

#include "test_support.h"

#include "gguf/gguf.h"
#include "gguf/gguf_writer.h"
#include "util/error.h"

#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <fstream>
#include <vector>

using namespace hearth;

namespace {

struct Bytes {
    std::vector<uint8_t> b;
    template <typename T>
    Bytes& num(T v)
    {
        const auto* p = reinterpret_cast<const uint8_t*>(&v);
        b.insert(b.end(), p, p + sizeof v);
        return *this;
    }
    Bytes& str(std::string_view s)
    {
        num<uint64_t>(s.size());
        b.insert(b.end(), s.begin(), s.end());
        return *this;
    }
    Bytes& head(uint64_t nTensors, uint64_t nKv, uint32_t version = 3)
    {
        b = {'G', 'G', 'U', 'F'};
        return num(version).num(nTensors).num(nKv);
    }
    Bytes& kvU32(std::string_view key, uint32_t v) { return str(key).num<uint32_t>(4).num(v); }
    // A tensor info: name, dims, type id, offset.
    Bytes& tensor(std::string_view name, std::vector<int64_t> ne, uint32_t type, uint64_t offset)
    {
        str(name).num<uint32_t>(static_cast<uint32_t>(ne.size()));
        for (int64_t n : ne)
            num(n);
        return num(type).num(offset);
    }
    Bytes& padData(size_t dataBytes)
    {
        while (b.size() % 32)
            b.push_back(0);
        b.resize(b.size() + dataBytes, 0x5a);
        return *this;
    }
};

class Files {
public:
    std::string write(const char* name, const std::vector<uint8_t>& bytes)
    {
        const std::string path = m_dir.filePath(QString::fromLatin1(name)).toStdString();
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        return path;
    }

private:
    QTemporaryDir m_dir;
};

// The message of the error opening `path` throws ("" if it opens).
QString openError(const std::string& path)
{
    try {
        gguf::File f(path);
    } catch (const Error& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

} // namespace

class TestGgufValidation : public QObject {
    Q_OBJECT

private slots:
    void refusesBrokenFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        const auto row = [](const char* name, const Bytes& f, const char* expected) {
            QTest::newRow(name) << QByteArray(reinterpret_cast<const char*>(f.b.data()), qsizetype(f.b.size()))
                                << QString::fromLatin1(expected);
        };
        row("empty file", Bytes{}, "file ends inside the magic number");
        row("version 1", Bytes{}.head(0, 0, 1), "version 1 is no longer supported");
        row("big-endian", Bytes{}.head(0, 0, 0x03000000), "big-endian");
        row("version 4", Bytes{}.head(0, 0, 4), "unsupported GGUF version 4");
        row("huge kv count", Bytes{}.head(0, uint64_t(1) << 60), "metadata entries cannot fit");
        row("huge tensor count", Bytes{}.head(uint64_t(1) << 60, 0), "tensors cannot fit");
        row("empty key", Bytes{}.head(0, 1).kvU32("", 1), "metadata key 0 is empty");
        row("duplicate key", Bytes{}.head(0, 2).kvU32("a", 1).kvU32("a", 2), "duplicate metadata key 'a'");
        row("unknown value type", Bytes{}.head(0, 1).str("k").num<uint32_t>(13).num<uint32_t>(0),
            "unknown value type 13");
        row("nested array", Bytes{}.head(0, 1).str("k").num<uint32_t>(9).num<uint32_t>(9).num<uint64_t>(0),
            "arrays of arrays");
        row("string past end", Bytes{}.head(0, 1).str("k").num<uint32_t>(8).num<uint64_t>(1000).num<uint32_t>(0),
            "claims 1000 bytes");
        row("array past end", Bytes{}.head(0, 1).str("k").num<uint32_t>(9).num<uint32_t>(5).num<uint64_t>(1 << 20),
            "does not fit");
        row("alignment type", Bytes{}.head(0, 1).str("general.alignment").num<uint32_t>(5).num<int32_t>(32),
            "expected uint32");
        row("alignment value", Bytes{}.head(0, 1).kvU32("general.alignment", 48), "expected a power of two");
        row("five dims", Bytes{}.head(1, 0).tensor("t", {1, 1, 1, 1, 1}, 0, 0).padData(4), "5 dimensions (at most 4");
        row("negative dim", Bytes{}.head(1, 0).tensor("t", {-1}, 0, 0).padData(4), "is negative");
        row("unknown type", Bytes{}.head(1, 0).tensor("t", {32}, 99, 0).padData(64), "unknown tensor type id 99");
        row("retired type", Bytes{}.head(1, 0).tensor("t", {32}, 31, 0).padData(64), "q4_0_4_4");
        row("block size", Bytes{}.head(1, 0).tensor("t", {33}, 8, 0).padData(64), "not a multiple of the q8_0");
        row("element overflow", Bytes{}.head(1, 0).tensor("t", {1 << 30, 1 << 30, 1 << 30}, 0, 0).padData(4),
            "overflows 64 bits");
        row("duplicate tensor", Bytes{}.head(2, 0).tensor("t", {8}, 0, 0).tensor("t", {8}, 0, 32).padData(64),
            "duplicate tensor name 't'");
        row("unaligned offset", Bytes{}.head(1, 0).tensor("t", {8}, 0, 4).padData(64), "not a multiple of the");
        row("data past end", Bytes{}.head(1, 0).tensor("t", {64}, 0, 0).padData(255), "end beyond the file");
        row("no data section", Bytes{}.head(1, 0).tensor("t", {8}, 0, 0), "before its tensor data section");
        row("overlap",
            Bytes{}.head(3, 0).tensor("a", {64}, 0, 0).tensor("b", {0}, 0, 0).tensor("c", {8}, 0, 128).padData(256),
            "tensor 'c' (data offset 128) overlaps tensor 'a'");
        // 20,000 tiny keys: their bookkeeping would take more memory than the
        // file's size plus 1 MiB.
        Bytes dense;
        dense.head(0, 20000);
        for (int i = 0; i < 20000; ++i)
            dense.str(std::to_string(i)).num<uint32_t>(0).num<uint8_t>(1);
        row("denser than memory allows", dense, "bytes of memory");
    }

    void refusesBrokenFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        Files files;
        const std::string path = files.write("bad.gguf", std::vector<uint8_t>(bytes.begin(), bytes.end()));
        const QString msg = openError(path);
        QVERIFY2(!msg.isEmpty(), "the file was accepted");
        QVERIFY2(msg.contains(expected), qPrintable(msg));
        QVERIFY2(msg.startsWith(QString::fromStdString(path)), qPrintable(msg));
    }

    void errorsGiveTheByteOffset()
    {
        Files files;
        const Bytes f = Bytes{}.head(0, 2).kvU32("a", 1).kvU32("a", 2);
        const QString msg = openError(files.write("dup.gguf", f.b));
        QVERIFY2(msg.contains(QStringLiteral("at byte 41:")), qPrintable(msg)); // 24 + the first entry's 17
    }

    void acceptsUnusualValidFiles()
    {
        Files files;
        // Vocab-only: no tensors, the file ends right after the metadata.
        const gguf::File vocab(files.write("vocab.gguf", Bytes{}.head(0, 1).kvU32("x", 7).b));
        QCOMPARE(vocab.getInt("x"), int64_t(7));
        // A bool stored as 2 reads as true, as in llama.cpp.
        const Bytes b = Bytes{}.head(0, 1).str("flag").num<uint32_t>(7).num<uint8_t>(2);
        QCOMPARE(gguf::File(files.write("bool.gguf", b.b)).findBool("flag"), std::optional<bool>(true));
        // Zero-element tensors may share an offset with others.
        const Bytes z = Bytes{}.head(2, 0).tensor("e", {0}, 0, 0).tensor("f", {8}, 0, 0).padData(32);
        QCOMPARE(gguf::File(files.write("zero.gguf", z.b)).tensors().size(), size_t(2));
    }

    // Synthetic test models are small but may have thousands of tensors.
    void acceptsManyTinyTensors()
    {
        gguf::Writer w;
        const std::array<int64_t, 1> ne{1};
        const std::vector<uint8_t> one(4, 0);
        for (int i = 0; i < 3000; ++i)
            w.addTensor("blk." + std::to_string(i) + ".weight", GgmlType::F32, ne, one);
        const std::vector<uint8_t> bytes = w.bytes();
        QCOMPARE(gguf::File("tiny-tensors", bytes).tensors().size(), size_t(3000));
    }

    void opensFilesInMemory()
    {
        gguf::Writer w;
        w.addString("general.architecture", "llama");
        const std::array<int64_t, 1> ne{32};
        w.addTensor("t", GgmlType::Q8_0, ne, std::vector<uint8_t>(34, 3));
        const std::vector<uint8_t> bytes = w.bytes();
        const gguf::File f("in-memory", bytes);
        QCOMPARE(f.architecture(), std::string_view("llama"));
        QCOMPARE(f.findTensor("t")->data, bytes.data() + f.dataOffset());
        const std::vector<uint8_t> cut(bytes.begin(), bytes.end() - 31); // 30 bytes are padding
        try {
            gguf::File broken("in-memory", cut);
            QFAIL("a truncated buffer was accepted");
        } catch (const Error& e) {
            QVERIFY(QString::fromUtf8(e.what()).startsWith(QStringLiteral("in-memory: at byte")));
        }
    }

    void opensSplitModels()
    {
        Files files;
        const std::array<int64_t, 1> ne{32};
        const std::vector<uint8_t> data(34, 7);
        gguf::Writer a, b;
        a.addString("general.architecture", "llama");
        a.addUInt16("split.no", 0);
        a.addUInt16("split.count", 2);
        a.addInt32("split.tensors.count", 2);
        a.addTensor("first", GgmlType::Q8_0, ne, data);
        b.addUInt16("split.no", 1);
        b.addUInt16("split.count", 2);
        b.addTensor("second", GgmlType::Q8_0, ne, data);
        const std::string first = files.write("m-00001-of-00002.gguf", a.bytes());
        QVERIFY(openError(first).contains(QStringLiteral("m-00002-of-00002.gguf: cannot open"))); // not there yet
        files.write("m-00002-of-00002.gguf", b.bytes());
        const gguf::File f(first);
        QCOMPARE(f.splitCount(), size_t(2));
        QCOMPARE(f.tensors().size(), size_t(2));
        QCOMPARE(f.findTensor("second")->split, 1);
        QCOMPARE(f.findTensor("second")->data[0], uint8_t(7));
        // Opened from the second part: refused with a pointer to the first.
        QVERIFY(openError(files.write("n-00002-of-00002.gguf", b.bytes())).contains(QStringLiteral("-00001-of-")));
    }
};

QTEST_APPLESS_MAIN(TestGgufValidation)
#include "test_gguf_validation.moc"

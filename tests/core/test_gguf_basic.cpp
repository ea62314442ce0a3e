// The GGUF reader on the real models and on small hand-made files.

#include "test_support.h"

#include "gguf/gguf.h"
#include "gguf/model_info.h"
#include "gguf/split_name.h"
#include "util/error.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <fstream>
#include <vector>

using namespace hearth;

namespace {

// Builds GGUF bytes by hand, independent of Hearth's own writer.
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
    Bytes& pad(size_t align)
    {
        while (b.size() % align)
            b.push_back(0);
        return *this;
    }
};

std::string writeTemp(const QTemporaryDir& dir, const char* name, const std::vector<uint8_t>& bytes)
{
    const std::string path = dir.filePath(QString::fromLatin1(name)).toStdString();
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path;
}

// A tiny valid file: two metadata keys and one 32-element q8_0 tensor.
Bytes tinyModel()
{
    Bytes f;
    f.b = {'G', 'G', 'U', 'F'};
    f.num<uint32_t>(3).num<uint64_t>(1).num<uint64_t>(2);
    f.str("general.architecture").num<uint32_t>(8).str("llama");
    f.str("llama.context_length").num<uint32_t>(4).num<uint32_t>(2048);
    f.str("w").num<uint32_t>(2).num<int64_t>(32).num<int64_t>(2).num<uint32_t>(8).num<uint64_t>(0);
    f.pad(32);
    f.b.resize(f.b.size() + 2 * 34, 0x11);
    return f;
}

} // namespace

class TestGgufBasic : public QObject {
    Q_OBJECT

private slots:
    void realModelsHaveGgufMagic_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("smollm2") << QString::fromStdString(testsupport::smolLm2Path());
        QTest::newRow("gemma3") << QString::fromStdString(testsupport::gemma3Path());
    }

    void realModelsHaveGgufMagic()
    {
        QFETCH(QString, path);
        if (path.isEmpty())
            QSKIP(testsupport::kModelsMissing);
        std::ifstream in(path.toStdString(), std::ios::binary);
        char magic[4] = {};
        in.read(magic, 4);
        QVERIFY(in.good());
        QCOMPARE(std::memcmp(magic, "GGUF", 4), 0);
        const gguf::File file(path.toStdString());
        QVERIFY(file.version() == 2 || file.version() == 3);
        QVERIFY(!file.tensors().empty());
        QVERIFY(!file.architecture().empty());
    }

    void parsesTinyFile()
    {
        QTemporaryDir dir;
        const std::string path = writeTemp(dir, "tiny.gguf", tinyModel().b);
        const gguf::File file(path);
        QCOMPARE(file.version(), 3u);
        QCOMPARE(file.architecture(), std::string_view("llama"));
        QCOMPARE(file.getInt("llama.context_length"), int64_t(2048));
        QCOMPARE(file.tensors().size(), size_t(1));
        const gguf::TensorInfo* t = file.findTensor("w");
        QVERIFY(t);
        QCOMPARE(t->type, GgmlType::Q8_0);
        QCOMPARE(t->ne[0], int64_t(32));
        QCOMPARE(t->ne[1], int64_t(2));
        QCOMPARE(t->bytes, size_t(68));
        QCOMPARE(t->data[0], uint8_t(0x11));
        const gguf::ModelInfo info = gguf::summarize(file);
        QCOMPARE(info.parameters, int64_t(64));
        QCOMPARE(info.contextLength, int64_t(2048));
    }

    void refusesBadMagic()
    {
        QTemporaryDir dir;
        Bytes f = tinyModel();
        f.b[0] = 'X';
        const std::string path = writeTemp(dir, "bad.gguf", f.b);
        try {
            gguf::File file(path);
            QFAIL("a file with a bad magic number was accepted");
        } catch (const Error& e) {
            const QString msg = QString::fromUtf8(e.what());
            QVERIFY2(msg.contains(QStringLiteral("not a GGUF file")), qPrintable(msg));
            QVERIFY2(msg.contains(QString::fromStdString(path)), qPrintable(msg));
        }
    }

    void refusesTruncatedData()
    {
        QTemporaryDir dir;
        Bytes f = tinyModel();
        f.b.resize(f.b.size() - 1);
        const std::string path = writeTemp(dir, "short.gguf", f.b);
        QVERIFY_THROWS_EXCEPTION(Error, gguf::File{path});
    }

    void readsSplitNames()
    {
        const std::optional<gguf::SplitName> second = gguf::parseSplitName("dir/My-Model-Q4_K_M-00002-of-00003.gguf");
        QVERIFY(second);
        QCOMPARE(second->stem, std::string("dir/My-Model-Q4_K_M"));
        QCOMPARE(second->part, 2);
        QCOMPARE(second->count, 3);
        QCOMPARE(gguf::splitPartPath(*second, 1), std::string("dir/My-Model-Q4_K_M-00001-of-00003.gguf"));
        QCOMPARE(gguf::splitSiblingPath("a/x-00001-of-00002.gguf", 1, 2).value_or(""),
                 std::string("a/x-00002-of-00002.gguf"));

        // Not split parts: no suffix, a short or non-numeric field, part 0 or past the count, another extension.
        for (const char* name :
             {"x.gguf", "x-0001-of-00002.gguf", "x-00001-of-0000a.gguf", "x-00000-of-00002.gguf",
              "x-00003-of-00002.gguf", "x-00001-of-00002.bin", "x-00001_of-00002.gguf", "-00001-of-00002.gguf"})
            QVERIFY2(!gguf::parseSplitName(name), name);
        QVERIFY(!gguf::splitSiblingPath("x.gguf", 1, 2));
    }
};

QTEST_APPLESS_MAIN(TestGgufBasic)
#include "test_gguf_basic.moc"

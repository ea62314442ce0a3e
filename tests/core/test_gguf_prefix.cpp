// File::fromPrefix: a GGUF header parsed from the first bytes of a file (an
// HTTP range before a download), with every check the whole-file reader
// makes, and a precise "read this many bytes" when the prefix is short.

#include "gguf/gguf.h"
#include "gguf/gguf_writer.h"
#include "gguf/model_info.h"
#include "util/error.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <string>
#include <vector>

using namespace hearth;

namespace {

// A llama-shaped file whose header (a 3,000-token vocabulary) is far longer
// than its first kilobyte.
std::vector<uint8_t> sampleFile()
{
    gguf::Writer w;
    w.addString("general.architecture", "llama");
    w.addString("general.name", "Prefix Test");
    w.addUInt32("general.file_type", 0);
    w.addUInt32("llama.context_length", 4096);
    w.addUInt32("llama.block_count", 2);
    w.addUInt32("llama.embedding_length", 64);
    std::vector<std::string> tokens;
    for (int i = 0; i < 3000; ++i)
        tokens.push_back("token_" + std::to_string(i));
    w.addStringArray("tokenizer.ggml.tokens", tokens);
    w.addString("tokenizer.chat_template", "{{ messages }}");
    const std::vector<float> row(64 * 64, 0.5f);
    const int64_t ne[2] = {64, 64};
    w.addTensor("blk.0.attn_q.weight", GgmlType::F32, ne,
                {reinterpret_cast<const uint8_t*>(row.data()), row.size() * sizeof(float)});
    w.addTensor("blk.1.attn_q.weight", GgmlType::F32, ne,
                {reinterpret_cast<const uint8_t*>(row.data()), row.size() * sizeof(float)});
    return w.bytes();
}

// Part `no` of a `count`-part split model: two tensors of its own.
std::vector<uint8_t> splitPart(int no, int count, int64_t tensorsCount)
{
    gguf::Writer w;
    if (no == 0) {
        w.addString("general.architecture", "llama");
        w.addUInt32("llama.block_count", uint32_t(2 * count));
        w.addUInt32("llama.embedding_length", 64);
    }
    w.addUInt16("split.no", uint16_t(no));
    w.addUInt16("split.count", uint16_t(count));
    w.addInt32("split.tensors.count", int32_t(tensorsCount));
    const std::vector<float> row(64 * 32, 0.25f);
    const int64_t ne[2] = {64, 32};
    for (int i = 0; i < 2; ++i)
        w.addTensor("blk." + std::to_string(2 * no + i) + ".attn_q.weight", GgmlType::F32, ne,
                    {reinterpret_cast<const uint8_t*>(row.data()), row.size() * sizeof(float)});
    return w.bytes();
}

// The header bytes of `bytes` (what a range request would bring).
std::span<const uint8_t> headerOf(const std::vector<uint8_t>& bytes)
{
    return std::span(bytes.data(), size_t(gguf::File::fromPrefix("part", bytes, bytes.size()).dataOffset()));
}

} // namespace

class TestGgufPrefix : public QObject {
    Q_OBJECT

private slots:
    void growsUntilTheHeaderParses()
    {
        const std::vector<uint8_t> bytes = sampleFile();
        const gguf::File whole("whole", bytes);
        size_t have = 1024;
        int rounds = 0;
        for (;;) {
            QVERIFY2(++rounds < 20, "the prefix never parsed");
            try {
                const gguf::File head =
                    gguf::File::fromPrefix("head", std::span(bytes.data(), std::min(have, bytes.size())), bytes.size());
                QVERIFY(have < bytes.size()); // the header alone, not the data
                const gguf::ModelInfo a = gguf::summarize(head), b = gguf::summarize(whole);
                QCOMPARE(a.architecture, b.architecture);
                QCOMPARE(a.parameters, b.parameters);
                QCOMPARE(a.tensorBytes, b.tensorBytes);
                QCOMPARE(a.fileSize, uint64_t(bytes.size()));
                QCOMPARE(a.contextLength, int64_t(4096));
                QCOMPARE(a.vocabSize, int64_t(3000));
                QVERIFY(a.hasChatTemplate);
                QVERIFY(head.tensors().front().data == nullptr);
                break;
            } catch (const gguf::IncompleteHeader& e) {
                QVERIFY2(e.needed > have, e.what()); // always asks for more than it had
                have = std::max<size_t>(have * 2, e.needed);
            }
        }
        QVERIFY(rounds > 1);
    }

    void refusesWhatIsNotGguf()
    {
        std::vector<uint8_t> junk(4096, 'x');
        QVERIFY_THROWS_EXCEPTION(Error, gguf::File::fromPrefix("junk", junk, 1 << 20));
        try {
            (void)gguf::File::fromPrefix("junk", junk, 1 << 20);
        } catch (const gguf::IncompleteHeader&) {
            QFAIL("junk must be refused, not asked for more");
        } catch (const Error& e) {
            QVERIFY(std::string(e.what()).find("not a GGUF file") != std::string::npos);
        }
    }

    void checksTensorsAgainstTheWholeFileSize()
    {
        const std::vector<uint8_t> bytes = sampleFile();
        const gguf::File whole("whole", bytes);
        const size_t header = whole.dataOffset();
        // The declared size is too small for the tensors the header lists.
        try {
            (void)gguf::File::fromPrefix("short", std::span(bytes.data(), header), header + 100);
            QFAIL("accepted tensors beyond the declared size");
        } catch (const gguf::IncompleteHeader&) {
            QFAIL("a bad size is not an incomplete header");
        } catch (const Error& e) {
            QVERIFY2(std::string(e.what()).find("end beyond the file") != std::string::npos, e.what());
        }
    }

    // The parts' headers read as one model: every tensor, in order, with its
    // part, and the sizes of all the files, as File(path) reads the files.
    void splitPartsAsOneModel()
    {
        QTemporaryDir dir;
        std::vector<std::vector<uint8_t>> parts;
        std::vector<gguf::File::PartPrefix> prefixes;
        for (int no = 0; no < 3; ++no) {
            parts.push_back(splitPart(no, 3, 6));
            const std::string name = "model-0000" + std::to_string(no + 1) + "-of-00003.gguf";
            QFile f(dir.filePath(QString::fromStdString(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(reinterpret_cast<const char*>(parts.back().data()), qint64(parts.back().size()));
        }
        for (int no = 0; no < 3; ++no)
            prefixes.push_back({"part" + std::to_string(no), headerOf(parts[size_t(no)]), parts[size_t(no)].size()});
        const gguf::File heads = gguf::File::fromPrefixes(prefixes);
        const gguf::File files(dir.filePath(QStringLiteral("model-00001-of-00003.gguf")).toStdString());
        QCOMPARE(heads.tensors().size(), size_t(6));
        QCOMPARE(heads.tensors().size(), files.tensors().size());
        for (size_t i = 0; i < heads.tensors().size(); ++i) {
            QCOMPARE(heads.tensors()[i].name, files.tensors()[i].name);
            QCOMPARE(heads.tensors()[i].split, files.tensors()[i].split);
            QCOMPARE(heads.tensors()[i].bytes, files.tensors()[i].bytes);
            QCOMPARE(heads.tensors()[i].data, nullptr);
        }
        QCOMPARE(heads.fileSize(), files.fileSize());
        QCOMPARE(gguf::summarize(heads).tensorBytes, gguf::summarize(files).tensorBytes);
        QVERIFY(heads.findTensor("blk.5.attn_q.weight") != nullptr);
    }

    void splitPartsAreChecked()
    {
        std::vector<std::vector<uint8_t>> parts;
        for (int no = 0; no < 3; ++no)
            parts.push_back(splitPart(no, 3, 6));
        const auto prefix = [&](size_t no) {
            return gguf::File::PartPrefix{"part" + std::to_string(no), headerOf(parts[no]), parts[no].size()};
        };
        const auto refused = [](const std::vector<gguf::File::PartPrefix>& given, const char* why) {
            try {
                (void)gguf::File::fromPrefixes(given);
            } catch (const gguf::IncompleteHeader&) {
                return false;
            } catch (const Error& e) {
                if (std::string(e.what()).find(why) == std::string::npos) {
                    qWarning("%s", e.what());
                    return false;
                }
                return true;
            }
            return false;
        };
        QVERIFY(refused({prefix(0), prefix(1)}, "2 parts were given"));
        QVERIFY(refused({prefix(0), prefix(2), prefix(1)}, "'split.no' is 2 (expected 1)"));
        QVERIFY(refused({prefix(1), prefix(0), prefix(2)}, "expected 0 in the first part"));
        QVERIFY(refused({}, "no parts"));
        const std::vector<uint8_t> twice = splitPart(1, 3, 6); // blk.2 and blk.3 again
        parts.push_back(twice);
        std::vector<gguf::File::PartPrefix> duplicate{prefix(0), prefix(1), prefix(1)};
        duplicate[2] = {"again", headerOf(parts[3]), parts[3].size()};
        QVERIFY(refused(duplicate, "'split.no' is 1 (expected 2)"));
        const std::vector<uint8_t> short5 = splitPart(0, 3, 5);
        parts.push_back(short5);
        QVERIFY(refused({{"first", headerOf(parts[4]), parts[4].size()}, prefix(1), prefix(2)}, "split.tensors.count"));
        // A part's header cut short asks for more of that part.
        const std::span<const uint8_t> cut = headerOf(parts[1]).first(40);
        QVERIFY_THROWS_EXCEPTION(gguf::IncompleteHeader,
                                 gguf::File::fromPrefixes({prefix(0), {"part1", cut, parts[1].size()}, prefix(2)}));
    }
};

QTEST_APPLESS_MAIN(TestGgufPrefix)
#include "test_gguf_prefix.moc"

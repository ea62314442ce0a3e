// File::fromPrefix: a GGUF header parsed from the first bytes of a file (an
// HTTP range before a download), with every check the whole-file reader
// makes, and a precise "read this many bytes" when the prefix is short.

#include "gguf/gguf.h"
#include "gguf/gguf_writer.h"
#include "gguf/model_info.h"
#include "util/error.h"

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
};

QTEST_APPLESS_MAIN(TestGgufPrefix)
#include "test_gguf_prefix.moc"

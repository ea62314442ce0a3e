// The reader on corrupted copies of both real models: truncated at 200+
// offsets spread over the fixed header, the metadata, the tensor infos and
// the data, and with 1,000+ random changes to the header region (half of
// them aimed at length, count, type, dimension and offset fields). Every
// file either opens or is refused with a hearth::Error naming it; nothing
// crashes or hangs (ctest's timeout; the asan preset adds ASan + UBSan), and
// opening never has more heap live than the file's size plus 1 MiB + 64 KiB.
//
// Only the header region of each model is read into memory; the rest of the
// scratch copy is a sparse hole, which the reader never touches.

#include "alloc_counter.h"
#include "test_support.h"

#include "gguf/gguf.h"
#include "gguf/model_info.h"
#include "util/error.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

using namespace hearth;

namespace {

// The reader's fixed allowance (1 MiB, gguf_parser.cpp) and 64 KiB for
// paths, messages and the mapping object.
constexpr int64_t kFixedOverhead = (1024 + 64) * 1024;

// What a model's header looks like, and the positions of its fields.
struct Layout {
    uint64_t fileSize = 0;
    uint64_t tensorInfoStart = 0; // end of the metadata
    uint64_t headerEnd = 0;       // end of the tensor infos
    uint64_t dataOffset = 0;
    uint64_t dataEnd = 0;        // end of the furthest tensor's data
    std::vector<uint8_t> prefix; // the file's first dataOffset + 4 KiB bytes
    struct Field {
        uint64_t at;
        int width;
    };
    std::vector<Field> fields; // counts, lengths, types, dims, offsets
};

Layout describe(const std::string& path)
{
    const gguf::File f(path);
    Layout l;
    l.fileSize = f.fileSize();
    l.dataOffset = f.dataOffset();
    const uint8_t* base = f.mapping().data();
    const auto pos = [&](const void* p) { return static_cast<uint64_t>(static_cast<const uint8_t*>(p) - base); };
    l.fields = {{4, 4}, {8, 8}, {16, 8}};
    for (const gguf::KeyValue& kv : f.metadata()) {
        l.fields.push_back({pos(kv.key.data()) - 8, 8});
        l.fields.push_back({pos(kv.key.data()) + kv.key.size(), 4});
        const gguf::Value& v = kv.value;
        if (v.type() == gguf::ValueType::String) {
            l.fields.push_back({pos(v.toString()->data()) - 8, 8});
        } else if (v.type() == gguf::ValueType::Array) {
            const uint64_t first = v.elementType() == gguf::ValueType::String && v.size() > 0
                                       ? pos(v.stringAt(0).data()) - 8
                                       : pos(v.rawData());
            l.fields.push_back({first - 8, 8});
            l.fields.push_back({first - 12, 4});
            if (v.elementType() == gguf::ValueType::String && v.size() > 2) {
                l.fields.push_back({pos(v.stringAt(1).data()) - 8, 8});
                l.fields.push_back({pos(v.stringAt(v.size() - 1).data()) - 8, 8});
            }
        }
    }
    l.tensorInfoStart = UINT64_MAX;
    for (const gguf::TensorInfo& t : f.tensors()) {
        uint64_t at = pos(t.name.data()) - 8;
        l.tensorInfoStart = std::min(l.tensorInfoStart, at);
        l.fields.push_back({at, 8});
        at += 8 + t.name.size();
        l.fields.push_back({at, 4});
        for (int d = 0; d < t.nDims; ++d)
            l.fields.push_back({at + 4 + 8 * static_cast<uint64_t>(d), 8});
        at += 4 + 8 * static_cast<uint64_t>(t.nDims);
        l.fields.push_back({at, 4});
        l.fields.push_back({at + 4, 8});
        l.headerEnd = std::max(l.headerEnd, at + 12);
        l.dataEnd = std::max(l.dataEnd, t.fileOffset + t.bytes);
    }
    l.prefix.resize(std::min<uint64_t>(l.fileSize, l.dataOffset + 4096));
    std::ifstream(path, std::ios::binary)
        .read(reinterpret_cast<char*>(l.prefix.data()), static_cast<std::streamsize>(l.prefix.size()));
    return l;
}

// Opens `path`; on refusal checks the error. Returns whether it opened.
// Fails the test (via the returned message) on anything else.
struct Outcome {
    bool opened = false;
    QString problem; // empty when the reader behaved
};

Outcome tryOpen(const std::string& path, uint64_t fileSize)
{
    Outcome o;
    const int64_t base = alloccount::startMeasuring();
    try {
        const gguf::File f(path);
        o.opened = true;
        // What `hearth info` does with an accepted file must not fail either.
        const gguf::ModelInfo info = gguf::summarize(f);
        (void)info.quantLabel();
        for (const gguf::KeyValue& kv : f.metadata())
            (void)kv.value.toDisplayString();
    } catch (const Error& e) {
        const QString msg = QString::fromUtf8(e.what());
        if (!msg.startsWith(QString::fromStdString(path)) || msg.size() < static_cast<qsizetype>(path.size()) + 10)
            o.problem = QStringLiteral("unhelpful message: ") + msg;
    } catch (const std::exception& e) {
        o.problem = QStringLiteral("not a hearth::Error: ") + QString::fromUtf8(e.what());
    }
    const int64_t peak = alloccount::peakSince(base);
    if (o.problem.isEmpty() && peak > static_cast<int64_t>(fileSize) + kFixedOverhead)
        o.problem = QStringLiteral("%1 bytes of heap for a file of %2").arg(peak).arg(fileSize);
    return o;
}

// A scratch copy of the model: the header region written, the rest a hole.
void writeScratch(const std::string& path, const Layout& l)
{
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(l.prefix.data()), static_cast<std::streamsize>(l.prefix.size()));
    }
    std::filesystem::resize_file(path, l.fileSize);
}

void patch(const std::string& path, uint64_t at, const uint8_t* bytes, size_t n)
{
    std::fstream f(path, std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(static_cast<std::streamoff>(at));
    f.write(reinterpret_cast<const char*>(bytes), static_cast<std::streamsize>(n));
}

// Truncation lengths: every byte of the fixed header, then evenly spread
// over the metadata, the tensor infos, the padding and the data, plus the
// edges of each region. Descending, so one file can be cut shorter and
// shorter.
std::vector<uint64_t> truncationPoints(const Layout& l)
{
    std::vector<uint64_t> cuts;
    for (uint64_t i = 0; i < 24; ++i)
        cuts.push_back(i);
    const auto spread = [&](uint64_t from, uint64_t to, int n) {
        for (int i = 0; i < n; ++i)
            cuts.push_back(from + (to - from) * static_cast<uint64_t>(i) / static_cast<uint64_t>(n));
    };
    spread(24, l.tensorInfoStart, 60);
    spread(l.tensorInfoStart, l.headerEnd, 60);
    spread(l.headerEnd, l.dataOffset, 4);
    spread(l.dataOffset, l.fileSize, 40);
    for (uint64_t edge : {l.tensorInfoStart + 1, l.headerEnd - 1, l.dataOffset, l.dataEnd - 1, l.fileSize - 1})
        cuts.push_back(edge);
    std::sort(cuts.begin(), cuts.end(), std::greater<>());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    return cuts;
}

} // namespace

class TestGgufCorruption : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!alloccount::allocCountingAvailable())
            qWarning("heap counting is not available here: the memory bound is not checked");
    }

    void models_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("mutations");
        QTest::newRow("smollm2") << QString::fromStdString(testsupport::smolLm2Path()) << 1000;
        QTest::newRow("gemma3") << QString::fromStdString(testsupport::gemma3Path()) << 800;
    }

    // The counter sees the reader's allocations: gemma's 262,144 token
    // strings alone need a 2 MiB offset table.
    void heapCountingWorks()
    {
        const std::string path = testsupport::gemma3Path();
        if (path.empty())
            QSKIP(testsupport::kModelsMissing);
        if (!alloccount::allocCountingAvailable())
            QSKIP("no heap counting on this platform");
        const int64_t base = alloccount::startMeasuring();
        {
            const gguf::File f(path);
        }
        const int64_t peak = alloccount::peakSince(base);
        QVERIFY2(peak > 2 * 1024 * 1024 && peak < 8 * 1024 * 1024, qPrintable(QString::number(peak)));
    }

    void truncations_data() { models_data(); }

    void truncations()
    {
        QFETCH(QString, path);
        if (path.isEmpty())
            QSKIP(testsupport::kModelsMissing);
        const Layout l = describe(path.toStdString());
        QTemporaryDir dir;
        const std::string scratch = dir.filePath(QStringLiteral("cut.gguf")).toStdString();
        writeScratch(scratch, l);
        const std::vector<uint64_t> cuts = truncationPoints(l);
        QVERIFY(cuts.size() >= 180);
        qInfo("%zu truncation points", cuts.size());
        for (uint64_t cut : cuts) {
            std::filesystem::resize_file(scratch, cut);
            const Outcome o = tryOpen(scratch, cut);
            QVERIFY2(o.problem.isEmpty(), qPrintable(QStringLiteral("cut at %1: %2").arg(cut).arg(o.problem)));
            // Cutting only the padding after the last tensor leaves a valid file.
            QVERIFY2(o.opened == (cut >= l.dataEnd), qPrintable(QStringLiteral("cut at %1").arg(cut)));
        }
    }

    void headerMutations_data() { models_data(); }

    void headerMutations()
    {
        QFETCH(QString, path);
        QFETCH(int, mutations);
        if (path.isEmpty())
            QSKIP(testsupport::kModelsMissing);
        const Layout l = describe(path.toStdString());
        QTemporaryDir dir;
        const std::string scratch = dir.filePath(QStringLiteral("mutant.gguf")).toStdString();
        writeScratch(scratch, l);
        std::mt19937_64 rng(0x6767'7566 + static_cast<uint64_t>(mutations));
        int refused = 0;
        for (int m = 0; m < mutations; ++m) {
            // Half the time rewrite a whole field with a hostile value (every
            // tenth time one of the counts in the fixed header), else change
            // 1 to 4 random bytes of the header region.
            std::vector<std::pair<uint64_t, std::vector<uint8_t>>> changes;
            if (m % 2 == 0) {
                const Layout::Field f = l.fields[m % 10 == 0 ? 1 + rng() % 2 : rng() % l.fields.size()];
                // Including the largest counts that still pass the size checks.
                const uint64_t hostile[] = {0,
                                            1,
                                            2,
                                            0xff,
                                            0xffffffffull,
                                            0x7fffffffffffffffull,
                                            ~0ull,
                                            l.fileSize,
                                            l.fileSize - f.at,
                                            (l.fileSize - 24) / 14,
                                            (l.fileSize - 24) / 24,
                                            (l.fileSize - f.at) / 8,
                                            rng(),
                                            rng() & 0xffff};
                const uint64_t v = hostile[rng() % std::size(hostile)];
                std::vector<uint8_t> bytes(static_cast<size_t>(f.width));
                std::memcpy(bytes.data(), &v, bytes.size());
                changes.emplace_back(f.at, bytes);
            } else {
                const int n = 1 + static_cast<int>(rng() % 4);
                for (int i = 0; i < n; ++i)
                    changes.emplace_back(rng() % l.dataOffset, std::vector<uint8_t>{static_cast<uint8_t>(rng())});
            }
            for (const auto& [at, bytes] : changes)
                patch(scratch, at, bytes.data(), bytes.size());
            const Outcome o = tryOpen(scratch, l.fileSize);
            QVERIFY2(o.problem.isEmpty(), qPrintable(QStringLiteral("mutation %1: %2").arg(m).arg(o.problem)));
            refused += o.opened ? 0 : 1;
            for (auto it = changes.rbegin(); it != changes.rend(); ++it) // restore
                patch(scratch, it->first, l.prefix.data() + it->first, it->second.size());
        }
        qInfo("%d of %d mutated headers refused", refused, mutations);
        QVERIFY(refused > mutations / 4); // the aimed half mostly breaks something
    }
};

QTEST_APPLESS_MAIN(TestGgufCorruption)
#include "test_gguf_corruption.moc"

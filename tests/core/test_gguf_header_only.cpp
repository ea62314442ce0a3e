// Opening a model reads its header and nothing of its tensor data. The
// real models' headers are placed in memory whose tensor data section is
// unreadable (PROT_NONE, starting exactly at the data offset): opening,
// summarizing and copying the header must all succeed, since one read of a
// tensor byte would kill the test with SIGSEGV. (Timing: bench/gguf_open.)

#include "test_support.h"

#include "gguf/gguf.h"
#include "gguf/gguf_writer.h"
#include "gguf/model_info.h"

#include <QTest>

#include <fstream>

#ifndef _WIN32
#include <sys/mman.h>
#include <unistd.h>
#endif

using namespace hearth;

namespace {

#ifndef _WIN32
// fileSize bytes of address space whose first `readable` bytes hold `head`
// and whose rest cannot be read; the boundary falls on a page boundary.
class GuardedBuffer {
public:
    GuardedBuffer(const std::vector<uint8_t>& head, size_t readable, size_t fileSize)
    {
        const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
        m_shift = (page - readable % page) % page; // so that base + readable is page-aligned
        m_length = (m_shift + fileSize + page - 1) / page * page;
        void* p = ::mmap(nullptr, m_length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return;
        m_map = static_cast<uint8_t*>(p);
        std::copy(head.begin(), head.begin() + static_cast<ptrdiff_t>(readable), base());
        if (m_shift + readable < m_length)
            ::mprotect(base() + readable, m_length - m_shift - readable, PROT_NONE);
        m_size = fileSize;
    }
    ~GuardedBuffer()
    {
        if (m_map)
            ::munmap(m_map, m_length);
    }
    uint8_t* base() { return m_map + m_shift; }
    std::span<const uint8_t> bytes() { return {base(), m_size}; }
    bool ok() const { return m_map != nullptr; }

private:
    uint8_t* m_map = nullptr;
    size_t m_shift = 0, m_length = 0, m_size = 0;
};
#endif

} // namespace

class TestGgufHeaderOnly : public QObject {
    Q_OBJECT

private slots:
    void readsNoTensorData_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("smollm2") << QString::fromStdString(testsupport::smolLm2Path());
        QTest::newRow("gemma3") << QString::fromStdString(testsupport::gemma3Path());
    }

    void readsNoTensorData()
    {
#ifdef _WIN32
        QSKIP("uses mmap/mprotect");
#else
        QFETCH(QString, path);
        if (path.isEmpty())
            QSKIP(testsupport::kModelsMissing);
        size_t dataOffset = 0, fileSize = 0;
        {
            const gguf::File f(path.toStdString());
            dataOffset = f.dataOffset();
            fileSize = f.fileSize();
        }
        std::vector<uint8_t> head(dataOffset);
        std::ifstream(path.toStdString(), std::ios::binary)
            .read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
        GuardedBuffer buffer(head, dataOffset, fileSize);
        QVERIFY(buffer.ok());
        const gguf::File f("guarded", buffer.bytes());
        QCOMPARE(f.dataOffset(), uint64_t(dataOffset));
        const gguf::ModelInfo info = gguf::summarize(f);
        QVERIFY(info.parameters > 100'000'000);
        QVERIFY(!info.architecture.empty());
        for (const gguf::KeyValue& kv : f.metadata())
            (void)kv.value.toDisplayString();
        QCOMPARE(gguf::copyOf(f).headerBytes(), head);
#endif
    }
};

QTEST_APPLESS_MAIN(TestGgufHeaderOnly)
#include "test_gguf_header_only.moc"

// Stopping a running forward pass: thousands of decodes on a small synthetic
// model, each aborted at a random moment by another thread while two busy
// threads keep both cores loaded (so the pool's threads are descheduled at
// random points, which is what turned a late read of the abort flag into a
// deadlock at the op barrier). Every decode must return, and the context
// must stay usable: after each stop the next full decode gives the same
// logits as an undisturbed one. A watchdog fails the test (instead of
// hanging ctest) when one decode takes far longer than it could.

#include "test_support.h"

#include "cpu/cpu_backend.h"
#include "gguf/gguf.h"
#include "model/model.h"
#include "runtime/context.h"

#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

using namespace hearth;
using Clock = std::chrono::steady_clock;

namespace {

// Keeps `n` threads spinning until destroyed.
class CpuHog {
public:
    explicit CpuHog(int n)
    {
        for (int i = 0; i < n; ++i)
            m_threads.emplace_back([this] {
                volatile uint64_t x = 0;
                while (!m_stop.load(std::memory_order_relaxed))
                    x = x * 6364136223846793005ULL + 1;
            });
    }
    ~CpuHog()
    {
        m_stop = true;
        for (auto& t : m_threads)
            t.join();
    }

private:
    std::atomic<bool> m_stop{false};
    std::vector<std::thread> m_threads;
};

// Aborts the process when a decode does not return within `limit`: a hang
// must fail the test with a message, not wait for ctest's timeout.
class Watchdog {
public:
    explicit Watchdog(std::chrono::seconds limit) : m_limit(limit)
    {
        m_thread = std::thread([this] {
            std::unique_lock lock(m_mutex);
            while (!m_done) {
                const uint64_t seen = m_beats;
                if (!m_cv.wait_for(lock, m_limit, [&] { return m_done || m_beats != seen; })) {
                    std::fprintf(stderr, "FAIL: a stopped decode did not return within %lld s (deadlock)\n",
                                 static_cast<long long>(m_limit.count()));
                    std::fflush(stderr);
                    std::abort();
                }
            }
        });
    }
    ~Watchdog()
    {
        {
            std::lock_guard lock(m_mutex);
            m_done = true;
        }
        m_cv.notify_all();
        m_thread.join();
    }
    void beat()
    {
        {
            std::lock_guard lock(m_mutex);
            ++m_beats;
        }
        m_cv.notify_all();
    }

private:
    std::chrono::seconds m_limit;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    uint64_t m_beats = 0;
    bool m_done = false;
    std::thread m_thread;
};

} // namespace

class TestCpuStop : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::shared_ptr<gguf::File> m_file;

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const std::string why = testsupport::makeSyntheticModels(m_dir.path().toStdString(), {"llama-q8_0"});
        if (!why.empty())
            QSKIP(qPrintable(QString::fromStdString(std::string(testsupport::kPythonMissing) + ": " + why)));
        m_file = std::make_shared<gguf::File>(m_dir.path().toStdString() + "/llama-q8_0.gguf");
    }

    // Both cores loaded, 2 and 3 pool threads (more threads than cores makes
    // a late reader likelier), stops at random moments from a second thread.
    void stopsAtRandomMomentsUnderLoad_data()
    {
        QTest::addColumn<int>("threads");
        QTest::newRow("2 threads") << 2;
        QTest::newRow("3 threads") << 3;
    }
    void stopsAtRandomMomentsUnderLoad()
    {
        QFETCH(int, threads);
        cpu::CpuBackend backend(threads);
        std::shared_ptr<const Model> model = Model::create(m_file, backend);
        Context ctx(model, backend, ContextParams{256, 64, GgmlType::F16});

        std::vector<TokenId> prompt(48);
        for (size_t i = 0; i < prompt.size(); ++i)
            prompt[i] = static_cast<TokenId>(1 + (i * 7) % 60);

        // The undisturbed result, and how long one decode takes unloaded.
        const auto t0 = Clock::now();
        QVERIFY(ctx.decode(prompt, 0, 0, /*allLogits=*/false));
        const double fullUs = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
        const std::vector<float> expected(ctx.logits(0).begin(), ctx.logits(0).end());
        ctx.kv().clear();

        CpuHog hog(2);
        Watchdog watchdog(std::chrono::seconds(20));
        std::mt19937 rng(1234 + threads);
        // A stop lands anywhere from before the first op to after the last.
        std::uniform_real_distribution<double> when(0.0, 1.5 * fullUs);

        // Bounded in count and in time, whichever comes first.
        const int maxRounds = 3000;
        const auto deadline = Clock::now() + std::chrono::seconds(20);
        int rounds = 0, stopped = 0;
        std::atomic<bool> abort{false};
        while (rounds < maxRounds && Clock::now() < deadline) {
            abort = false;
            const auto delay = std::chrono::duration<double, std::micro>(when(rng));
            std::thread stopper([&] {
                std::this_thread::sleep_for(delay);
                abort = true;
            });
            const bool finished = ctx.decode(prompt, 0, 0, /*allLogits=*/false, &abort);
            stopper.join();
            watchdog.beat();
            ++rounds;
            if (!finished) {
                ++stopped;
                // A stop leaves no cells behind, so the next decode starts
                // from an empty cache, as a stop in the app does.
                QCOMPARE(ctx.kv().usedCells(), int64_t(0));
            } else {
                const auto got = ctx.logits(0);
                QVERIFY(std::equal(got.begin(), got.end(), expected.begin(), expected.end()));
            }
            ctx.kv().clear();
            // Every tenth round, check the context still computes correctly.
            if (rounds % 10 == 0) {
                QVERIFY(ctx.decode(prompt, 0, 0, /*allLogits=*/false));
                const auto got = ctx.logits(0);
                QVERIFY(std::equal(got.begin(), got.end(), expected.begin(), expected.end()));
                ctx.kv().clear();
                watchdog.beat();
            }
        }
        qInfo("%d decodes, %d stopped mid-way, %.0f us for an unloaded decode", rounds, stopped, fullUs);
        QVERIFY2(stopped > rounds / 4, "the stops should mostly land inside a decode");
    }
};

QTEST_GUILESS_MAIN(TestCpuStop)
#include "test_cpu_stop.moc"

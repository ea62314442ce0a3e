// A persistent pool of worker threads for the CPU backend. run() hands one
// job to every thread (the caller is thread 0) and returns when all are done;
// inside a job, threads meet at barrier() between steps. Idle workers spin
// briefly and then sleep on an atomic wait, so a pool costs nothing while no
// model runs, and back-to-back runs (one per token) do not pay a wake-up.
//
// With `pin`, worker i stays on allowed processor i (cpu/affinity.h), so the
// OS does not move a worker away from the cache it warmed; the caller
// (thread 0) is left where it is, since its affinity is not the pool's to
// change.
//
// Thread-safety: run() may be called by one thread at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace hearth::cpu {

class ThreadPool {
public:
    using Job = std::function<void(int ith, int nth)>;

    explicit ThreadPool(int threads, bool pin = false);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return m_threads; }
    bool pinned() const { return m_pin; }

    // Runs `job(ith, nth)` on every thread, the caller included, and returns
    // when every thread has returned from it.
    void run(const Job& job);

    // Called by every thread of the current job; returns when all have called
    // it. Between two barriers a thread may touch what others wrote before
    // the first.
    void barrier();

private:
    void workerLoop(int ith, int cpu);
    static void waitWhile(const std::atomic<uint32_t>& value, uint32_t old);

    int m_threads;
    bool m_pin;
    std::vector<std::thread> m_workers;
    const Job* m_job = nullptr;
    std::atomic<uint32_t> m_generation{0}; // bumped to start a job
    std::atomic<bool> m_stop{false};
    std::atomic<int> m_running{0}; // workers still in the job
    std::atomic<int> m_arrived{0}; // barrier count
    std::atomic<uint32_t> m_barrierPhase{0};
};

} // namespace hearth::cpu

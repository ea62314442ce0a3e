// One generation the server runs in a slot: the prompt tokens and settings
// going in, a stream of events coming out (text pieces, then one "done" or
// "failed"). The HTTP thread that made the job waits on its events; the
// engine thread posts them. n choices of one request are n jobs.
//
// Thread-safety: post()/next() may be called from different threads;
// cancel() from any thread (the engine frees the slot at its next step,
// that is within one token).
#pragma once

#include "runtime/session.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hearth::server {

struct JobParams {
    std::vector<TokenId> prompt;
    GenerationParams generation; // maxTokens, sampling
    std::vector<std::string> stop;
    int logprobs = -1; // -1: none; else the number of alternatives (0..20) per token
};

struct TokenLogprob {
    TokenId token = 0;
    float logprob = 0.0f;
};

// Per generated token, when logprobs were asked for.
struct TokenInfo {
    TokenLogprob chosen;
    std::vector<TokenLogprob> top;
};

struct JobSummary {
    std::string finishReason; // "stop", "length" or "cancelled"
    int64_t promptTokens = 0;
    int64_t cachedTokens = 0; // of the prompt, reused from the slot's cache
    int64_t generatedTokens = 0;
    double queueMs = 0.0;      // waiting for a slot
    double promptMs = 0.0;     // from getting a slot to the first token
    double generationMs = 0.0; // from the first token to the end
    int slot = -1;
};

struct JobEvent {
    enum class Kind {
        Piece,
        Done,
        Failed
    };
    Kind kind = Kind::Piece;
    std::string text;              // Piece: UTF-8-complete text (may be empty with tokens)
    std::vector<TokenInfo> tokens; // Piece: logprobs of the tokens behind the text
    JobSummary summary;            // Done
    std::string error;             // Failed
    int index = 0;                 // the job's index in its request (the choice)
};

// Where the jobs of one request post their events (one queue, so a
// streaming reply waits on one thing for all its choices).
class EventChannel {
public:
    void post(JobEvent event);
    // The next event, or false after `timeout` without one.
    bool next(JobEvent& out, std::chrono::milliseconds timeout);

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<JobEvent> m_events;
};

class Job {
public:
    Job(JobParams params, std::shared_ptr<EventChannel> channel, int index = 0)
        : m_params(std::move(params))
        , m_channel(std::move(channel))
        , m_index(index)
        , m_submitted(std::chrono::steady_clock::now())
    {
    }

    const JobParams& params() const { return m_params; }
    int index() const { return m_index; }
    std::chrono::steady_clock::time_point submitted() const { return m_submitted; }

    void cancel() { m_cancel.store(true, std::memory_order_relaxed); }
    bool cancelled() const { return m_cancel.load(std::memory_order_relaxed); }

    // Engine side: the event goes to the channel tagged with index().
    void post(JobEvent event);

private:
    JobParams m_params;
    std::shared_ptr<EventChannel> m_channel;
    int m_index;
    std::chrono::steady_clock::time_point m_submitted;
    std::atomic<bool> m_cancel{false};
};

} // namespace hearth::server

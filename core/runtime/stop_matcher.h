// Stop strings over streamed text: holds back the tail of the text that
// could still become a stop string until it is known not to, and cuts the
// text at the first stop string that completes. Used by generateText() and
// by the server's slots, which stream many replies at once.
//
// Thread-safety: none (one per generation). Cost: O(pending · Σ|stop|) per
// piece; pending is at most the longest stop string.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hearth {

class StopMatcher {
public:
    explicit StopMatcher(std::vector<std::string> stop) : m_stop(std::move(stop)) {}

    // Adds text; returns what can be emitted now. Sets `hit` when a stop
    // string completed (the text before it is returned, the rest dropped).
    std::string push(std::string_view piece, bool& hit);
    // The held-back text (no stop string completed); resets.
    std::string flush() { return std::exchange(m_pending, {}); }

private:
    std::vector<std::string> m_stop;
    std::string m_pending;
};

} // namespace hearth

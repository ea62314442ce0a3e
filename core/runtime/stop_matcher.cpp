#include "runtime/stop_matcher.h"

#include <algorithm>

namespace hearth {

std::string StopMatcher::push(std::string_view piece, bool& hit)
{
    m_pending += piece;
    for (const std::string& s : m_stop) {
        if (s.empty())
            continue;
        const size_t at = m_pending.find(s);
        if (at != std::string::npos) {
            hit = true;
            std::string out = m_pending.substr(0, at);
            m_pending.clear();
            return out;
        }
    }
    size_t keep = 0; // longest tail that is a prefix of a stop string
    for (const std::string& s : m_stop) {
        for (size_t n = std::min(s.size() - (s.empty() ? 0 : 1), m_pending.size()); n > keep; --n) {
            if (m_pending.compare(m_pending.size() - n, n, s, 0, n) == 0) {
                keep = n;
                break;
            }
        }
    }
    std::string out = m_pending.substr(0, m_pending.size() - keep);
    m_pending.erase(0, m_pending.size() - keep);
    return out;
}

} // namespace hearth

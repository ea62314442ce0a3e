#include "Job.h"

namespace hearth::server {

void EventChannel::post(JobEvent event)
{
    {
        std::lock_guard lock(m_mutex);
        m_events.push_back(std::move(event));
    }
    m_cv.notify_one();
}

bool EventChannel::next(JobEvent& out, std::chrono::milliseconds timeout)
{
    std::unique_lock lock(m_mutex);
    if (!m_cv.wait_for(lock, timeout, [&] { return !m_events.empty(); }))
        return false;
    out = std::move(m_events.front());
    m_events.pop_front();
    return true;
}

void Job::post(JobEvent event)
{
    event.index = m_index;
    m_channel->post(std::move(event));
}

} // namespace hearth::server

#include "chat/RepetitionGuard.h"

#include <algorithm>
#include <vector>

bool RepetitionGuard::feed(const QString& text)
{
    if (!m_unit.isEmpty())
        return true;
    m_tail += text;
    if (m_tail.size() > 2 * kWindow)
        m_tail.remove(0, m_tail.size() - kWindow);
    m_sinceCheck += int(text.size());
    if (m_sinceCheck < kCheckEvery)
        return false;
    m_sinceCheck = 0;
    m_unit = loopingUnit(m_tail.right(kWindow));
    return !m_unit.isEmpty();
}

void RepetitionGuard::reset()
{
    m_tail.clear();
    m_unit.clear();
    m_sinceCheck = 0;
}

QString RepetitionGuard::loopingUnit(const QString& text)
{
    // r = the tail reversed; a prefix r[0, m) with period p is a tail of
    // `text` of m characters made of a p-character unit. The prefix
    // function pi gives each prefix's shortest period, m - pi[m - 1].
    const qsizetype n = std::min<qsizetype>(text.size(), kWindow);
    if (n < kMinCoverage)
        return {};
    std::vector<QChar> r(static_cast<size_t>(n));
    for (qsizetype i = 0; i < n; ++i)
        r[size_t(i)] = text.at(text.size() - 1 - i);
    std::vector<qsizetype> pi(static_cast<size_t>(n), 0);
    for (qsizetype i = 1; i < n; ++i) {
        qsizetype k = pi[size_t(i - 1)];
        while (k > 0 && r[size_t(i)] != r[size_t(k)])
            k = pi[size_t(k - 1)];
        if (r[size_t(i)] == r[size_t(k)])
            ++k;
        pi[size_t(i)] = k;
    }
    for (qsizetype m = n; m >= kMinCoverage; --m) {
        const qsizetype period = m - pi[size_t(m - 1)];
        if (period <= kMaxUnit && m >= kMinRepeats * period) {
            QString unit;
            for (qsizetype i = period - 1; i >= 0; --i)
                unit.append(r[size_t(i)]);
            // A unit of blanks only (long runs of spaces or newlines in
            // code or tables) is not a runaway reply.
            if (unit.trimmed().isEmpty())
                return {};
            return unit;
        }
    }
    return {};
}

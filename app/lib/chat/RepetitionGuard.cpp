#include "chat/RepetitionGuard.h"

#include <algorithm>
#include <vector>

// Lower case, digits as '#', blanks squeezed; "" for a line with fewer than
// three letters (fences, rules, blank lines, bare numbers).
static QString normalisedLine(const QString& line)
{
    QString out;
    int letters = 0;
    for (const QChar c : line.simplified()) {
        if (c.isDigit()) {
            if (!out.endsWith(QLatin1Char('#')))
                out.append(QLatin1Char('#'));
            continue;
        }
        letters += c.isLetter();
        out.append(c.toLower());
    }
    return letters >= 3 ? out : QString();
}

void RepetitionGuard::addLines(const QString& text)
{
    m_partialLine += text;
    qsizetype newline;
    while ((newline = m_partialLine.indexOf(QLatin1Char('\n'))) >= 0) {
        const QString line = normalisedLine(m_partialLine.left(newline));
        m_partialLine.remove(0, newline + 1);
        if (line.isEmpty())
            continue;
        m_lines.append(line);
        if (m_lines.size() > kLineWindow)
            m_lines.removeFirst();
        if (m_unit.isEmpty())
            m_unit = loopingLine(m_lines);
    }
    if (m_partialLine.size() > kWindow) // one endless line: the unit check sees it
        m_partialLine = m_partialLine.right(kWindow);
}

QString RepetitionGuard::loopingLine(const QStringList& lines)
{
    if (lines.size() < kLineWindow)
        return {};
    QHash<QString, int> counts;
    for (qsizetype i = lines.size() - kLineWindow; i < lines.size(); ++i)
        ++counts[lines[i]];
    if (counts.size() > kMaxDistinctLines)
        return {};
    QString most;
    int best = 0;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        if (it.value() > best || (it.value() == best && it.key() < most)) {
            best = it.value();
            most = it.key();
        }
    return most;
}

bool RepetitionGuard::feed(const QString& text)
{
    if (!m_unit.isEmpty())
        return true;
    addLines(text);
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
    m_partialLine.clear();
    m_lines.clear();
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

// Notices a reply that has fallen into a loop, as small and base models do
// (the same sentence or phrase over and over until max tokens), so the chat
// can stop it and say why. Fed the reply's text as it streams; looks at the
// last kWindow characters only, in linear time (a prefix function over the
// reversed tail), at most once per kCheckEvery new characters.
//
// A loop is a tail of at least kMinCoverage characters made of one unit of
// 1..kMaxUnit characters repeated at least kMinRepeats times, exactly (what
// greedy and low-temperature decoding produce). Plain text, code and lists
// repeat words and lines, never hundreds of characters of one unit.
#pragma once

#include <QString>

class RepetitionGuard {
public:
    static constexpr int kWindow = 4096;
    static constexpr int kMaxUnit = 400;
    static constexpr int kMinRepeats = 4;
    static constexpr int kMinCoverage = 400;
    static constexpr int kCheckEvery = 32;

    // Appends `text`; true once the reply is looping (and from then on).
    bool feed(const QString& text);
    void reset();

    // The repeating unit found, "" until one is.
    QString unit() const { return m_unit; }

    // The shortest unit u such that the last `coverage` characters of
    // `text` are u repeated (a whole number of times or not), for the
    // longest such tail with at least kMinRepeats repeats and kMinCoverage
    // characters; "" if there is none.
    static QString loopingUnit(const QString& text);

private:
    QString m_tail;
    QString m_unit;
    int m_sinceCheck = 0;
};

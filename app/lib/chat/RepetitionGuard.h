// Notices a reply that has fallen into a loop, as small and base models do
// (the same sentence or phrase over and over until max tokens), so the chat
// can stop it and say why. Fed the reply's text as it streams; looks at the
// last kWindow characters only, in linear time (a prefix function over the
// reversed tail), at most once per kCheckEvery new characters.
//
// A loop is either a tail of at least kMinCoverage characters made of one
// unit of 1..kMaxUnit characters repeated at least kMinRepeats times,
// exactly (what greedy and low-temperature decoding produce), or the last
// kLineWindow lines with words in them made of at most kMaxDistinctLines
// different lines once digits are ignored (a sampled loop: "What is 7+3?",
// the same two sentences, "What is 2+9?", ...). Plain text, code and lists
// repeat words and some lines, never hundreds of characters of one unit nor
// twenty lines of four.
#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

class RepetitionGuard {
public:
    static constexpr int kWindow = 4096;
    static constexpr int kMaxUnit = 400;
    static constexpr int kMinRepeats = 4;
    static constexpr int kMinCoverage = 400;
    static constexpr int kCheckEvery = 32;
    static constexpr int kLineWindow = 20;
    static constexpr int kMaxDistinctLines = 5;

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
    // The line repeated most if the last kLineWindow worded lines of `lines`
    // hold at most kMaxDistinctLines different ones (digits ignored), else "".
    static QString loopingLine(const QStringList& lines);

private:
    void addLines(const QString& text);

    QString m_partialLine; // text after the last newline
    QStringList m_lines;   // the last kLineWindow worded lines, normalised
    QString m_tail;
    QString m_unit;
    int m_sinceCheck = 0;
};

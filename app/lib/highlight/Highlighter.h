// Syntax highlighting of code blocks, behind one interface with two
// implementations: PrismHighlighter (Prism.js in a QJSEngine, always built)
// and KSyntaxHighlighter (KF6SyntaxHighlighting, built where CMake finds it;
// preferred then). Results are spans over the code; CodeHtml turns them into
// rich text with the theme's colours.
//
// Thread-safety: an instance is used by one thread at a time (QJSEngine is
// not thread-safe); HighlightService owns one on its own thread.
#pragma once

#include <QList>
#include <QMetaType>
#include <QString>

#include <memory>

// A highlighted run: [start, start + length) in UTF-16 units of the code,
// with its kinds from outermost to innermost ("string", "comment",
// "keyword", ...; Prism's token names, which KSyntaxHighlighter maps to).
struct HighlightSpan {
    int start = 0;
    int length = 0;
    QString kinds; // space-separated
    bool operator==(const HighlightSpan&) const = default;
};

class Highlighter {
public:
    virtual ~Highlighter() = default;
    virtual QString name() const = 0;
    // The highlighter's name for a fence's info word ("py" -> "python"), or
    // "" when it cannot highlight that language.
    virtual QString resolve(const QString& language) const = 0;
    // Sorted, non-overlapping spans; empty for an unknown language.
    virtual QList<HighlightSpan> highlight(const QString& code, const QString& language) = 0;

    // The best highlighter built in: KF6SyntaxHighlighting when available,
    // else Prism.
    static std::unique_ptr<Highlighter> create();
};

Q_DECLARE_METATYPE(QList<HighlightSpan>)

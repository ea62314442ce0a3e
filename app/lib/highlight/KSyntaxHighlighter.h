// KF6SyntaxHighlighting (KDE's highlighting engine and definitions) behind
// the Highlighter interface. Built only where CMake finds
// KF6SyntaxHighlighting (it needs Qt >= 6.5, so not on Debian 12); then it
// is preferred over Prism. Its text styles are mapped to Prism's token names
// so both share the theme's colours. One thread.
#pragma once

#include "highlight/Highlighter.h"

#include <memory>

class KSyntaxHighlighter : public Highlighter {
public:
    KSyntaxHighlighter();
    ~KSyntaxHighlighter() override;

    QString name() const override { return QStringLiteral("ksyntaxhighlighting"); }
    QString resolve(const QString& language) const override;
    QList<HighlightSpan> highlight(const QString& code, const QString& language) override;

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

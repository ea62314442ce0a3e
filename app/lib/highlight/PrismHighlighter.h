// Prism.js (npm `prismjs`, bundled as resources under :/hearth/prism) run
// in a QJSEngine, with the RegExp `source` shim (js/regexp-source-shim.js)
// that makes its output identical to Node's on Qt 6.4.
//
// Construction evaluates Prism and its components (~40 ms); highlighting
// costs what Prism costs (a few ms for a screenful of code). One thread.
#pragma once

#include "highlight/Highlighter.h"

#include <QHash>
#include <QJSEngine>
#include <QJSValue>
#include <QStringList>

class PrismHighlighter : public Highlighter {
public:
    PrismHighlighter();

    QString name() const override { return QStringLiteral("prism"); }
    QString resolve(const QString& language) const override;
    QList<HighlightSpan> highlight(const QString& code, const QString& language) override;

    // Prism.highlight()'s HTML, as Node would print it (for the tests).
    QString highlightHtml(const QString& code, const QString& language);
    // False when the Prism resources are missing (built without scripts/setup).
    bool isAvailable() const { return m_available; }
    // The components loaded, in order.
    const QStringList& components() const { return m_components; }

private:
    bool evaluateResource(const QString& path);

    QJSEngine m_engine;
    QJSValue m_tokens;
    QJSValue m_html;
    QHash<QString, QString> m_known; // lower-case name or alias -> Prism language
    QStringList m_components;
    bool m_available = false;
};

// Colours the Markdown and code renderers write into their HTML. Comes from
// the Theme (light or dark); a change of theme re-renders every block.
#pragma once

#include <QColor>
#include <QHash>
#include <QString>

struct RenderStyle {
    QColor text{0x1f, 0x23, 0x28};
    QColor muted{0x65, 0x6d, 0x76};
    QColor link{0x09, 0x69, 0xda};
    QColor inlineCodeBackground{0xef, 0xf1, 0xf3};
    QColor border{0xd0, 0xd7, 0xde};
    // Colours of highlighter token kinds ("keyword", "string", "comment", …,
    // Prism's class names); a token takes the colour of its innermost kind
    // that has one.
    QHash<QString, QColor> tokens;

    static RenderStyle light();
    static RenderStyle dark();
};

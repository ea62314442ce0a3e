#include "markdown/RenderStyle.h"

namespace {

QHash<QString, QColor> tokenColors(bool dark)
{
    // Two palettes in the spirit of GitHub's light and dark code colours.
    const QColor comment = dark ? QColor(0x8b, 0x94, 0x9e) : QColor(0x6e, 0x77, 0x81);
    const QColor keyword = dark ? QColor(0xff, 0x7b, 0x72) : QColor(0xcf, 0x22, 0x2e);
    const QColor string = dark ? QColor(0xa5, 0xd6, 0xff) : QColor(0x0a, 0x30, 0x69);
    const QColor number = dark ? QColor(0x79, 0xc0, 0xff) : QColor(0x05, 0x50, 0xae);
    const QColor function = dark ? QColor(0xd2, 0xa8, 0xff) : QColor(0x82, 0x50, 0xdf);
    const QColor type = dark ? QColor(0xff, 0xa6, 0x57) : QColor(0x95, 0x38, 0x00);
    const QColor variable = dark ? QColor(0xff, 0xa6, 0x57) : QColor(0x95, 0x38, 0x00);
    const QColor punctuation = dark ? QColor(0xc9, 0xd1, 0xd9) : QColor(0x24, 0x29, 0x2f);
    return {
        {QStringLiteral("comment"), comment},
        {QStringLiteral("prolog"), comment},
        {QStringLiteral("doctype"), comment},
        {QStringLiteral("cdata"), comment},
        {QStringLiteral("keyword"), keyword},
        {QStringLiteral("important"), keyword},
        {QStringLiteral("atrule"), keyword},
        {QStringLiteral("rule"), keyword},
        {QStringLiteral("selector"), keyword},
        {QStringLiteral("tag"), keyword},
        {QStringLiteral("directive"), keyword},
        {QStringLiteral("string"), string},
        {QStringLiteral("char"), string},
        {QStringLiteral("attr-value"), string},
        {QStringLiteral("regex"), string},
        {QStringLiteral("template-string"), string},
        {QStringLiteral("url"), string},
        {QStringLiteral("number"), number},
        {QStringLiteral("boolean"), number},
        {QStringLiteral("constant"), number},
        {QStringLiteral("symbol"), number},
        {QStringLiteral("builtin"), type},
        {QStringLiteral("function"), function},
        {QStringLiteral("function-definition"), function},
        {QStringLiteral("class-name"), type},
        {QStringLiteral("attr-name"), type},
        {QStringLiteral("property"), number},
        {QStringLiteral("variable"), variable},
        {QStringLiteral("macro"), keyword},
        {QStringLiteral("operator"), punctuation},
        {QStringLiteral("punctuation"), punctuation},
        {QStringLiteral("namespace"), type},
        {QStringLiteral("deleted"), keyword},
        {QStringLiteral("inserted"), QColor(dark ? 0x7ee787 : 0x116329)},
        {QStringLiteral("interpolation"), punctuation},
        {QStringLiteral("lifetime-annotation"), type},
    };
}

} // namespace

RenderStyle RenderStyle::light()
{
    RenderStyle s;
    s.tokens = tokenColors(false);
    return s;
}

RenderStyle RenderStyle::dark()
{
    RenderStyle s;
    s.text = QColor(0xe6, 0xed, 0xf3);
    s.muted = QColor(0x8d, 0x96, 0xa0);
    s.link = QColor(0x58, 0xa6, 0xff);
    s.inlineCodeBackground = QColor(0x34, 0x3a, 0x42);
    s.border = QColor(0x3d, 0x44, 0x4d);
    s.tokens = tokenColors(true);
    return s;
}

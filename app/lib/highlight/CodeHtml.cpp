#include "highlight/CodeHtml.h"

#include "markdown/InlineMarkdown.h"

#include <algorithm>

namespace CodeHtml {

QColor colorFor(const QString& kinds, const RenderStyle& style)
{
    qsizetype end = kinds.size();
    while (end > 0) {
        const qsizetype space = kinds.lastIndexOf(QLatin1Char(' '), end - 1);
        const QString kind = kinds.mid(space + 1, end - space - 1);
        if (const auto it = style.tokens.constFind(kind); it != style.tokens.cend())
            return it.value();
        end = space;
    }
    return {};
}

QString render(QStringView chunk, int offset, const QList<HighlightSpan>& spans, const RenderStyle& style)
{
    QString html = QStringLiteral("<pre style=\"margin:0; white-space:pre-wrap\">");
    const int end = offset + int(chunk.size());
    auto it = std::lower_bound(spans.cbegin(), spans.cend(), offset,
                               [](const HighlightSpan& s, int pos) { return s.start + s.length <= pos; });
    int pos = offset;
    for (; it != spans.cend() && it->start < end; ++it) {
        const int from = std::max(it->start, offset);
        const int to = std::min(it->start + it->length, end);
        if (from > pos)
            html += InlineMarkdown::escape(chunk.mid(pos - offset, from - pos));
        const QColor color = colorFor(it->kinds, style);
        const QString text = InlineMarkdown::escape(chunk.mid(from - offset, to - from));
        html += color.isValid() ? QStringLiteral("<span style=\"color:%1\">%2</span>").arg(color.name(), text) : text;
        pos = to;
    }
    if (pos < end)
        html += InlineMarkdown::escape(chunk.mid(pos - offset));
    return html + QStringLiteral("</pre>");
}

} // namespace CodeHtml

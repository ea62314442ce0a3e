#include "markdown/BlockHtml.h"

#include "markdown/InlineMarkdown.h"

#include <QStringList>

namespace BlockHtml {
namespace {

QStringList cells(QString row)
{
    row = row.trimmed();
    if (row.startsWith(QLatin1Char('|')))
        row.remove(0, 1);
    if (row.endsWith(QLatin1Char('|')) && !row.endsWith(QLatin1String("\\|")))
        row.chop(1);
    QStringList out;
    QString cell;
    for (qsizetype i = 0; i < row.size(); ++i) {
        if (row[i] == QLatin1Char('\\') && i + 1 < row.size() && row[i + 1] == QLatin1Char('|')) {
            cell += QLatin1Char('|');
            ++i;
        } else if (row[i] == QLatin1Char('|')) {
            out.append(cell.trimmed());
            cell.clear();
        } else {
            cell += row[i];
        }
    }
    out.append(cell.trimmed());
    return out;
}

QString table(const QString& text, const RenderStyle& style)
{
    const QStringList rows = text.split(QLatin1Char('\n'));
    QStringList aligns;
    for (const QString& d : cells(rows.value(1))) {
        const bool left = d.startsWith(QLatin1Char(':')), right = d.endsWith(QLatin1Char(':'));
        aligns.append(left && right ? QStringLiteral("center")
                      : right       ? QStringLiteral("right")
                                    : QStringLiteral("left"));
    }
    QString html = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"6\" style=\"border-color:%1; "
                                  "border-style:solid; border-collapse:collapse\">")
                       .arg(style.border.name());
    for (qsizetype r = 0; r < rows.size(); ++r) {
        if (r == 1)
            continue; // the delimiter row
        const QStringList row = cells(rows[r]);
        html += QStringLiteral("<tr>");
        for (qsizetype c = 0; c < aligns.size(); ++c) {
            const QString tag = r == 0 ? QStringLiteral("th") : QStringLiteral("td");
            html += QStringLiteral("<%1 align=\"%2\">%3</%1>")
                        .arg(tag, aligns[c], InlineMarkdown::toHtml(row.value(c), style));
        }
        html += QStringLiteral("</tr>");
    }
    return html + QStringLiteral("</table>");
}

} // namespace

QString render(const MarkdownBlock& block, const RenderStyle& style)
{
    switch (block.kind) {
    case MarkdownBlock::Kind::Table: return table(block.text, style);
    case MarkdownBlock::Kind::Rule: return {};
    case MarkdownBlock::Kind::Code: return InlineMarkdown::escape(block.text);
    default: return InlineMarkdown::toHtml(block.text, style);
    }
}

QString displayMarker(const MarkdownBlock& block)
{
    if (block.kind != MarkdownBlock::Kind::ListItem)
        return {};
    if (block.marker.front().isDigit())
        return block.marker.endsWith(QLatin1Char(')')) ? block.marker.chopped(1) + QLatin1Char('.') : block.marker;
    static const QString bullets[] = {QStringLiteral("•"), QStringLiteral("◦"), QStringLiteral("▪")};
    return bullets[block.level % 3];
}

} // namespace BlockHtml

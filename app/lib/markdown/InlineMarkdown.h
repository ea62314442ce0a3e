// Inline Markdown to the HTML subset Qt's rich text understands: code spans,
// strong / emphasis (* and _, CommonMark's delimiter-run rules, simplified),
// ~~strikethrough~~, [links](url) and <autolinks> (http, https, mailto
// only), backslash escapes and hard line breaks. Everything else is escaped:
// raw HTML in model output is shown as text, never interpreted.
// Cost: linear in the input.
#pragma once

#include "markdown/RenderStyle.h"

#include <QString>

namespace InlineMarkdown {

QString toHtml(const QString& text, const RenderStyle& style);
QString escape(QStringView text);

} // namespace InlineMarkdown

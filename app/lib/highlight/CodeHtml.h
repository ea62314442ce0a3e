// Rich text for a code chunk: HTML-escaped text in a <pre>, with each
// highlighted run in its kind's colour. Spans refer to offsets in the whole
// fence's code; a chunk is the part from `offset` on. Cost: linear in the
// chunk plus a binary search into the spans.
#pragma once

#include "highlight/Highlighter.h"
#include "markdown/RenderStyle.h"

namespace CodeHtml {

QString render(QStringView chunk, int offset, const QList<HighlightSpan>& spans, const RenderStyle& style);

// The colour for a span's kinds: the innermost kind that has one; invalid if none.
QColor colorFor(const QString& kinds, const RenderStyle& style);

} // namespace CodeHtml

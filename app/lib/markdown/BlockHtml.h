// Rich text for one non-code Markdown block (paragraph, heading, list item,
// quote, table; a rule has none). Code chunks are rendered by CodeHtml with
// their highlighting. Cost: linear in the block.
#pragma once

#include "markdown/MarkdownBlocks.h"
#include "markdown/RenderStyle.h"

namespace BlockHtml {

QString render(const MarkdownBlock& block, const RenderStyle& style);
// The marker a list item shows: its number ("3.") or a bullet by depth.
QString displayMarker(const MarkdownBlock& block);

} // namespace BlockHtml

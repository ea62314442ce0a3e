#include "highlight/Highlighter.h"

#include "highlight/PrismHighlighter.h"
#ifdef HEARTH_HAVE_KSYNTAXHIGHLIGHTING
#include "highlight/KSyntaxHighlighter.h"
#endif

std::unique_ptr<Highlighter> Highlighter::create()
{
#ifdef HEARTH_HAVE_KSYNTAXHIGHLIGHTING
    return std::make_unique<KSyntaxHighlighter>();
#else
    return std::make_unique<PrismHighlighter>();
#endif
}

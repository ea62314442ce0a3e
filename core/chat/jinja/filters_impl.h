// Internal: filter functions shared between filters.cpp (strings, numbers,
// the table) and filters_seq.cpp (sequences and mappings).
#pragma once

#include "chat/jinja/interpreter.h"
#include "chat/value.h"

#include <functional>
#include <string>
#include <vector>

namespace hearth::chat::jinja::filters {

// jinja2's make_attrgetter: "a.b.0" looks up each part with getitem
// (integer parts as integers); `lowercase` applies ignore_case.
Value lookupPath(Interpreter& interp, const Value& item, const Value& path, bool lowercase,
                 const Value* fallback = nullptr);
Value ignoreCase(const Value& v);

#define HEARTH_SEQ_FILTER(name) Value name(Interpreter& interp, const Value& input, CallArgs& args)
HEARTH_SEQ_FILTER(batch);
HEARTH_SEQ_FILTER(dictsort);
HEARTH_SEQ_FILTER(first);
HEARTH_SEQ_FILTER(groupby);
HEARTH_SEQ_FILTER(items);
HEARTH_SEQ_FILTER(join);
HEARTH_SEQ_FILTER(last);
HEARTH_SEQ_FILTER(length);
HEARTH_SEQ_FILTER(list);
HEARTH_SEQ_FILTER(map);
HEARTH_SEQ_FILTER(max);
HEARTH_SEQ_FILTER(min);
HEARTH_SEQ_FILTER(random);
HEARTH_SEQ_FILTER(reject);
HEARTH_SEQ_FILTER(rejectattr);
HEARTH_SEQ_FILTER(reverse);
HEARTH_SEQ_FILTER(select);
HEARTH_SEQ_FILTER(selectattr);
HEARTH_SEQ_FILTER(slice);
HEARTH_SEQ_FILTER(sort);
HEARTH_SEQ_FILTER(sum);
HEARTH_SEQ_FILTER(unique);
#undef HEARTH_SEQ_FILTER

} // namespace hearth::chat::jinja::filters

// Internal: the filter functions of filters.cpp (numbers, conversions,
// tojson, the table), filters_seq.cpp (sequences and mappings) and
// filters_text.cpp (strings).
#pragma once

#include "chat/jinja/interpreter.h"
#include "chat/value.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::chat::jinja::filters {

// jinja2's make_attrgetter: "a.b.0" looks up each part with getitem
// (integer parts as integers); `lowercase` applies ignore_case.
Value lookupPath(Interpreter& interp, const Value& item, const Value& path, bool lowercase,
                 const Value* fallback = nullptr);
Value ignoreCase(const Value& v);

// Python's float(text), or nullopt where it raises (filters.cpp).
std::optional<double> parsePyFloat(std::string_view text);

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
// filters_text.cpp
HEARTH_SEQ_FILTER(capitalize);
HEARTH_SEQ_FILTER(center);
HEARTH_SEQ_FILTER(filesizeformat);
HEARTH_SEQ_FILTER(indent);
HEARTH_SEQ_FILTER(lower);
HEARTH_SEQ_FILTER(upper);
HEARTH_SEQ_FILTER(replace);
HEARTH_SEQ_FILTER(striptags);
HEARTH_SEQ_FILTER(title);
HEARTH_SEQ_FILTER(trim);
HEARTH_SEQ_FILTER(truncate);
HEARTH_SEQ_FILTER(urlencode);
HEARTH_SEQ_FILTER(wordcount);
HEARTH_SEQ_FILTER(wordwrap);
HEARTH_SEQ_FILTER(xmlattr);
HEARTH_SEQ_FILTER(urlize);
#undef HEARTH_SEQ_FILTER

} // namespace hearth::chat::jinja::filters

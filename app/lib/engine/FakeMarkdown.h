// The text the fake engine "generates": realistic Markdown (paragraphs,
// headings, bullet and numbered lists, a quote, a table, code fences in
// several languages) assembled from a fixed repertoire, chosen by a seed, so
// the same prompt and seed always give the same reply. Chinese prompts get a
// reply in Chinese. Split into token-like pieces for streaming.
#pragma once

#include <QString>
#include <QStringList>

namespace FakeMarkdown {

// A reply to `prompt`; sections are added until it has at least `minPieces`
// pieces (0: one natural reply of a few hundred pieces). A prompt that
// starts with numbered sources ("Sources:\n[1] label\ntext...", as a
// document chat sends) gets an answer quoting the first words of each source
// with its citation, and one citation of a source that was not given, as a
// careless model writes: the app must drop it. Without `cite`, the same
// answer has no numbers at all, as small models write it.
QString reply(const QString& prompt, quint64 seed, int minPieces = 0, bool cite = true);

// Splits text the way a BPE tokenizer roughly would: a word with its leading
// space, a single punctuation mark, a newline, one CJK character. Never splits
// a surrogate pair. Concatenating the pieces gives the text back.
QStringList pieces(const QString& text);

// Rough token count of `text` (pieces(text).size() without allocating them).
int countTokens(const QString& text);

} // namespace FakeMarkdown

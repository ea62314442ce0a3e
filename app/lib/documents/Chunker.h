// Cuts a document's blocks into chunks for embedding and search, measured
// in the embedder's own tokens: about `target` tokens each, never more than
// `max`, the last `overlap` tokens' worth of sentences repeated at the start
// of the next chunk. Chunks end at paragraph boundaries where they can, at
// sentence boundaries inside long paragraphs (and at word boundaries inside
// overlong sentences), and never run across a heading or a page break (so
// each cites one page, or two when a paragraph continues on the next one).
//
// Cost: one tokenizer call per sentence. Thread-safety: stateless.
#pragma once

#include "documents/Extraction.h"

#include <functional>

namespace documents {

struct Chunk {
    QString text;                 // what is shown and searched
    QString headingPath;          // "Chapter > Section" ("" at the top)
    int pageFrom = 0, pageTo = 0; // 0 for formats without pages
    QString pageLabel;            // the label of pageFrom
    int line = 0;                 // first source line (text formats)
    int tokens = 0;               // embedder tokens of text
    // What is embedded: the heading path, then the text.
    QString embedText() const { return headingPath.isEmpty() ? text : headingPath + QStringLiteral("\n") + text; }
};

struct ChunkParams {
    int target = 200;
    int overlap = 40;
    int max = 254; // the embedder's max sequence minus [CLS] and [SEP]
};

using TokenCounter = std::function<int(const QString&)>;

QList<Chunk> chunkDocument(const Extracted& doc, const TokenCounter& count, const ChunkParams& params = {});

// Sentences of a paragraph (ends at . ! ? and their CJK forms, kept with
// their sentence).
QStringList splitSentences(const QString& text);

} // namespace documents

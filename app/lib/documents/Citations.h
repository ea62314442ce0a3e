// Retrieved passages in a prompt, and the citations of an answer: passage n
// appears as "[n] file · p. 12 (xii) · Heading" followed by its text; the
// model is asked to cite with [n]; citations of numbers that were not in the
// context are dropped from the answer.
#pragma once

#include "documents/Retriever.h"

namespace documents {

// "report.pdf · p. 12 (xii) · Results > Costs": file name, page or page range
// (label when it differs from the number), heading path; line for text files.
QString citationLabel(const Passage& p);

// The sources block for the prompt, numbered from 1.
QString contextBlock(const QList<Passage>& passages);

// The instruction that goes before the sources (English: the small models
// follow it best; they answer in the user's language).
QString answerInstruction();

struct CitedAnswer {
    QString text;       // the answer with unknown [n] removed
    QList<int> cited;   // the numbers it cites, in order of first use, all in 1..count
    QList<int> dropped; // numbers it cited that were not in the context
};

CitedAnswer checkCitations(const QString& answer, int count);

// Citations for an answer that has none (small models seldom write them):
// each sentence is attributed to the passage it resembles most, where that
// resemblance (cosine of the embedding model's vectors) reaches
// kAttributionThreshold, and the passage's number goes before the
// sentence's closing punctuation. Paraphrases of a passage score 0.6-1.0 on
// all-MiniLM-L6-v2, sentences on other topics under 0.4.
constexpr float kAttributionThreshold = 0.5f;

struct Span {
    qsizetype start = 0, end = 0; // [start, end) in the answer
};
// The sentences worth attributing: Unicode sentence boundaries outside
// code blocks (as MarkdownBlocks reads them), each of at least three words (or six CJK characters),
// trailing spaces excluded.
QList<Span> answerSentences(const QString& answer);
// `passageOf[i]`: the 1-based passage attributed to sentences[i], 0 for none.
CitedAnswer attributeCitations(const QString& answer, const QList<Span>& sentences, const QList<int>& passageOf);
// The whole of it: the sentences and `passages` (texts, numbered from 1)
// embedded in one batch by `embedder`, each sentence given its most similar
// passage at or above the threshold.
CitedAnswer attributeCitations(hearth::Embedder& embedder, const QString& answer, const QStringList& passages);

} // namespace documents

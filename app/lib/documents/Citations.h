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

} // namespace documents

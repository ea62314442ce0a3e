// Finds the passages of one or more collections that answer a query:
// keyword ranking (FTS5 BM25) and vector ranking (cosine over the int8
// embeddings, VectorIndex) each give their best `candidates` chunks, fused
// by weighted reciprocal rank (score = Σ w / (60 + rank), w = 1 for vectors,
// 0.3 for keywords); then at most `perDocument`
// chunks per document, adjacent chunks of a document's section merged into one passage
// (their overlap removed), and passages added until `k` or the token budget.
//
// Thread-safety: one thread at a time (it uses the store and the embedder).
#pragma once

#include "documents/DocumentStore.h"
#include "documents/VectorIndex.h"

#include <QList>
#include <QString>

namespace hearth {
class Embedder;
}

namespace documents {

enum class RankMode {
    Hybrid,
    Keyword,
    Vector
};

struct SearchParams {
    int k = 5;
    RankMode mode = RankMode::Hybrid;
    int candidates = 50;
    int perDocument = 2;
    int tokenBudget = 0; // 0: no budget
};

struct Passage {
    QString path;
    int pageFrom = 0, pageTo = 0;
    QString pageLabel;
    QString heading;
    int line = 0;
    QString text;
    int tokens = 0;
    double score = 0.0;
    QList<qint64> chunkIds; // in document order
};

class Retriever {
public:
    Retriever(DocumentStore& store, hearth::Embedder& embedder);
    // Loads the collections' embeddings into memory (again after indexing).
    void load(const QList<qint64>& collections);
    QList<Passage> search(const QString& query, const SearchParams& params);

private:
    DocumentStore& m_store;
    hearth::Embedder& m_embedder;
    QList<qint64> m_collections;
    VectorIndex m_index;
};

QString rankModeName(RankMode m);

// `b` without the start it shares with the end of `a` (the overlap of two
// adjacent chunks; at least 8 characters count as shared).
QString withoutOverlap(const QString& a, const QString& b);

} // namespace documents

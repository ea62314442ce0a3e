#include "documents/Retriever.h"

#include "runtime/embedder.h"

#include <QHash>

#include <algorithm>

namespace documents {

namespace {

constexpr double kRrfK = 60.0;
// Weighted RRF (as GPT4All's LocalDocs): the keyword list counts 0.3. Its
// strength is exact terms (names, codes, numbers); on questions asked in other
// words it ranks chunks that share incidental words, and with equal weights
// those crowd out the semantic matches under the per-document cap. 0.3 was
// picked on the synthetic corpus of test_documents_retrieval (0.5 and 1.0 give
// recall@3 0.89 there), so it is a starting point, not a measured optimum.
constexpr double kKeywordWeight = 0.3;

} // namespace

QString withoutOverlap(const QString& a, const QString& b)
{
    for (qsizetype n = std::min(a.size(), b.size()); n >= 8; --n)
        if (a.endsWith(QStringView(b).left(n)))
            return b.mid(n).trimmed();
    return b;
}

QString rankModeName(RankMode m)
{
    switch (m) {
    case RankMode::Hybrid: return QStringLiteral("hybrid");
    case RankMode::Keyword: return QStringLiteral("bm25");
    case RankMode::Vector: return QStringLiteral("vector");
    }
    return {};
}

Retriever::Retriever(DocumentStore& store, hearth::Embedder& embedder) : m_store(store), m_embedder(embedder)
{
}

void Retriever::load(const QList<qint64>& collections)
{
    m_collections = collections;
    m_index.clear(static_cast<int>(m_embedder.dimension()));
    for (const StoredVector& v : m_store.vectors(collections))
        m_index.add(v.chunkId, v.documentId,
                    std::span<const int8_t>(reinterpret_cast<const int8_t*>(v.values.constData()),
                                            static_cast<size_t>(v.values.size())),
                    v.scale);
}

QList<Passage> Retriever::search(const QString& query, const SearchParams& params)
{
    QHash<qint64, double> fused;
    if (params.mode != RankMode::Vector) {
        const QList<qint64> hits = m_store.keywordSearch(m_collections, query, params.candidates);
        for (qsizetype r = 0; r < hits.size(); ++r)
            fused[hits[r]] += (params.mode == RankMode::Hybrid ? kKeywordWeight : 1.0) / (kRrfK + double(r + 1));
    }
    if (params.mode != RankMode::Keyword) {
        const std::string q = query.toStdString();
        const std::vector<float> v = m_embedder.embed(std::span<const std::string>(&q, 1));
        const std::vector<VectorIndex::Hit> hits = m_index.search(v, static_cast<size_t>(params.candidates));
        for (size_t r = 0; r < hits.size(); ++r) {
            fused[hits[r].id] += 1.0 / (kRrfK + double(r + 1));
        }
    }
    QList<QPair<qint64, double>> ranked;
    for (auto it = fused.cbegin(); it != fused.cend(); ++it)
        ranked.append({it.key(), it.value()});
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });

    // At most perDocument chunks of a document, k passages in all.
    QList<ChunkRow> picked;
    QList<double> scores;
    QHash<qint64, int> perDoc;
    for (const auto& [id, score] : ranked) {
        if (picked.size() >= params.k * params.perDocument)
            break;
        const std::optional<ChunkRow> c = m_store.chunk(id);
        if (!c || perDoc[c->documentId] >= params.perDocument)
            continue;
        ++perDoc[c->documentId];
        picked.append(*c);
        scores.append(score);
    }
    // Adjacent chunks of one document become one passage, at the rank of
    // the better one.
    QList<Passage> out;
    QList<bool> used(picked.size(), false);
    int budget = params.tokenBudget;
    for (qsizetype i = 0; i < picked.size() && out.size() < params.k; ++i) {
        if (used[i])
            continue;
        used[i] = true;
        QList<ChunkRow> group{picked[i]};
        for (qsizetype j = i + 1; j < picked.size(); ++j) {
            // Neighbours in one section only: a passage keeps one heading.
            if (!used[j] && picked[j].documentId == picked[i].documentId &&
                std::abs(picked[j].ordinal - picked[i].ordinal) == 1 &&
                picked[j].chunk.headingPath == picked[i].chunk.headingPath) {
                used[j] = true;
                group.append(picked[j]);
            }
        }
        std::sort(group.begin(), group.end(),
                  [](const ChunkRow& a, const ChunkRow& b) { return a.ordinal < b.ordinal; });
        Passage p;
        p.path = group.first().path;
        p.pageFrom = group.first().chunk.pageFrom;
        p.pageTo = group.last().chunk.pageTo;
        p.pageLabel = group.first().chunk.pageLabel;
        p.heading = group.first().chunk.headingPath;
        p.line = group.first().chunk.line;
        p.score = scores[i];
        for (const ChunkRow& c : group) {
            p.text =
                p.text.isEmpty() ? c.chunk.text : p.text + QStringLiteral(" ") + withoutOverlap(p.text, c.chunk.text);
            p.tokens += c.chunk.tokens;
            p.chunkIds.append(c.id);
        }
        if (params.tokenBudget > 0) {
            if (p.tokens > budget && !out.isEmpty())
                break;
            budget -= p.tokens;
        }
        out.append(p);
    }
    return out;
}

} // namespace documents

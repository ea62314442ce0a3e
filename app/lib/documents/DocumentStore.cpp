#include "documents/DocumentStore.h"

#include <QRegularExpression>
#include <QSet>
#include <QSqlQuery>

#include <algorithm>
#include <cmath>

namespace documents {

namespace {

// Each entry brings doc_schema from version i to i + 1.
const QList<QStringList>& schema()
{
    static const QList<QStringList> steps = {
        {
            QStringLiteral("CREATE TABLE doc_collections ("
                           " id INTEGER PRIMARY KEY AUTOINCREMENT,"
                           " name TEXT NOT NULL UNIQUE,"
                           " created_at INTEGER NOT NULL)"),
            QStringLiteral("CREATE TABLE doc_sources ("
                           " collection_id INTEGER NOT NULL REFERENCES doc_collections(id) ON DELETE CASCADE,"
                           " path TEXT NOT NULL,"
                           " PRIMARY KEY (collection_id, path))"),
            QStringLiteral("CREATE TABLE doc_documents ("
                           " id INTEGER PRIMARY KEY AUTOINCREMENT,"
                           " collection_id INTEGER NOT NULL REFERENCES doc_collections(id) ON DELETE CASCADE,"
                           " path TEXT NOT NULL,"
                           " size INTEGER NOT NULL DEFAULT 0,"
                           " mtime INTEGER NOT NULL DEFAULT 0," // ms since the epoch
                           " sha256 TEXT NOT NULL DEFAULT '',"
                           " format TEXT NOT NULL DEFAULT '',"
                           " pages INTEGER NOT NULL DEFAULT 0,"
                           " status TEXT NOT NULL,"
                           " error TEXT NOT NULL DEFAULT '',"
                           " model TEXT NOT NULL DEFAULT '',"
                           " indexed_at INTEGER NOT NULL DEFAULT 0,"
                           " UNIQUE (collection_id, path))"),
            QStringLiteral("CREATE TABLE doc_chunks ("
                           " id INTEGER PRIMARY KEY AUTOINCREMENT,"
                           " document_id INTEGER NOT NULL REFERENCES doc_documents(id) ON DELETE CASCADE,"
                           " ordinal INTEGER NOT NULL,"
                           " page_from INTEGER NOT NULL, page_to INTEGER NOT NULL,"
                           " page_label TEXT NOT NULL, heading TEXT NOT NULL, line INTEGER NOT NULL,"
                           " tokens INTEGER NOT NULL, text TEXT NOT NULL)"),
            QStringLiteral("CREATE INDEX doc_chunks_by_document ON doc_chunks(document_id, ordinal)"),
            QStringLiteral("CREATE TABLE doc_embeddings ("
                           " chunk_id INTEGER PRIMARY KEY REFERENCES doc_chunks(id) ON DELETE CASCADE,"
                           " scale REAL NOT NULL,"
                           " vector BLOB NOT NULL)"),
            QStringLiteral("CREATE VIRTUAL TABLE doc_chunks_fts USING fts5("
                           " text, heading, content='doc_chunks', content_rowid='id',"
                           " tokenize='unicode61 remove_diacritics 2')"),
            QStringLiteral("CREATE TRIGGER doc_chunks_fts_insert AFTER INSERT ON doc_chunks BEGIN"
                           " INSERT INTO doc_chunks_fts(rowid, text, heading) VALUES (new.id, new.text, new.heading);"
                           " END"),
            QStringLiteral("CREATE TRIGGER doc_chunks_fts_delete AFTER DELETE ON doc_chunks BEGIN"
                           " INSERT INTO doc_chunks_fts(doc_chunks_fts, rowid, text, heading)"
                           " VALUES ('delete', old.id, old.text, old.heading); END"),
        },
    };
    return steps;
}

QString placeholders(int n)
{
    QStringList q;
    for (int i = 0; i < n; ++i)
        q << QStringLiteral("?");
    return q.join(QLatin1Char(','));
}

QVariantList ids(const QList<qint64>& v)
{
    QVariantList out;
    for (qint64 x : v)
        out << x;
    return out;
}

DocumentRow readDocument(const QSqlQuery& q)
{
    DocumentRow r;
    r.id = q.value(0).toLongLong();
    r.collectionId = q.value(1).toLongLong();
    r.path = q.value(2).toString();
    r.size = q.value(3).toLongLong();
    r.mtimeMs = q.value(4).toLongLong();
    r.sha256 = q.value(5).toString();
    r.format = q.value(6).toString();
    r.pages = q.value(7).toInt();
    r.status = statusFromName(q.value(8).toString());
    r.error = q.value(9).toString();
    r.model = q.value(10).toString();
    r.chunks = q.value(11).toInt();
    return r;
}

const QString kDocumentColumns = QStringLiteral(
    "d.id, d.collection_id, d.path, d.size, d.mtime, d.sha256, d.format, d.pages, d.status, d.error, d.model,"
    " (SELECT COUNT(*) FROM doc_chunks c WHERE c.document_id = d.id)");

const QString kChunkColumns = QStringLiteral("c.id, c.document_id, c.ordinal, d.path, c.text, c.heading, c.page_from, "
                                             "c.page_to, c.page_label, c.line, c.tokens");

ChunkRow readChunk(const QSqlQuery& q)
{
    ChunkRow r;
    r.id = q.value(0).toLongLong();
    r.documentId = q.value(1).toLongLong();
    r.ordinal = q.value(2).toInt();
    r.path = q.value(3).toString();
    r.chunk.text = q.value(4).toString();
    r.chunk.headingPath = q.value(5).toString();
    r.chunk.pageFrom = q.value(6).toInt();
    r.chunk.pageTo = q.value(7).toInt();
    r.chunk.pageLabel = q.value(8).toString();
    r.chunk.line = q.value(9).toInt();
    r.chunk.tokens = q.value(10).toInt();
    return r;
}

} // namespace

QString statusName(DocStatus s)
{
    switch (s) {
    case DocStatus::Pending: return QStringLiteral("pending");
    case DocStatus::Indexed: return QStringLiteral("indexed");
    case DocStatus::Failed: return QStringLiteral("failed");
    case DocStatus::Skipped: return QStringLiteral("skipped");
    case DocStatus::Empty: return QStringLiteral("empty");
    }
    return QStringLiteral("pending");
}

DocStatus statusFromName(const QString& s)
{
    for (DocStatus d :
         {DocStatus::Pending, DocStatus::Indexed, DocStatus::Failed, DocStatus::Skipped, DocStatus::Empty})
        if (statusName(d) == s)
            return d;
    return DocStatus::Pending;
}

StoredVector quantizeVector(const float* v, int dim)
{
    StoredVector out;
    float maxAbs = 0.0f;
    for (int i = 0; i < dim; ++i)
        maxAbs = std::max(maxAbs, std::abs(v[i]));
    out.scale = maxAbs > 0.0f ? maxAbs / 127.0f : 1.0f;
    out.values.resize(dim);
    auto* q = reinterpret_cast<int8_t*>(out.values.data());
    for (int i = 0; i < dim; ++i)
        q[i] = static_cast<int8_t>(std::clamp(std::lround(v[i] / out.scale), -127L, 127L));
    return out;
}

namespace {

// English function words: OR-ed into a query they match nearly every chunk,
// and a chunk that lacks only them would lose its place in the keyword list.
const QSet<QString>& stopwords()
{
    static const QSet<QString> words = [] {
        QSet<QString> s;
        for (const char* w :
             {"a",     "about", "after", "again",  "all",   "also",    "an",    "and",     "any",  "are",   "as",
              "at",    "be",    "been",  "before", "being", "between", "both",  "but",     "by",   "can",   "could",
              "did",   "do",    "does",  "doing",  "done",  "during",  "each",  "else",    "for",  "from",  "get",
              "gets",  "got",   "had",   "has",    "have",  "having",  "he",    "her",     "here", "hers",  "him",
              "his",   "how",   "i",     "if",     "in",    "into",    "is",    "it",      "its",  "just",  "me",
              "more",  "most",  "much",  "must",   "my",    "no",      "nor",   "not",     "now",  "of",    "off",
              "on",    "once",  "one",   "only",   "or",    "other",   "our",   "ours",    "out",  "over",  "own",
              "same",  "shall", "she",   "should", "so",    "some",    "such",  "than",    "that", "the",   "their",
              "them",  "then",  "there", "these",  "they",  "this",    "those", "through", "to",   "too",   "under",
              "until", "up",    "us",    "very",   "was",   "we",      "were",  "what",    "when", "where", "which",
              "while", "who",   "whom",  "why",    "will",  "with",    "would", "you",     "your", "yours"})
            s.insert(QString::fromLatin1(w));
        return s;
    }();
    return words;
}

} // namespace

QString ftsQuery(const QString& text)
{
    static const QRegularExpression word(QStringLiteral("[\\p{L}\\p{N}_]+"));
    QStringList terms;
    for (auto it = word.globalMatch(text); it.hasNext();) {
        const QString w = it.next().captured(0);
        if (stopwords().contains(w.toLower()))
            continue;
        if (!terms.contains(QLatin1Char('"') + w + QLatin1Char('"')))
            terms << QLatin1Char('"') + w + QLatin1Char('"'); // quoted: never FTS5 syntax
    }
    return terms.join(QStringLiteral(" OR "));
}

DocumentStore::DocumentStore(const QString& path) : m_db(std::make_unique<Database>(path, /*migrateTo=*/0))
{
    migrate();
}

void DocumentStore::migrate()
{
    m_db->exec(QStringLiteral("CREATE TABLE IF NOT EXISTS doc_schema (version INTEGER NOT NULL)"));
    QSqlQuery q = m_db->exec(QStringLiteral("SELECT version FROM doc_schema"));
    const int version = q.next() ? q.value(0).toInt() : 0;
    if (version > schema().size())
        throw DatabaseError(QStringLiteral("the documents index in %1 was written by a newer Hearth (schema %2)")
                                .arg(m_db->path())
                                .arg(version));
    for (int v = version; v < schema().size(); ++v) {
        m_db->transaction([&] {
            for (const QString& sql : schema()[v])
                m_db->exec(sql);
            m_db->exec(QStringLiteral("DELETE FROM doc_schema"));
            m_db->exec(QStringLiteral("INSERT INTO doc_schema(version) VALUES (?)"), {v + 1});
        });
    }
}

qint64 DocumentStore::ensureCollection(const QString& name)
{
    if (const auto id = collectionId(name))
        return *id;
    m_db->exec(QStringLiteral("INSERT INTO doc_collections(name, created_at) VALUES (?, ?)"),
               {name, QDateTime::currentMSecsSinceEpoch()});
    return *collectionId(name);
}

std::optional<qint64> DocumentStore::collectionId(const QString& name)
{
    QSqlQuery q = m_db->exec(QStringLiteral("SELECT id FROM doc_collections WHERE name = ?"), {name});
    if (q.next())
        return q.value(0).toLongLong();
    return std::nullopt;
}

QList<CollectionRow> DocumentStore::collections()
{
    QList<CollectionRow> out;
    QSqlQuery q = m_db->exec(QStringLiteral(
        "SELECT c.id, c.name,"
        " (SELECT COUNT(*) FROM doc_documents d WHERE d.collection_id = c.id),"
        " (SELECT COUNT(*) FROM doc_documents d WHERE d.collection_id = c.id AND d.status = 'indexed'),"
        " (SELECT COUNT(*) FROM doc_documents d WHERE d.collection_id = c.id AND d.status IN "
        "('failed','skipped','empty')),"
        " (SELECT COUNT(*) FROM doc_chunks k JOIN doc_documents d ON k.document_id = d.id WHERE d.collection_id = c.id)"
        " FROM doc_collections c ORDER BY c.name"));
    while (q.next()) {
        CollectionRow r;
        r.id = q.value(0).toLongLong();
        r.name = q.value(1).toString();
        r.documents = q.value(2).toInt();
        r.indexed = q.value(3).toInt();
        r.failed = q.value(4).toInt();
        r.chunks = q.value(5).toLongLong();
        out.append(r);
    }
    for (CollectionRow& r : out)
        r.sources = sources(r.id);
    return out;
}

void DocumentStore::removeCollection(qint64 id)
{
    m_db->exec(QStringLiteral("DELETE FROM doc_collections WHERE id = ?"), {id});
}

void DocumentStore::addSource(qint64 collection, const QString& path)
{
    m_db->exec(QStringLiteral("INSERT OR IGNORE INTO doc_sources(collection_id, path) VALUES (?, ?)"),
               {collection, path});
}

void DocumentStore::removeSource(qint64 collection, const QString& path)
{
    m_db->exec(QStringLiteral("DELETE FROM doc_sources WHERE collection_id = ? AND path = ?"), {collection, path});
}

QStringList DocumentStore::sources(qint64 collection)
{
    QStringList out;
    QSqlQuery q =
        m_db->exec(QStringLiteral("SELECT path FROM doc_sources WHERE collection_id = ? ORDER BY path"), {collection});
    while (q.next())
        out << q.value(0).toString();
    return out;
}

std::optional<DocumentRow> DocumentStore::document(qint64 collection, const QString& path)
{
    QSqlQuery q = m_db->exec(QStringLiteral("SELECT ") + kDocumentColumns +
                                 QStringLiteral(" FROM doc_documents d WHERE d.collection_id = ? AND d.path = ?"),
                             {collection, path});
    if (q.next())
        return readDocument(q);
    return std::nullopt;
}

QList<DocumentRow> DocumentStore::documents(qint64 collection)
{
    QList<DocumentRow> out;
    QSqlQuery q = m_db->exec(QStringLiteral("SELECT ") + kDocumentColumns +
                                 QStringLiteral(" FROM doc_documents d WHERE d.collection_id = ? ORDER BY d.path"),
                             {collection});
    while (q.next())
        out.append(readDocument(q));
    return out;
}

namespace {

// A null QString binds as SQL NULL; the text columns are NOT NULL.
QString text(const QString& s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

qint64 upsert(Database& db, const DocumentRow& r)
{
    db.exec(QStringLiteral("INSERT INTO doc_documents(collection_id, path, size, mtime, sha256, format, pages, status,"
                           " error, model, indexed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                           " ON CONFLICT(collection_id, path) DO UPDATE SET size = excluded.size,"
                           " mtime = excluded.mtime, sha256 = excluded.sha256, format = excluded.format,"
                           " pages = excluded.pages, status = excluded.status, error = excluded.error,"
                           " model = excluded.model, indexed_at = excluded.indexed_at"),
            {r.collectionId, r.path, r.size, r.mtimeMs, text(r.sha256), text(r.format), r.pages, statusName(r.status),
             text(r.error), text(r.model), QDateTime::currentMSecsSinceEpoch()});
    QSqlQuery q = db.exec(QStringLiteral("SELECT id FROM doc_documents WHERE collection_id = ? AND path = ?"),
                          {r.collectionId, r.path});
    q.next();
    return q.value(0).toLongLong();
}

} // namespace

void DocumentStore::setDocumentState(const DocumentRow& row)
{
    m_db->transaction([&] {
        const qint64 id = upsert(*m_db, row);
        m_db->exec(QStringLiteral("DELETE FROM doc_chunks WHERE document_id = ?"), {id});
    });
}

void DocumentStore::storeIndexed(const DocumentRow& row, const QList<Chunk>& chunks,
                                 const std::vector<StoredVector>& vectors)
{
    m_db->transaction([&] {
        const qint64 id = upsert(*m_db, row);
        m_db->exec(QStringLiteral("DELETE FROM doc_chunks WHERE document_id = ?"), {id});
        QSqlQuery insertChunk(m_db->handle());
        insertChunk.prepare(QStringLiteral("INSERT INTO doc_chunks(document_id, ordinal, page_from, page_to,"
                                           " page_label, heading, line, tokens, text) VALUES (?,?,?,?,?,?,?,?,?)"));
        QSqlQuery insertVector(m_db->handle());
        insertVector.prepare(QStringLiteral("INSERT INTO doc_embeddings(chunk_id, scale, vector) VALUES (?, ?, ?)"));
        for (qsizetype i = 0; i < chunks.size(); ++i) {
            const Chunk& c = chunks[i];
            for (const QVariant& v : QVariantList{id, int(i), c.pageFrom, c.pageTo, text(c.pageLabel),
                                                  text(c.headingPath), c.line, c.tokens, text(c.text)})
                insertChunk.addBindValue(v);
            if (!insertChunk.exec())
                throw DatabaseError(QStringLiteral("cannot store a chunk of %1").arg(row.path));
            const qint64 chunkId = insertChunk.lastInsertId().toLongLong();
            insertVector.addBindValue(chunkId);
            insertVector.addBindValue(static_cast<double>(vectors[static_cast<size_t>(i)].scale));
            insertVector.addBindValue(vectors[static_cast<size_t>(i)].values);
            if (!insertVector.exec())
                throw DatabaseError(QStringLiteral("cannot store an embedding of %1").arg(row.path));
        }
    });
}

void DocumentStore::touchDocument(qint64 id, qint64 size, qint64 mtimeMs)
{
    m_db->exec(QStringLiteral("UPDATE doc_documents SET size = ?, mtime = ? WHERE id = ?"), {size, mtimeMs, id});
}

void DocumentStore::removeDocument(qint64 id)
{
    m_db->exec(QStringLiteral("DELETE FROM doc_documents WHERE id = ?"), {id});
}

std::vector<StoredVector> DocumentStore::vectors(const QList<qint64>& collections)
{
    std::vector<StoredVector> out;
    if (collections.isEmpty())
        return out;
    QSqlQuery q = m_db->exec(QStringLiteral("SELECT e.chunk_id, c.document_id, e.scale, e.vector FROM doc_embeddings e"
                                            " JOIN doc_chunks c ON c.id = e.chunk_id"
                                            " JOIN doc_documents d ON d.id = c.document_id"
                                            " WHERE d.collection_id IN (") +
                                 placeholders(int(collections.size())) + QStringLiteral(") ORDER BY e.chunk_id"),
                             ids(collections));
    while (q.next())
        out.push_back(StoredVector{q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toFloat(),
                                   q.value(3).toByteArray()});
    return out;
}

QList<qint64> DocumentStore::keywordSearch(const QList<qint64>& collections, const QString& query, int limit)
{
    QList<qint64> out;
    const QString match = ftsQuery(query);
    if (match.isEmpty() || collections.isEmpty())
        return out;
    QVariantList values{match};
    values += ids(collections);
    values << limit;
    QSqlQuery q = m_db->exec(QStringLiteral("SELECT f.rowid, bm25(doc_chunks_fts) FROM doc_chunks_fts f"
                                            " JOIN doc_chunks c ON c.id = f.rowid"
                                            " JOIN doc_documents d ON d.id = c.document_id"
                                            " WHERE doc_chunks_fts MATCH ? AND d.collection_id IN (") +
                                 placeholders(int(collections.size())) +
                                 QStringLiteral(") ORDER BY bm25(doc_chunks_fts) LIMIT ?"),
                             values);
    // Hits scoring under half the best one's match only incidental words of
    // the query; they are left out rather than ranked.
    double best = 0.0;
    while (q.next()) {
        const double score = -q.value(1).toDouble(); // FTS5's bm25() is negative, better is lower
        if (out.isEmpty())
            best = score;
        else if (score < 0.5 * best)
            break;
        out.append(q.value(0).toLongLong());
    }
    return out;
}

std::optional<ChunkRow> DocumentStore::chunk(qint64 id)
{
    QSqlQuery q = m_db->exec(QStringLiteral("SELECT ") + kChunkColumns +
                                 QStringLiteral(" FROM doc_chunks c JOIN doc_documents d ON d.id = c.document_id"
                                                " WHERE c.id = ?"),
                             {id});
    if (q.next())
        return readChunk(q);
    return std::nullopt;
}

QList<ChunkRow> DocumentStore::chunksOf(const QString& path)
{
    QSqlQuery q = m_db->exec(QStringLiteral("SELECT ") + kChunkColumns +
                                 QStringLiteral(" FROM doc_chunks c JOIN doc_documents d ON d.id = c.document_id"
                                                " WHERE c.document_id = (SELECT id FROM doc_documents"
                                                " WHERE path = ? AND status = 'indexed' ORDER BY id LIMIT 1)"
                                                " ORDER BY c.ordinal"),
                             {path});
    QList<ChunkRow> out;
    while (q.next())
        out.append(readChunk(q));
    return out;
}

std::optional<ChunkRow> DocumentStore::chunkAt(qint64 documentId, int ordinal)
{
    QSqlQuery q = m_db->exec(QStringLiteral("SELECT ") + kChunkColumns +
                                 QStringLiteral(" FROM doc_chunks c JOIN doc_documents d ON d.id = c.document_id"
                                                " WHERE c.document_id = ? AND c.ordinal = ?"),
                             {documentId, ordinal});
    if (q.next())
        return readChunk(q);
    return std::nullopt;
}

} // namespace documents

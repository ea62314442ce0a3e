// The Documents index in SQLite (the app's database file, or any file for
// the CLI and tests): collections and the files and folders added to them,
// one row per document (path, size, mtime, sha256, status, error), its
// chunks with page range, page label and heading path, an FTS5 index over
// the chunks, and one int8 embedding per chunk with its scale.
//
// The tables carry their own schema version (doc_schema), apart from the
// conversation migrations, so either side can evolve without renumbering the
// other; opening a file creates or migrates them.
//
// Thread-safety: one thread at a time (one QtSql connection per instance);
// two instances on one file (the GUI and the indexer) are safe through
// SQLite's WAL. Writes of one document are one transaction, so a killed
// process leaves every document either fully indexed or untouched.
#pragma once

#include "documents/Chunker.h"
#include "storage/Database.h"

#include <QDateTime>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace documents {

struct CollectionRow {
    qint64 id = 0;
    QString name;
    QStringList sources; // files and folders added
    int documents = 0, indexed = 0, failed = 0;
    qint64 chunks = 0;
};

enum class DocStatus {
    Pending,
    Indexed,
    Failed,
    Skipped,
    Empty
};
QString statusName(DocStatus s);
DocStatus statusFromName(const QString& s);

struct DocumentRow {
    qint64 id = 0;
    qint64 collectionId = 0;
    QString path;
    qint64 size = 0;
    qint64 mtimeMs = 0;
    QString sha256;
    QString format;
    int pages = 0;
    DocStatus status = DocStatus::Pending;
    QString error;
    QString model; // the embedding model's identity when indexed
    int chunks = 0;
};

// A chunk as search shows it, with its document.
struct ChunkRow {
    qint64 id = 0;
    qint64 documentId = 0;
    int ordinal = 0;
    QString path;
    Chunk chunk;
};

// One embedding: `dim` int8 values, value = q * scale.
struct StoredVector {
    qint64 chunkId = 0;
    qint64 documentId = 0;
    float scale = 0.0f;
    QByteArray values;
};

class DocumentStore {
public:
    explicit DocumentStore(const QString& path);

    qint64 ensureCollection(const QString& name);
    std::optional<qint64> collectionId(const QString& name);
    QList<CollectionRow> collections();
    void removeCollection(qint64 id);
    void addSource(qint64 collection, const QString& path);
    void removeSource(qint64 collection, const QString& path);
    QStringList sources(qint64 collection);

    std::optional<DocumentRow> document(qint64 collection, const QString& path);
    QList<DocumentRow> documents(qint64 collection);
    // Records a file that yields no chunks (failed, skipped, empty) or is
    // pending; drops its old chunks.
    void setDocumentState(const DocumentRow& row);
    // Stores a document's chunks and their embeddings (int8 + scale, one per
    // chunk) with its row, replacing what it had, in one transaction.
    void storeIndexed(const DocumentRow& row, const QList<Chunk>& chunks, const std::vector<StoredVector>& vectors);
    // Updates size and mtime only (content unchanged, same hash).
    void touchDocument(qint64 id, qint64 size, qint64 mtimeMs);
    void removeDocument(qint64 id);

    // Every embedding of the collections (for the in-memory index).
    std::vector<StoredVector> vectors(const QList<qint64>& collections);
    // BM25 (FTS5) over the collections' chunks: chunk ids, best first, those
    // scoring at least half the best one's.
    QList<qint64> keywordSearch(const QList<qint64>& collections, const QString& query, int limit);
    std::optional<ChunkRow> chunk(qint64 id);
    // Every chunk of the indexed document at `path` (the first collection's
    // that has it), in order.
    QList<ChunkRow> chunksOf(const QString& path);
    // The chunk `ordinal` of a document, if there is one.
    std::optional<ChunkRow> chunkAt(qint64 documentId, int ordinal);

    Database& database() { return *m_db; }

private:
    void migrate();
    std::unique_ptr<Database> m_db;
};

// Symmetric int8 quantization of a unit vector: q = round(v / scale),
// scale = max|v| / 127.
StoredVector quantizeVector(const float* v, int dim);

// An FTS5 query for free text: each word but English function words
// (the, of, how, ...) quoted, OR-ed ("" if none).
QString ftsQuery(const QString& text);

} // namespace documents

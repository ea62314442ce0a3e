#include "storage/Migrations.h"

namespace Migrations {

const QList<QStringList>& all()
{
    static const QList<QStringList> migrations = {
        // 1: conversations, messages with provenance, streaming parts.
        {
            // AUTOINCREMENT: ids are never reused, so a stale reference to a
            // deleted message can never hit a new one.
            QStringLiteral("CREATE TABLE conversations ("
                           " id INTEGER PRIMARY KEY AUTOINCREMENT,"
                           " title TEXT NOT NULL,"
                           " created_at INTEGER NOT NULL," // ms since the epoch, UTC
                           " updated_at INTEGER NOT NULL)"),
            QStringLiteral("CREATE TABLE messages ("
                           " id INTEGER PRIMARY KEY AUTOINCREMENT,"
                           " conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,"
                           " role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant')),"
                           " text TEXT NOT NULL DEFAULT '',"
                           " state TEXT NOT NULL DEFAULT 'complete',"
                           " error TEXT NOT NULL DEFAULT '',"
                           " created_at INTEGER NOT NULL,"
                           " model_path TEXT, model_name TEXT, model_sha256 TEXT, architecture TEXT, quant TEXT,"
                           " engine TEXT, context_size INTEGER,"
                           " sampler TEXT," // JSON: temperature, top_k, top_p, min_p, repeat_penalty, max_tokens
                           " seed INTEGER,"
                           " prompt_tokens INTEGER, prompt_ms REAL, ttft_ms REAL,"
                           " generated_tokens INTEGER, generation_ms REAL, context_used INTEGER,"
                           " context_shifts INTEGER, stop_reason TEXT)"),
            QStringLiteral("CREATE INDEX messages_by_conversation ON messages(conversation_id, id)"),
            // Text of a reply while it streams, appended in small parts so that
            // a write costs the same at the end of a long reply as at its
            // start; folded into messages.text when the reply ends.
            QStringLiteral("CREATE TABLE message_parts ("
                           " message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,"
                           " seq INTEGER NOT NULL,"
                           " text TEXT NOT NULL,"
                           " PRIMARY KEY (message_id, seq))"),
        },
        // 2: full-text search over message text (FTS5, trigram: substring
        // search that works for Chinese as well as English).
        {
            QStringLiteral("CREATE VIRTUAL TABLE messages_fts USING fts5("
                           " text, content='messages', content_rowid='id', tokenize='trigram')"),
            QStringLiteral("CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN"
                           " INSERT INTO messages_fts(rowid, text) VALUES (new.id, new.text); END"),
            QStringLiteral("CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN"
                           " INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.id, old.text);"
                           " END"),
            QStringLiteral("CREATE TRIGGER messages_fts_update AFTER UPDATE OF text ON messages BEGIN"
                           " INSERT INTO messages_fts(messages_fts, rowid, text) VALUES ('delete', old.id, old.text);"
                           " INSERT INTO messages_fts(rowid, text) VALUES (new.id, new.text); END"),
            QStringLiteral("INSERT INTO messages_fts(messages_fts) VALUES ('rebuild')"),
        },
        // 3: alternatives. Each message names the one it follows (parent_id,
        // NULL for the first); messages with the same parent are
        // alternatives of which one is selected. Existing conversations
        // become a single line: each message follows the one before it.
        {
            QStringLiteral("ALTER TABLE messages ADD COLUMN parent_id INTEGER"
                           " REFERENCES messages(id) ON DELETE CASCADE"),
            QStringLiteral("ALTER TABLE messages ADD COLUMN selected INTEGER NOT NULL DEFAULT 1"),
            QStringLiteral("UPDATE messages SET parent_id = (SELECT MAX(p.id) FROM messages p"
                           " WHERE p.conversation_id = messages.conversation_id AND p.id < messages.id)"),
            QStringLiteral("CREATE INDEX messages_by_parent ON messages(conversation_id, parent_id)"),
        },
        // 4: documents in chat. A reply written from retrieved passages keeps
        // them (JSON: number, file, pages, heading, text, cited); a
        // conversation names the document collections it searches (ids of
        // doc_collections, a table of DocumentStore's own schema, so no
        // foreign key: removing a collection forgets it here too,
        // ConversationStore::forgetCollection).
        {
            QStringLiteral("ALTER TABLE messages ADD COLUMN sources TEXT"),
            QStringLiteral("CREATE TABLE conversation_collections ("
                           " conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,"
                           " collection_id INTEGER NOT NULL,"
                           " PRIMARY KEY (conversation_id, collection_id))"),
        },
    };
    return migrations;
}

} // namespace Migrations

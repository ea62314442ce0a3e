// Conversations in the database: create, rename, delete, list, and
// full-text search through their messages (FTS5). Every write is one
// transaction. GUI thread.
#pragma once

#include "storage/Database.h"
#include "storage/Records.h"

#include <QObject>

class ConversationStore : public QObject {
    Q_OBJECT

public:
    // `db` must outlive the store.
    explicit ConversationStore(Database* db, QObject* parent = nullptr);

    qint64 createConversation(const QString& title);
    void renameConversation(qint64 id, const QString& title);
    void deleteConversation(qint64 id);
    // Newest first (by last activity).
    QList<Conversation> conversations();
    // Conversations whose messages or title contain `query` (substring,
    // case-insensitive), newest first, with an HTML snippet of the match.
    QList<Conversation> search(const QString& query);
    // Marks a conversation active now (a message was added).
    void touch(qint64 id);
    // The document collections a conversation searches (ids, ascending).
    QList<qint64> collections(qint64 id);
    void setCollections(qint64 id, const QList<qint64>& collections);
    // A collection was removed: no conversation searches it any more.
    void forgetCollection(qint64 collection);

signals:
    void conversationsChanged();

private:
    Database* m_db;
};

// Messages in the database, with provenance. Every write is one
// transaction. A streaming reply is stored as it is shown: appendPart()
// writes each batch before the view shows it, so killing the process loses
// nothing already on screen; finishMessage() folds the parts into the
// message. Constructing the store turns replies left streaming by a crash
// into Interrupted ones, their text kept.
//
// GUI thread. Each write is a few small indexed statements whose cost does
// not grow with the conversation (appendPart inserts only the new text).
#pragma once

#include "storage/Database.h"
#include "storage/Records.h"

#include <optional>

class QSqlQuery;

class MessageStore {
public:
    // `db` must outlive the store.
    explicit MessageStore(Database* db);

    // The conversation as shown: from the first message, at each step the
    // selected one of the alternatives, each with its place among them.
    QList<ChatMessage> messages(qint64 conversationId);
    std::optional<ChatMessage> message(qint64 id);

    // Inserts `m` after m.parentId (0: after the conversation's latest
    // message; ChatMessage::kNoParent: first) as the selected one of that
    // parent's alternatives; returns the new id. Its id is ignored.
    qint64 addMessage(const ChatMessage& m);
    // The ids of `messageId` and its alternatives, in the order written.
    QList<qint64> alternativesOf(qint64 messageId);
    // Makes `messageId` the selected one of its alternatives.
    void selectAlternative(qint64 messageId);
    // Appends streamed text to a Streaming message.
    void appendPart(qint64 messageId, const QString& text);
    // Ends a streaming message: its text becomes the parts joined.
    void finishMessage(qint64 messageId, MessageState state, const GenerationStats& stats, const QString& error = {});
    // Records the passages of the user's documents a reply is written from
    // (none: clears them).
    void setSources(qint64 messageId, const QList<MessageSource>& sources);
    // Replaces a message's text (edit before resending).
    void setText(qint64 messageId, const QString& text);
    // Deletes `messageId` and every later message of its conversation
    // (the alternatives that follow it too).
    void deleteFrom(qint64 messageId);
    // Fills in the model hash of messages recorded before it was known.
    void setModelSha256(const QString& modelPath, const QString& sha256);

private:
    void recoverInterrupted();
    QString joinedParts(qint64 messageId);
    static ChatMessage read(const QSqlQuery& q);

    Database* m_db;
    QHash<qint64, int> m_nextPart; // next part number of each streaming message
};

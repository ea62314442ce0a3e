// What the database stores: conversations and messages, each assistant
// message with its provenance (which model file, exactly, and how the reply
// was produced). Plain data.
#pragma once

#include "engine/EngineTypes.h"

#include <QDateTime>
#include <QList>
#include <QString>

enum class MessageState {
    Complete,    // finished normally
    Streaming,   // being generated now (or the app died while it was)
    Stopped,     // the user stopped it
    Failed,      // the engine failed; `error` says why
    Interrupted, // found Streaming at start-up: the app ended mid-reply
};

QString messageStateName(MessageState state);
MessageState messageStateFromName(const QString& name);

struct Provenance {
    QString modelPath;
    QString modelName;
    QString modelSha256; // "" until the background hash is known
    QString architecture;
    QString quant;
    QString engine; // "cpu", "fake"
    int contextSize = 0;
    SamplerSettings sampler; // seed included
    GenerationStats stats;   // timings
    bool isEmpty() const { return modelPath.isEmpty(); }
};

// A passage of the user's documents that a reply was written from: its
// number in the prompt ([n]), where it is, its text, and whether the reply
// cites it.
struct MessageSource {
    int n = 0;
    QString path;
    int pageFrom = 0, pageTo = 0; // 0: no pages (text, Markdown, HTML)
    QString pageLabel;
    QString heading;
    int line = 0;
    QString text;
    QString label;  // "report.pdf · p. 12 (xii) · Results"
    int tokens = 0; // its size in the prompt (the embedding model's tokens)
    bool cited = false;
    bool attributed = false; // cited by Hearth's matching, not by the model (which cited none)
    bool operator==(const MessageSource&) const = default;
};

struct ChatMessage {
    qint64 id = 0;
    qint64 conversationId = 0;
    ChatTurn::Role role = ChatTurn::Role::User;
    QString text;
    MessageState state = MessageState::Complete;
    QString error;
    QDateTime createdAt;
    Provenance provenance;        // assistant messages
    QList<MessageSource> sources; // a reply from the user's documents
    // The conversation is a tree: each message follows its parent (0 for the
    // first), and messages with the same parent are alternatives (replies
    // regenerated, messages edited), one of them selected. These describe
    // the message among its alternatives, 0-based, in the order written.
    // Writing, parentId 0 means "after the latest message" and kNoParent
    // "as a first message" (an alternative to the first one).
    static constexpr qint64 kNoParent = -1;
    qint64 parentId = 0;
    int alternative = 0;
    int alternatives = 1;
};

struct Conversation {
    qint64 id = 0;
    QString title;
    QDateTime createdAt;
    QDateTime updatedAt;
    QString snippet; // search results: the matching text, with [ ] around the match
};

// The messages of the open conversation. Each row owns the Markdown blocks
// of its message (MessageBlocksModel), which the delegate repeats over.
// Streaming text arrives by appendText(id, …) at most ~60 times a second:
// the row is found by its message id (never by a captured index), the blocks
// model updates its tail block, and this model emits dataChanged for that one
// row and TextRole only. GUI thread.
#pragma once

#include "chat/MessageBlocksModel.h"
#include "storage/Records.h"

#include <QAbstractListModel>
#include <QHash>
#include <QtQml/qqmlregistration.h>

class MessageListModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by the chat controller")
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)

public:
    enum Author {
        User,
        Assistant,
        System
    };
    Q_ENUM(Author)
    enum State {
        Complete,
        Streaming,
        Stopped,
        Failed,
        Interrupted
    }; // as MessageState
    Q_ENUM(State)

    enum Roles {
        IdRole = Qt::UserRole + 1, // qint64: the message id in the database
        AuthorRole,                // Author
        TextRole,                  // QString: the Markdown source (grows while streaming)
        BlocksRole,                // MessageBlocksModel*: the rendered blocks
        StateRole,                 // State
        StreamingRole,             // bool: state == Streaming
        DetailsRole,               // QString: one line: model · quant · speed · seed (translated)
        ProvenanceRole,            // QString: every recorded fact, one per line (translated)
        ErrorRole,                 // QString: why it failed
        LastRole,                  // bool: the last message (regenerate applies)
        ActionsEnabledRole,        // bool: edit / regenerate possible now (a model, no reply running)
        ModelNameRole,             // QString: the model that wrote a reply ("" for the user's)
        AlternativeRole,           // int: 0-based place among its alternatives (regenerated, edited)
        AlternativesRole,          // int: how many alternatives (1: none)
        SourcesRole, // list: the documents' passages a reply cites [{n, label, path, page, line, text, attributed}]
        SourcesGivenRole, // int: how many passages it was given
    };
    Q_ENUM(Roles)

    MessageListModel(HighlightService* highlighter, const RenderStyle* style, QObject* parent = nullptr);

    void setMessages(const QList<ChatMessage>& messages);
    void append(const ChatMessage& message);
    // Appends streamed text to message `id`; false if it is not here.
    bool appendText(qint64 id, const QString& text);
    // Replaces the whole text of message `id` (citations dropped at the end).
    bool replaceText(qint64 id, const QString& text);
    // Replaces a message's state, provenance, sources and error (not its text).
    void updateMeta(const ChatMessage& message);
    // Removes message `id` and every message after it.
    void removeFrom(qint64 id);
    void clear();
    void restyle();
    // Whether edit and regenerate are possible now (changes every row).
    void setActionsEnabled(bool enabled);

    int rowOf(qint64 id) const { return m_rows.value(id, -1); }
    const ChatMessage* meta(qint64 id) const;
    Q_INVOKABLE QString textOf(qint64 id) const;
    Q_INVOKABLE QString fenceCode(qint64 id, int fence) const;
    const QList<ChatMessage> metas() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void countChanged();

private:
    struct Row {
        ChatMessage meta; // text lives in `blocks`
        MessageBlocksModel* blocks;
    };
    QString details(const ChatMessage& m) const;
    QString provenance(const ChatMessage& m) const;

    HighlightService* m_highlighter;
    const RenderStyle* m_style;
    QList<Row> m_list;
    QHash<qint64, int> m_rows; // message id -> row
    bool m_actionsEnabled = false;
};

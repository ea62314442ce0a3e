// The chat: sends messages, streams replies into the list model and the
// database, stops, regenerates, edits and resends, copies. Regenerating and
// editing keep what was there as alternatives (‹ 1/3 ›): a regenerated reply
// is a new alternative of the old one, an edited message a new branch from
// the message before it; showAlternative() steps between them. Opening
// another conversation (or a new one) while a reply is being written lets
// it finish in the background, into its own conversation. Each reply
// records its provenance (model file and hash, quant, sampler settings, the
// seed actually used, timings).
//
// A conversation can search collections of the user's documents: before
// each reply the last message is looked up (RetrievalService, off the GUI
// thread), the passages found go into the prompt numbered [1], [2], ...
// within a share of the context, and the reply keeps them as its sources;
// when it ends, citations of numbers that were not given are dropped and
// the sources it cites are marked.
//
// Streaming path: engine piece -> GenerationReply (GUI thread) ->
// StreamBatcher (<= ~60 batches/s) -> MessageStore::appendPart (the batch
// is durable before it is shown) -> MessageListModel::appendText (one row,
// one role). GUI thread.
#pragma once

#include "chat/MessageListModel.h"
#include "chat/RepetitionGuard.h"
#include "chat/StreamBatcher.h"
#include "engine/Replies.h"

#include <QObject>

#include <QPointer>
#include <QtQml/qqmlregistration.h>
#include <functional>

namespace documents {
class RetrievalService;
struct Passage;
} // namespace documents

class ConversationStore;
class Gauges;
class InferenceService;
class MessageStore;
class ModelLoader;
class SettingsStore;

class ChatController : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by the session")
    Q_PROPERTY(MessageListModel* messages READ messages CONSTANT)
    Q_PROPERTY(qint64 conversationId READ conversationId NOTIFY conversationChanged)
    Q_PROPERTY(bool generating READ generating NOTIFY generatingChanged)
    Q_PROPERTY(bool searching READ searching NOTIFY generatingChanged)
    // The conversation the reply being written belongs to (0: none), and
    // whether that is another one than the conversation shown.
    Q_PROPERTY(qint64 replyConversationId READ replyConversationId NOTIFY generatingChanged)
    Q_PROPERTY(bool replyElsewhere READ replyElsewhere NOTIFY replyElsewhereChanged)
    Q_PROPERTY(bool canSend READ canSend NOTIFY canSendChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    struct Services {
        InferenceService* inference;
        ConversationStore* conversations;
        MessageStore* messages;
        SettingsStore* settings;
        ModelLoader* loader;
        Gauges* gauges;
        HighlightService* highlighter; // may be null
        const RenderStyle* style;
        QString engineKind;
        documents::RetrievalService* retrieval = nullptr; // null: no documents
    };

    explicit ChatController(const Services& services, QObject* parent = nullptr);
    ~ChatController() override;

    MessageListModel* messages() { return &m_messages; }
    qint64 conversationId() const { return m_conversationId; }
    bool generating() const { return m_reply != nullptr || m_search != 0 || m_attribution != 0; }
    // Whether the reply is waiting for the documents' passages.
    bool searching() const { return m_search != 0; }
    // The document collections the open conversation searches (kept with
    // it; a new conversation starts with none).
    QList<qint64> collections() const { return m_collections; }
    void setCollections(const QList<qint64>& ids);
    // A collection was removed: this and every stored conversation stop
    // searching it.
    void forgetCollection(qint64 id);
    qint64 replyConversationId() const { return generating() ? m_replyConversationId : 0; }
    bool replyElsewhere() const { return generating() && m_replyConversationId != m_conversationId; }
    bool canSend() const;
    QString error() const { return m_error; }
    // GUI-thread CPU time the last batch of reply text took (store + models
    // + the views' synchronous updates), for benchmarks and diagnostics.
    qint64 lastBatchNanoseconds() const { return m_lastBatchNs; }

    // Sends `text` as the user and starts the reply; false if not possible
    // now (no model, a reply running, empty text).
    Q_INVOKABLE bool send(const QString& text);
    Q_INVOKABLE void stop();
    // Stops the reply if it belongs to `conversationId` (being deleted).
    void stopIn(qint64 conversationId);
    Q_INVOKABLE void regenerate();
    Q_INVOKABLE void editAndResend(qint64 messageId, const QString& text);
    // Shows the alternative `step` places from `messageId` (-1: previous,
    // 1: next) and what follows it; not while a reply is being written.
    Q_INVOKABLE void showAlternative(qint64 messageId, int step);
    Q_INVOKABLE void copyMessage(qint64 messageId) const;
    Q_INVOKABLE void copyCode(qint64 messageId, int fence) const;
    Q_INVOKABLE void newConversation();
    Q_INVOKABLE void openConversation(qint64 id);
    Q_INVOKABLE void clearError();

signals:
    void conversationChanged();
    void generatingChanged();
    void replyElsewhereChanged();
    void canSendChanged();
    void errorChanged();
    void collectionsChanged();
    void replyStarted(qint64 messageId);
    void replyFinished(qint64 messageId);
    // A batch of reply text reached the view (after it was stored).
    void textShown(qint64 messageId, int totalLength);

private:
    // Runs `work`; a database failure becomes the error shown. False then.
    bool guarded(const std::function<void()>& work);
    void sendNow(const QString& trimmed);
    void startReply();
    // The message a new one follows: the last one shown.
    qint64 tailId() const;
    QList<ChatTurn> turns() const;
    void generate(const QList<ChatTurn>& history, const SamplerSettings& sampler);
    void onSearched(quint64 request, const QList<documents::Passage>& passages, const QString& error);
    void showDocumentShare(const QList<MessageSource>& sources);
    // The reply's text when it cites none of its passages (they are then
    // matched to it before the reply ends), else "".
    QString checkCitations();
    void onAttributed(quint64 request, const QString& text, const QList<int>& cited, const QString& error);
    Provenance provenanceNow(const SamplerSettings& sampler) const;
    void onBatch(const QString& text);
    void endReply(MessageState state, const GenerationStats& stats, const QString& error);
    void completeReply(MessageState state, const GenerationStats& stats, const QString& error);
    void setError(const QString& error);

    Services m_s;
    MessageListModel m_messages;
    StreamBatcher m_batcher;
    RepetitionGuard m_repetition; // stops a reply stuck in a loop
    QString m_stopNote;           // why the controller stopped the reply itself
    QPointer<GenerationReply> m_reply;
    qint64 m_conversationId = 0;
    qint64 m_replyId = 0; // the streaming message
    qint64 m_replyConversationId = 0;
    int m_replyLength = 0;
    qint64 m_lastBatchNs = 0;
    QString m_error;
    QList<qint64> m_collections;
    quint64 m_search = 0;             // the documents search the reply waits for (0: none)
    QList<MessageSource> m_sources;   // the reply's passages
    QList<ChatTurn> m_pendingHistory; // while searching: the conversation as it was
    SamplerSettings m_pendingSampler;
    quint64 m_attribution = 0; // the citations the ended reply waits for (0: none)
    struct Ending {
        MessageState state = MessageState::Complete;
        GenerationStats stats;
        QString error;
    } m_ending; // while attributing: how the reply ended
};

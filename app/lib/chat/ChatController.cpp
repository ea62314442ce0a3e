#include "chat/ChatController.h"

#include "documents/Citations.h"
#include "documents/RetrievalService.h"
#include "engine/InferenceService.h"
#include "gauges/Gauges.h"
#include "gauges/ThreadClock.h"
#include "models/ModelLoader.h"
#include "settings/SettingsStore.h"
#include "storage/ConversationStore.h"
#include "storage/Database.h"
#include "storage/MessageStore.h"

#include <QClipboard>
#include <QGuiApplication>

#include <algorithm>

namespace {

// The share of the context the passages may take (in the embedder's
// tokens, close to the chat model's): a quarter, within limits that leave
// small contexts room for the conversation and keep large ones focused.
int passageBudget(int contextSize)
{
    return std::clamp(contextSize / 4, 256, 1536);
}

} // namespace

ChatController::ChatController(const Services& services, QObject* parent)
    : QObject(parent), m_s(services), m_messages(services.highlighter, services.style, this)
{
    connect(&m_batcher, &StreamBatcher::flushed, this, &ChatController::onBatch);
    connect(this, &ChatController::canSendChanged, this, [this] { m_messages.setActionsEnabled(canSend()); });
    connect(m_s.loader, &ModelLoader::statusChanged, this, &ChatController::canSendChanged);
    connect(this, &ChatController::generatingChanged, this, &ChatController::replyElsewhereChanged);
    connect(this, &ChatController::conversationChanged, this, &ChatController::replyElsewhereChanged);
    if (m_s.retrieval) {
        connect(m_s.retrieval, &documents::RetrievalService::searched, this, &ChatController::onSearched);
        connect(m_s.retrieval, &documents::RetrievalService::attributed, this, &ChatController::onAttributed);
    }
    connect(m_s.loader, &ModelLoader::sha256Known, this, [this](const QString& path, const QString& sha) {
        m_s.messages->setModelSha256(path, sha);
        for (ChatMessage m : m_messages.metas()) // rows shown now learn it too
            if (m.provenance.modelPath == path && m.provenance.modelSha256.isEmpty()) {
                m.provenance.modelSha256 = sha;
                m_messages.updateMeta(m);
            }
    });
}

ChatController::~ChatController()
{
    if (m_reply)
        m_reply->stop();
}

void ChatController::setCollections(const QList<qint64>& ids)
{
    QList<qint64> sorted = ids;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    if (sorted == m_collections)
        return;
    if (m_conversationId != 0 && !guarded([&] { m_s.conversations->setCollections(m_conversationId, sorted); }))
        return;
    m_collections = sorted;
    emit collectionsChanged();
}

void ChatController::forgetCollection(qint64 id)
{
    guarded([&] { m_s.conversations->forgetCollection(id); });
    if (m_collections.removeAll(id) > 0)
        emit collectionsChanged();
}

bool ChatController::canSend() const
{
    return m_s.loader->loaded() && !generating();
}

void ChatController::setError(const QString& error)
{
    if (error != m_error) {
        m_error = error;
        emit errorChanged();
    }
}

void ChatController::clearError()
{
    setError({});
}

bool ChatController::guarded(const std::function<void()>& work)
{
    try {
        work();
        return true;
    } catch (const DatabaseError& e) {
        setError(tr("Could not save the conversation: %1").arg(e.message()));
        return false;
    }
}

bool ChatController::send(const QString& text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty() || !canSend())
        return false;
    setError({});
    return guarded([&] { sendNow(trimmed); });
}

void ChatController::sendNow(const QString& trimmed)
{
    if (m_conversationId == 0) {
        QString title = trimmed.section(QLatin1Char('\n'), 0, 0).simplified();
        if (title.size() > 48)
            title = title.left(47) + QStringLiteral("…");
        m_conversationId = m_s.conversations->createConversation(title);
        if (!m_collections.isEmpty())
            m_s.conversations->setCollections(m_conversationId, m_collections);
        emit conversationChanged();
    }
    ChatMessage user;
    user.conversationId = m_conversationId;
    user.role = ChatTurn::Role::User;
    user.text = trimmed;
    user.createdAt = QDateTime::currentDateTime();
    user.parentId = tailId();
    user.id = m_s.messages->addMessage(user);
    user.alternatives = int(m_s.messages->alternativesOf(user.id).size());
    user.alternative = user.alternatives - 1;
    m_messages.append(user);
    startReply();
}

QList<ChatTurn> ChatController::turns() const
{
    QList<ChatTurn> out;
    const QString system = m_s.settings->systemPrompt(m_s.loader->modelPath());
    if (!system.trimmed().isEmpty())
        out.append({ChatTurn::Role::System, system});
    for (const ChatMessage& m : m_messages.metas())
        if (m.state != MessageState::Failed && !m.text.isEmpty())
            out.append({m.role, m.text});
    return out;
}

Provenance ChatController::provenanceNow(const SamplerSettings& sampler) const
{
    const ModelFacts& f = m_s.loader->facts();
    Provenance p;
    p.modelPath = f.path;
    p.modelName = f.name;
    p.modelSha256 = m_s.loader->sha256();
    p.architecture = f.architecture;
    p.quant = f.quant;
    p.engine = f.engine.isEmpty() ? m_s.engineKind : f.engine;
    p.contextSize = f.contextSize;
    p.sampler = sampler;
    return p;
}

void ChatController::startReply()
{
    const SamplerSettings sampler = m_s.settings->sampler(m_s.loader->modelPath());
    ChatMessage reply;
    reply.conversationId = m_conversationId;
    reply.role = ChatTurn::Role::Assistant;
    reply.state = MessageState::Streaming;
    reply.createdAt = QDateTime::currentDateTime();
    reply.provenance = provenanceNow(sampler);
    reply.parentId = tailId();
    reply.id = m_s.messages->addMessage(reply);
    reply.alternatives = int(m_s.messages->alternativesOf(reply.id).size());
    reply.alternative = reply.alternatives - 1;
    m_s.conversations->touch(m_conversationId);
    m_messages.append(reply);
    m_replyId = reply.id;
    m_replyConversationId = m_conversationId;
    m_replyLength = 0;
    m_repetition.reset();
    m_stopNote.clear();
    m_sources.clear();
    m_s.gauges->start();
    showDocumentShare({});

    if (!m_collections.isEmpty() && m_s.retrieval) {
        // The passages first (off the GUI thread); the reply starts when
        // they arrive. The question is the user's last message.
        const QList<ChatMessage> shown = m_messages.metas();
        const auto user = std::find_if(shown.rbegin(), shown.rend(),
                                       [](const ChatMessage& m) { return m.role == ChatTurn::Role::User; });
        documents::SearchParams params;
        params.tokenBudget = passageBudget(m_s.loader->facts().contextSize);
        m_pendingHistory = turns();
        m_pendingSampler = sampler;
        m_search = m_s.retrieval->search(m_collections, user == shown.rend() ? QString() : user->text, params);
    } else {
        generate(turns(), sampler);
    }
    emit generatingChanged();
    emit canSendChanged();
    emit replyStarted(m_replyId);
}

void ChatController::generate(const QList<ChatTurn>& history, const SamplerSettings& sampler)
{
    m_reply = m_s.inference->generate(history, sampler);
    connect(m_reply, &GenerationReply::pieceReceived, &m_batcher, &StreamBatcher::push);
    connect(m_reply, &GenerationReply::statsUpdated, m_s.gauges, &Gauges::update);
    connect(m_reply, &GenerationReply::finished, this, [this](const GenerationStats& stats) {
        endReply(stats.stopReason == StopReason::Stopped ? MessageState::Stopped : MessageState::Complete, stats, {});
    });
    connect(m_reply, &GenerationReply::failed, this,
            [this](const QString& message) { endReply(MessageState::Failed, {}, message); });
}

void ChatController::onSearched(quint64 request, const QList<documents::Passage>& passages, const QString& error)
{
    if (request == 0 || request != m_search)
        return; // a search whose reply was stopped meanwhile
    m_search = 0;
    if (!error.isEmpty()) {
        endReply(MessageState::Failed, {}, tr("Could not search the documents: %1").arg(error));
        return;
    }
    for (qsizetype i = 0; i < passages.size(); ++i) {
        const documents::Passage& p = passages[i];
        MessageSource s;
        s.n = int(i + 1);
        s.path = p.path;
        s.pageFrom = p.pageFrom;
        s.pageTo = p.pageTo;
        s.pageLabel = p.pageLabel;
        s.heading = p.heading;
        s.line = p.line;
        s.text = p.text;
        s.tokens = p.tokens;
        s.label = documents::citationLabel(p);
        m_sources.append(s);
    }
    if (!guarded([&] { m_s.messages->setSources(m_replyId, m_sources); })) {
        endReply(MessageState::Failed, {}, m_error);
        return;
    }
    if (const ChatMessage* meta = m_messages.meta(m_replyId)) {
        ChatMessage m = *meta;
        m.sources = m_sources;
        m_messages.updateMeta(m);
    }
    showDocumentShare(m_sources);
    QList<ChatTurn> history = std::exchange(m_pendingHistory, {});
    if (!passages.isEmpty()) { // the question asks about the passages; the system prompt says how to cite
        const QString instruction = documents::answerInstruction();
        if (!history.isEmpty() && history.first().role == ChatTurn::Role::System)
            history.first().text = history.first().text.trimmed() + QStringLiteral("\n\n") + instruction;
        else
            history.prepend({ChatTurn::Role::System, instruction});
        if (history.last().role == ChatTurn::Role::User)
            history.last().text = QStringLiteral("Sources:\n%1\n\nQuestion: %2")
                                      .arg(documents::contextBlock(passages), history.last().text);
    }
    generate(history, m_pendingSampler);
}

void ChatController::showDocumentShare(const QList<MessageSource>& sources)
{
    int tokens = 0;
    for (const MessageSource& s : sources)
        tokens += s.tokens;
    m_s.gauges->setDocumentTokens(tokens);
}

void ChatController::onBatch(const QString& text)
{
    ThreadClock clock;
    clock.start();
    // Durable first, then shown: a crash can never lose what was on screen.
    if (!guarded([&] { m_s.messages->appendPart(m_replyId, text); })) {
        stop();
        return;
    }
    m_messages.appendText(m_replyId, text);
    m_lastBatchNs = clock.nsecsElapsed();
    m_replyLength += int(text.size());
    emit textShown(m_replyId, m_replyLength);
    if (m_stopNote.isEmpty() && m_repetition.feed(text)) {
        m_stopNote = tr("Stopped: the reply kept repeating itself.");
        stop();
    }
}

void ChatController::endReply(MessageState state, const GenerationStats& stats, const QString& failure)
{
    m_batcher.flush();
    const QString error = failure.isEmpty() && state == MessageState::Stopped ? m_stopNote : failure;
    m_stopNote.clear();
    guarded([&] { m_s.messages->finishMessage(m_replyId, state, stats, error); });
    QString uncited;
    if (!m_sources.isEmpty())
        guarded([&] { uncited = checkCitations(); });
    if (state != MessageState::Failed && m_s.retrieval && !uncited.trimmed().isEmpty()) {
        // The model cited nothing: its sentences are matched to the
        // passages (off the GUI thread) before the reply ends.
        QStringList passages;
        for (const MessageSource& src : std::as_const(m_sources))
            passages.append(src.text);
        m_ending = {state, stats, error};
        m_attribution = m_s.retrieval->attribute(uncited, passages);
        return;
    }
    completeReply(state, stats, error);
}

void ChatController::onAttributed(quint64 request, const QString& text, const QList<int>& cited, const QString& error)
{
    if (request == 0 || request != m_attribution)
        return; // stopped meanwhile
    m_attribution = 0;
    if (error.isEmpty() && !cited.isEmpty()) {
        guarded([&] {
            m_s.messages->setText(m_replyId, text);
            m_messages.replaceText(m_replyId, text);
            for (MessageSource& src : m_sources) {
                src.cited = cited.contains(src.n);
                src.attributed = src.cited;
            }
            m_s.messages->setSources(m_replyId, m_sources);
        });
    }
    const Ending ending = std::exchange(m_ending, {});
    completeReply(ending.state, ending.stats, ending.error);
}

void ChatController::completeReply(MessageState state, const GenerationStats& stats, const QString& error)
{
    if (const ChatMessage* meta = m_messages.meta(m_replyId)) {
        ChatMessage m = *meta;
        m.sources = m_sources;
        m.state = state;
        m.error = error;
        m.provenance.stats = stats;
        m.provenance.stats.contextSize = m.provenance.contextSize;
        m_messages.updateMeta(m);
    }
    m_s.gauges->finish(stats);
    if (state == MessageState::Failed)
        setError(error);
    const qint64 id = std::exchange(m_replyId, 0);
    m_reply = nullptr;
    emit generatingChanged();
    emit canSendChanged();
    emit replyFinished(id);
}

QString ChatController::checkCitations()
{
    // Citations of numbers that were not given are dropped from the text;
    // the sources the reply cites are marked.
    const std::optional<ChatMessage> stored = m_s.messages->message(m_replyId);
    if (!stored)
        return {};
    const documents::CitedAnswer answer = documents::checkCitations(stored->text, int(m_sources.size()));
    if (answer.text != stored->text) {
        m_s.messages->setText(m_replyId, answer.text);
        m_messages.replaceText(m_replyId, answer.text);
    }
    for (MessageSource& s : m_sources)
        s.cited = answer.cited.contains(s.n);
    m_s.messages->setSources(m_replyId, m_sources);
    return answer.cited.isEmpty() ? answer.text : QString();
}

void ChatController::stop()
{
    if (m_reply) {
        m_reply->stop();
    } else if (m_search != 0) { // still looking up the documents: the reply ends empty
        m_search = 0;
        m_pendingHistory.clear();
        endReply(MessageState::Stopped, {}, {});
    } else if (m_attribution != 0) { // matching the ended reply to its passages: it ends without
        m_attribution = 0;
        const Ending ending = std::exchange(m_ending, {});
        completeReply(ending.state, ending.stats, ending.error);
    }
}

void ChatController::stopIn(qint64 conversationId)
{
    if (generating() && m_replyConversationId == conversationId)
        stop();
}

void ChatController::regenerate()
{
    const QList<ChatMessage> all = m_messages.metas();
    if (generating() || !canSend() || all.isEmpty() || all.last().role != ChatTurn::Role::Assistant)
        return;
    // The old reply stays, as an alternative of the new one.
    guarded([&] {
        m_messages.removeFrom(all.last().id);
        startReply();
    });
}

void ChatController::editAndResend(qint64 messageId, const QString& text)
{
    const ChatMessage* meta = m_messages.meta(messageId);
    if (!meta || meta->role != ChatTurn::Role::User || generating() || !canSend() || text.trimmed().isEmpty())
        return;
    // A new branch from the message before it: the old one and what
    // followed stay, as an alternative.
    m_messages.removeFrom(messageId);
    send(text);
}

qint64 ChatController::tailId() const
{
    const QList<ChatMessage> shown = m_messages.metas();
    return shown.isEmpty() ? ChatMessage::kNoParent : shown.last().id;
}

void ChatController::showAlternative(qint64 messageId, int step)
{
    if (generating() || m_conversationId == 0)
        return;
    guarded([&] {
        const QList<qint64> ids = m_s.messages->alternativesOf(messageId);
        const qsizetype at = ids.indexOf(messageId);
        if (at < 0 || at + step < 0 || at + step >= ids.size())
            return;
        m_s.messages->selectAlternative(ids.at(at + step));
        m_messages.setMessages(m_s.messages->messages(m_conversationId));
    });
}

void ChatController::copyMessage(qint64 messageId) const
{
    QGuiApplication::clipboard()->setText(m_messages.textOf(messageId));
}

void ChatController::copyCode(qint64 messageId, int fence) const
{
    QGuiApplication::clipboard()->setText(m_messages.fenceCode(messageId, fence));
}

void ChatController::newConversation()
{
    // A reply being written goes on in the background, into its own
    // conversation (its batches are stored by message id).
    m_conversationId = 0;
    m_messages.clear();
    if (!m_collections.isEmpty()) {
        m_collections.clear();
        emit collectionsChanged();
    }
    if (!generating()) { // no figures of a conversation no longer shown
        m_s.gauges->finish({});
        showDocumentShare({});
    }
    emit conversationChanged();
}

void ChatController::openConversation(qint64 id)
{
    if (id == m_conversationId)
        return;
    guarded([&] {
        const QList<ChatMessage> messages = m_s.messages->messages(id);
        const QList<qint64> collections = m_s.conversations->collections(id);
        m_messages.setMessages(messages);
        m_conversationId = id;
        if (collections != m_collections) {
            m_collections = collections;
            emit collectionsChanged();
        }
        // The gauges show where the conversation stands.
        if (!messages.isEmpty() && messages.last().role == ChatTurn::Role::Assistant) {
            m_s.gauges->finish(messages.last().provenance.stats);
            showDocumentShare(messages.last().sources);
        } else if (!generating()) {
            m_s.gauges->finish({});
            showDocumentShare({});
        }
        emit conversationChanged();
    });
}

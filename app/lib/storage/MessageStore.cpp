#include "storage/MessageStore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>

namespace {

QString roleName(ChatTurn::Role role)
{
    switch (role) {
    case ChatTurn::Role::System: return QStringLiteral("system");
    case ChatTurn::Role::Assistant: return QStringLiteral("assistant");
    case ChatTurn::Role::User: break;
    }
    return QStringLiteral("user");
}

ChatTurn::Role roleFromName(const QString& name)
{
    return name == QLatin1String("system")      ? ChatTurn::Role::System
           : name == QLatin1String("assistant") ? ChatTurn::Role::Assistant
                                                : ChatTurn::Role::User;
}

QString samplerJson(const SamplerSettings& s)
{
    const QJsonObject o{{QStringLiteral("temperature"), s.temperature},
                        {QStringLiteral("top_k"), s.topK},
                        {QStringLiteral("top_p"), s.topP},
                        {QStringLiteral("min_p"), s.minP},
                        {QStringLiteral("repeat_penalty"), s.repeatPenalty},
                        {QStringLiteral("max_tokens"), s.maxTokens}};
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

SamplerSettings samplerFromJson(const QString& json, qint64 seed)
{
    const QJsonObject o = QJsonDocument::fromJson(json.toUtf8()).object();
    SamplerSettings s;
    s.temperature = o.value(QStringLiteral("temperature")).toDouble(s.temperature);
    s.topK = o.value(QStringLiteral("top_k")).toInt(s.topK);
    s.topP = o.value(QStringLiteral("top_p")).toDouble(s.topP);
    s.minP = o.value(QStringLiteral("min_p")).toDouble(s.minP);
    s.repeatPenalty = o.value(QStringLiteral("repeat_penalty")).toDouble(s.repeatPenalty);
    s.maxTokens = o.value(QStringLiteral("max_tokens")).toInt(s.maxTokens);
    s.seed = quint64(seed);
    return s;
}

QString sourcesJson(const QList<MessageSource>& sources)
{
    QJsonArray a;
    for (const MessageSource& s : sources)
        a.append(QJsonObject{{QStringLiteral("n"), s.n},
                             {QStringLiteral("path"), s.path},
                             {QStringLiteral("page"), s.pageFrom},
                             {QStringLiteral("page_to"), s.pageTo},
                             {QStringLiteral("page_label"), s.pageLabel},
                             {QStringLiteral("heading"), s.heading},
                             {QStringLiteral("line"), s.line},
                             {QStringLiteral("text"), s.text},
                             {QStringLiteral("label"), s.label},
                             {QStringLiteral("tokens"), s.tokens},
                             {QStringLiteral("cited"), s.cited},
                             {QStringLiteral("attributed"), s.attributed}});
    return QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact));
}

QList<MessageSource> sourcesFromJson(const QString& json)
{
    QList<MessageSource> out;
    if (json.isEmpty())
        return out;
    for (const QJsonValue v : QJsonDocument::fromJson(json.toUtf8()).array()) {
        const QJsonObject o = v.toObject();
        MessageSource s;
        s.n = o.value(QStringLiteral("n")).toInt();
        s.path = o.value(QStringLiteral("path")).toString();
        s.pageFrom = o.value(QStringLiteral("page")).toInt();
        s.pageTo = o.value(QStringLiteral("page_to")).toInt();
        s.pageLabel = o.value(QStringLiteral("page_label")).toString();
        s.heading = o.value(QStringLiteral("heading")).toString();
        s.line = o.value(QStringLiteral("line")).toInt();
        s.text = o.value(QStringLiteral("text")).toString();
        s.label = o.value(QStringLiteral("label")).toString();
        s.tokens = o.value(QStringLiteral("tokens")).toInt();
        s.cited = o.value(QStringLiteral("cited")).toBool();
        s.attributed = o.value(QStringLiteral("attributed")).toBool();
        out.append(s);
    }
    return out;
}

const QString kMessageColumns = QStringLiteral(
    "id, conversation_id, role, text, state, error, created_at, model_path, model_name, model_sha256, architecture,"
    " quant, engine, context_size, sampler, seed, prompt_tokens, prompt_ms, ttft_ms, generated_tokens, generation_ms,"
    " context_used, context_shifts, stop_reason, parent_id, sources");

QVariant nullIfEmpty(const QString& s)
{
    return s.isEmpty() ? QVariant() : QVariant(s);
}

// A null QString binds as SQL NULL; NOT NULL text columns want ''.
QVariant text(const QString& s)
{
    return s.isNull() ? QVariant(QStringLiteral("")) : QVariant(s);
}

} // namespace

QString messageStateName(MessageState state)
{
    switch (state) {
    case MessageState::Streaming: return QStringLiteral("streaming");
    case MessageState::Stopped: return QStringLiteral("stopped");
    case MessageState::Failed: return QStringLiteral("failed");
    case MessageState::Interrupted: return QStringLiteral("interrupted");
    case MessageState::Complete: break;
    }
    return QStringLiteral("complete");
}

MessageState messageStateFromName(const QString& name)
{
    for (MessageState s :
         {MessageState::Streaming, MessageState::Stopped, MessageState::Failed, MessageState::Interrupted})
        if (messageStateName(s) == name)
            return s;
    return MessageState::Complete;
}

MessageStore::MessageStore(Database* db) : m_db(db)
{
    recoverInterrupted();
}

void MessageStore::recoverInterrupted()
{
    QSqlQuery q = m_db->exec(QStringLiteral("SELECT id FROM messages WHERE state = 'streaming'"));
    QList<qint64> ids;
    while (q.next())
        ids.append(q.value(0).toLongLong());
    for (qint64 id : std::as_const(ids)) {
        m_db->transaction([&] {
            m_db->exec(QStringLiteral("UPDATE messages SET text = text || ?, state = 'interrupted' WHERE id = ?"),
                       {text(joinedParts(id)), id});
            m_db->exec(QStringLiteral("DELETE FROM message_parts WHERE message_id = ?"), {id});
        });
    }
}

QString MessageStore::joinedParts(qint64 messageId)
{
    QSqlQuery q =
        m_db->exec(QStringLiteral("SELECT text FROM message_parts WHERE message_id = ? ORDER BY seq"), {messageId});
    QString text;
    while (q.next())
        text += q.value(0).toString();
    return text;
}

ChatMessage MessageStore::read(const QSqlQuery& q)
{
    ChatMessage m;
    m.id = q.value(0).toLongLong();
    m.conversationId = q.value(1).toLongLong();
    m.role = roleFromName(q.value(2).toString());
    m.text = q.value(3).toString();
    m.state = messageStateFromName(q.value(4).toString());
    m.error = q.value(5).toString();
    m.createdAt = QDateTime::fromMSecsSinceEpoch(q.value(6).toLongLong());
    Provenance& p = m.provenance;
    p.modelPath = q.value(7).toString();
    p.modelName = q.value(8).toString();
    p.modelSha256 = q.value(9).toString();
    p.architecture = q.value(10).toString();
    p.quant = q.value(11).toString();
    p.engine = q.value(12).toString();
    p.contextSize = q.value(13).toInt();
    p.sampler = samplerFromJson(q.value(14).toString(), q.value(15).toLongLong());
    GenerationStats& s = p.stats;
    s.promptTokens = q.value(16).toInt();
    s.promptMs = q.value(17).toDouble();
    s.timeToFirstTokenMs = q.value(18).isNull() ? -1 : q.value(18).toDouble();
    s.generatedTokens = q.value(19).toInt();
    s.generationMs = q.value(20).toDouble();
    s.contextUsed = q.value(21).toInt();
    s.contextSize = p.contextSize;
    s.contextShifts = q.value(22).toInt();
    s.stopReason = stopReasonFromName(q.value(23).toString());
    m.parentId = q.value(24).toLongLong(); // NULL: 0
    m.sources = sourcesFromJson(q.value(25).toString());
    return m;
}

QList<ChatMessage> MessageStore::messages(qint64 conversationId)
{
    QSqlQuery q = m_db->exec(
        QStringLiteral("SELECT %1, selected FROM messages WHERE conversation_id = ? ORDER BY id").arg(kMessageColumns),
        {conversationId});
    QList<ChatMessage> all;
    QList<bool> selected;
    QHash<qint64, QList<int>> children; // parent id (0: none) -> rows, in id order
    while (q.next()) {
        all.append(read(q));
        selected.append(q.value(26).toBool());
        children[all.last().parentId].append(int(all.size()) - 1);
    }
    // The selected path from the first message; a parent that has no
    // selected child (never written so) follows its latest.
    QList<ChatMessage> out;
    qint64 parent = 0;
    while (out.size() < all.size()) {
        const QList<int> rows = children.value(parent);
        if (rows.isEmpty())
            break;
        int pick = int(rows.size()) - 1;
        for (int i = 0; i < rows.size(); ++i)
            if (selected[rows[i]])
                pick = i;
        ChatMessage m = all[rows[pick]];
        m.alternative = pick;
        m.alternatives = int(rows.size());
        out.append(m);
        parent = m.id;
    }
    for (ChatMessage& m : out) // a reply streaming now: its text so far
        if (m.state == MessageState::Streaming)
            m.text += joinedParts(m.id);
    return out;
}

std::optional<ChatMessage> MessageStore::message(qint64 id)
{
    QSqlQuery q = m_db->exec(QStringLiteral("SELECT %1 FROM messages WHERE id = ?").arg(kMessageColumns), {id});
    if (!q.next())
        return std::nullopt;
    ChatMessage m = read(q);
    if (m.state == MessageState::Streaming)
        m.text += joinedParts(m.id);
    return m;
}

qint64 MessageStore::addMessage(const ChatMessage& m)
{
    const Provenance& p = m.provenance;
    const QVariantList values = {m.conversationId,
                                 roleName(m.role),
                                 text(m.text),
                                 messageStateName(m.state),
                                 text(m.error),
                                 m.createdAt.isValid() ? m.createdAt.toMSecsSinceEpoch()
                                                       : QDateTime::currentMSecsSinceEpoch(),
                                 nullIfEmpty(p.modelPath),
                                 nullIfEmpty(p.modelName),
                                 nullIfEmpty(p.modelSha256),
                                 nullIfEmpty(p.architecture),
                                 nullIfEmpty(p.quant),
                                 nullIfEmpty(p.engine),
                                 p.isEmpty() ? QVariant() : QVariant(p.contextSize),
                                 p.isEmpty() ? QVariant() : QVariant(samplerJson(p.sampler)),
                                 p.isEmpty() ? QVariant() : QVariant(qint64(p.sampler.seed))};
    qint64 id = 0;
    m_db->transaction([&] {
        QVariant parent = m.parentId > 0 ? QVariant(m.parentId) : QVariant();
        if (m.parentId == 0) {
            QSqlQuery latest = m_db->exec(QStringLiteral("SELECT MAX(id) FROM messages WHERE conversation_id = ?"),
                                          {m.conversationId});
            if (latest.next() && !latest.value(0).isNull())
                parent = latest.value(0).toLongLong();
        }
        // The new message is the one shown among its alternatives.
        m_db->exec(QStringLiteral("UPDATE messages SET selected = 0 WHERE conversation_id = ? AND parent_id IS ?"),
                   {m.conversationId, parent});
        QVariantList row = values;
        row.append(parent);
        id = m_db->exec(QStringLiteral("INSERT INTO messages(conversation_id, role, text, state, error, created_at,"
                                       " model_path, model_name, model_sha256, architecture, quant, engine,"
                                       " context_size, sampler, seed, parent_id, selected)"
                                       " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,1)"),
                        row)
                 .lastInsertId()
                 .toLongLong();
        m_db->exec(QStringLiteral("UPDATE conversations SET updated_at = ? WHERE id = ?"),
                   {QDateTime::currentMSecsSinceEpoch(), m.conversationId});
    });
    return id;
}

QList<qint64> MessageStore::alternativesOf(qint64 messageId)
{
    QSqlQuery q = m_db->exec(QStringLiteral("SELECT o.id FROM messages m JOIN messages o"
                                            " ON o.conversation_id = m.conversation_id AND o.parent_id IS m.parent_id"
                                            " WHERE m.id = ? ORDER BY o.id"),
                             {messageId});
    QList<qint64> ids;
    while (q.next())
        ids.append(q.value(0).toLongLong());
    return ids;
}

void MessageStore::selectAlternative(qint64 messageId)
{
    m_db->transaction([&] {
        m_db->exec(QStringLiteral("UPDATE messages SET selected = (id = ?) WHERE id IN (SELECT o.id FROM messages m"
                                  " JOIN messages o ON o.conversation_id = m.conversation_id"
                                  " AND o.parent_id IS m.parent_id WHERE m.id = ?)"),
                   {messageId, messageId});
    });
}

void MessageStore::appendPart(qint64 messageId, const QString& text)
{
    if (text.isEmpty())
        return;
    int& seq = m_nextPart[messageId];
    m_db->transaction([&] {
        m_db->exec(QStringLiteral("INSERT INTO message_parts(message_id, seq, text) VALUES (?, ?, ?)"),
                   {messageId, seq, text});
    });
    ++seq;
}

void MessageStore::finishMessage(qint64 messageId, MessageState state, const GenerationStats& s, const QString& error)
{
    m_db->transaction([&] {
        m_db->exec(QStringLiteral("UPDATE messages SET text = text || ?, state = ?, error = ?, prompt_tokens = ?,"
                                  " prompt_ms = ?, ttft_ms = ?, generated_tokens = ?, generation_ms = ?,"
                                  " context_used = ?, context_shifts = ?, stop_reason = ? WHERE id = ?"),
                   {text(joinedParts(messageId)), messageStateName(state), text(error), s.promptTokens, s.promptMs,
                    s.timeToFirstTokenMs < 0 ? QVariant() : QVariant(s.timeToFirstTokenMs), s.generatedTokens,
                    s.generationMs, s.contextUsed, s.contextShifts, stopReasonName(s.stopReason), messageId});
        m_db->exec(QStringLiteral("DELETE FROM message_parts WHERE message_id = ?"), {messageId});
    });
    m_nextPart.remove(messageId);
}

void MessageStore::setSources(qint64 messageId, const QList<MessageSource>& sources)
{
    m_db->transaction([&] {
        m_db->exec(QStringLiteral("UPDATE messages SET sources = ? WHERE id = ?"),
                   {sources.isEmpty() ? QVariant() : QVariant(sourcesJson(sources)), messageId});
    });
}

void MessageStore::setText(qint64 messageId, const QString& newText)
{
    m_db->transaction([&] {
        m_db->exec(QStringLiteral("UPDATE messages SET text = ? WHERE id = ?"), {text(newText), messageId});
    });
}

void MessageStore::deleteFrom(qint64 messageId)
{
    m_db->transaction([&] {
        m_db->exec(QStringLiteral("DELETE FROM messages WHERE conversation_id ="
                                  " (SELECT conversation_id FROM messages WHERE id = ?) AND id >= ?"),
                   {messageId, messageId});
    });
}

void MessageStore::setModelSha256(const QString& modelPath, const QString& sha256)
{
    m_db->transaction([&] {
        m_db->exec(QStringLiteral("UPDATE messages SET model_sha256 = ? WHERE model_path = ? AND model_sha256 IS NULL"),
                   {sha256, modelPath});
    });
}

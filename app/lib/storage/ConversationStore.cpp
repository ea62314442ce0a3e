#include "storage/ConversationStore.h"

#include "markdown/InlineMarkdown.h"

#include <QSet>
#include <QSqlQuery>

namespace {

const QChar kMatchOpen(0xE000); // private-use markers around a search match
const QChar kMatchClose(0xE001);

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// Escaped HTML of a snippet with the match in bold.
QString snippetHtml(const QString& marked)
{
    return InlineMarkdown::escape(marked)
        .replace(kMatchOpen, QLatin1String("<b>"))
        .replace(kMatchClose, QLatin1String("</b>"));
}

QString likePattern(const QString& query)
{
    QString escaped = query;
    escaped.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
        .replace(QLatin1Char('%'), QLatin1String("\\%"))
        .replace(QLatin1Char('_'), QLatin1String("\\_"));
    return QLatin1Char('%') + escaped + QLatin1Char('%');
}

} // namespace

ConversationStore::ConversationStore(Database* db, QObject* parent) : QObject(parent), m_db(db)
{
}

void ConversationStore::touch(qint64 id)
{
    m_db->transaction([&] {
        m_db->exec(QStringLiteral("UPDATE conversations SET updated_at = ? WHERE id = ?"), {nowMs(), id});
    });
    emit conversationsChanged();
}

qint64 ConversationStore::createConversation(const QString& title)
{
    qint64 id = 0;
    m_db->transaction([&] {
        const qint64 now = nowMs();
        id = m_db->exec(QStringLiteral("INSERT INTO conversations(title, created_at, updated_at) VALUES (?, ?, ?)"),
                        {title, now, now})
                 .lastInsertId()
                 .toLongLong();
    });
    emit conversationsChanged();
    return id;
}

void ConversationStore::renameConversation(qint64 id, const QString& title)
{
    m_db->transaction([&] {
        m_db->exec(QStringLiteral("UPDATE conversations SET title = ? WHERE id = ?"), {title, id});
    });
    emit conversationsChanged();
}

void ConversationStore::deleteConversation(qint64 id)
{
    m_db->transaction([&] { m_db->exec(QStringLiteral("DELETE FROM conversations WHERE id = ?"), {id}); });
    emit conversationsChanged();
}

QList<Conversation> ConversationStore::conversations()
{
    QSqlQuery q = m_db->exec(QStringLiteral(
        "SELECT id, title, created_at, updated_at FROM conversations ORDER BY updated_at DESC, id DESC"));
    QList<Conversation> out;
    while (q.next())
        out.append({q.value(0).toLongLong(),
                    q.value(1).toString(),
                    QDateTime::fromMSecsSinceEpoch(q.value(2).toLongLong()),
                    QDateTime::fromMSecsSinceEpoch(q.value(3).toLongLong()),
                    {}});
    return out;
}

QList<Conversation> ConversationStore::search(const QString& query)
{
    const QString needle = query.trimmed();
    if (needle.isEmpty())
        return conversations();
    // Trigram FTS needs three characters; shorter queries scan with LIKE.
    const bool fts = needle.size() >= 3;
    const QString sql = fts ? QStringLiteral("SELECT c.id, c.title, c.created_at, c.updated_at,"
                                             " snippet(messages_fts, 0, ?, ?, '…', 12)"
                                             " FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid"
                                             " JOIN conversations c ON c.id = m.conversation_id"
                                             " WHERE messages_fts MATCH ? ORDER BY c.updated_at DESC, m.id")
                            : QStringLiteral("SELECT c.id, c.title, c.created_at, c.updated_at, m.text"
                                             " FROM messages m JOIN conversations c ON c.id = m.conversation_id"
                                             " WHERE m.text LIKE ? ESCAPE '\\' ORDER BY c.updated_at DESC, m.id");
    const QString phrase =
        QLatin1Char('"') + QString(needle).replace(QLatin1Char('"'), QLatin1String("\"\"")) + QLatin1Char('"');
    QSqlQuery q = fts ? m_db->exec(sql, {QString(kMatchOpen), QString(kMatchClose), phrase})
                      : m_db->exec(sql, {likePattern(needle)});
    QList<Conversation> out;
    QSet<qint64> seen;
    while (q.next()) {
        const qint64 id = q.value(0).toLongLong();
        if (seen.contains(id))
            continue;
        seen.insert(id);
        QString marked = q.value(4).toString();
        if (!fts) { // cut a snippet around the first match ourselves
            const qsizetype at = marked.indexOf(needle, 0, Qt::CaseInsensitive);
            const qsizetype from = std::max<qsizetype>(0, at - 30);
            marked = (from > 0 ? QStringLiteral("…") : QString()) + marked.mid(from, at - from) + kMatchOpen +
                     marked.mid(at, needle.size()) + kMatchClose + marked.mid(at + needle.size(), 40);
        }
        out.append({id, q.value(1).toString(), QDateTime::fromMSecsSinceEpoch(q.value(2).toLongLong()),
                    QDateTime::fromMSecsSinceEpoch(q.value(3).toLongLong()), snippetHtml(marked.simplified())});
    }
    // Titles match too.
    QSqlQuery t = m_db->exec(QStringLiteral("SELECT id, title, created_at, updated_at FROM conversations"
                                            " WHERE title LIKE ? ESCAPE '\\' ORDER BY updated_at DESC"),
                             {likePattern(needle)});
    while (t.next())
        if (!seen.contains(t.value(0).toLongLong()))
            out.append({t.value(0).toLongLong(),
                        t.value(1).toString(),
                        QDateTime::fromMSecsSinceEpoch(t.value(2).toLongLong()),
                        QDateTime::fromMSecsSinceEpoch(t.value(3).toLongLong()),
                        {}});
    std::stable_sort(out.begin(), out.end(),
                     [](const Conversation& a, const Conversation& b) { return a.updatedAt > b.updatedAt; });
    return out;
}

QList<qint64> ConversationStore::collections(qint64 id)
{
    QSqlQuery q = m_db->exec(QStringLiteral("SELECT collection_id FROM conversation_collections"
                                            " WHERE conversation_id = ? ORDER BY collection_id"),
                             {id});
    QList<qint64> out;
    while (q.next())
        out.append(q.value(0).toLongLong());
    return out;
}

void ConversationStore::forgetCollection(qint64 collection)
{
    m_db->exec(QStringLiteral("DELETE FROM conversation_collections WHERE collection_id = ?"), {collection});
}

void ConversationStore::setCollections(qint64 id, const QList<qint64>& collections)
{
    m_db->transaction([&] {
        m_db->exec(QStringLiteral("DELETE FROM conversation_collections WHERE conversation_id = ?"), {id});
        for (qint64 c : collections)
            m_db->exec(QStringLiteral("INSERT OR IGNORE INTO conversation_collections(conversation_id, collection_id)"
                                      " VALUES (?, ?)"),
                       {id, c});
    });
}

#include "conversations/ConversationListModel.h"

#include "storage/ConversationStore.h"

#include <QLocale>

#include <exception>

ConversationListModel::ConversationListModel(ConversationStore* store, QObject* parent)
    : QAbstractListModel(parent), m_store(store)
{
    m_searchDelay.setSingleShot(true);
    m_searchDelay.setInterval(150); // search once typing pauses
    connect(&m_searchDelay, &QTimer::timeout, this, &ConversationListModel::refresh);
    connect(m_store, &ConversationStore::conversationsChanged, this, &ConversationListModel::refresh);
    m_undoTime.setSingleShot(true);
    m_undoTime.setInterval(kUndoMs);
    connect(&m_undoTime, &QTimer::timeout, this, &ConversationListModel::commitRemoval);
    refresh();
}

ConversationListModel::~ConversationListModel()
{
    commitRemoval();
}

void ConversationListModel::setSearchText(const QString& text)
{
    if (text == m_search)
        return;
    m_search = text;
    emit searchTextChanged();
    m_searchDelay.start();
}

void ConversationListModel::setCurrentId(qint64 id)
{
    if (id == m_currentId)
        return;
    m_currentId = id;
    emit currentIdChanged();
    if (!m_items.isEmpty())
        emit dataChanged(index(0), index(int(m_items.size()) - 1), {CurrentRole});
}

void ConversationListModel::refresh()
{
    QList<Conversation> items = m_store->search(m_search);
    if (m_pendingId != 0)
        items.removeIf([this](const Conversation& c) { return c.id == m_pendingId; });
    // Same conversations in the same order: update in place, keeping the
    // view's scroll position and delegates.
    bool sameOrder = items.size() == m_items.size();
    for (qsizetype i = 0; sameOrder && i < items.size(); ++i)
        sameOrder = items[i].id == m_items[i].id;
    if (sameOrder) {
        m_items = items;
        if (!m_items.isEmpty())
            emit dataChanged(index(0), index(int(m_items.size()) - 1));
        return;
    }
    beginResetModel();
    m_items = items;
    endResetModel();
    emit countChanged();
}

void ConversationListModel::rename(qint64 id, const QString& title)
{
    const QString t = title.simplified();
    if (!t.isEmpty())
        m_store->renameConversation(id, t);
}

void ConversationListModel::remove(qint64 id)
{
    commitRemoval(); // one undo at a time
    QString title;
    for (const Conversation& c : std::as_const(m_items))
        if (c.id == id)
            title = c.title;
    m_pendingId = id;
    m_pendingTitle = title.isEmpty() ? tr("Untitled") : title;
    m_undoTime.start();
    refresh();
    emit pendingRemovalChanged();
    emit removed(id);
}

qint64 ConversationListModel::takePending()
{
    const qint64 id = m_pendingId;
    m_undoTime.stop();
    m_pendingId = 0;
    m_pendingTitle.clear();
    return id;
}

void ConversationListModel::undoRemove()
{
    const qint64 id = takePending();
    if (id == 0)
        return;
    refresh();
    emit pendingRemovalChanged();
    emit restored(id);
}

void ConversationListModel::commitRemoval()
{
    const qint64 id = takePending();
    if (id == 0)
        return;
    try {
        m_store->deleteConversation(id); // refreshes through conversationsChanged
    } catch (const std::exception& e) {
        qWarning("could not delete conversation %lld: %s", id, e.what());
        refresh();
    }
    emit pendingRemovalChanged();
}

QString ConversationListModel::sectionFor(const QDateTime& when, const QDate& today)
{
    const qint64 days = when.date().daysTo(today);
    if (days <= 0)
        return tr("Today");
    if (days == 1)
        return tr("Yesterday");
    if (days < 7)
        return tr("Previous 7 days");
    if (days < 30)
        return tr("Previous 30 days");
    return QLocale().toString(when.date(), QStringLiteral("MMMM yyyy"));
}

int ConversationListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_items.size());
}

QHash<int, QByteArray> ConversationListModel::roleNames() const
{
    return {{IdRole, "conversationId"}, {TitleRole, "title"},     {SectionRole, "section"},
            {UpdatedRole, "updated"},   {SnippetRole, "snippet"}, {CurrentRole, "current"}};
}

QVariant ConversationListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Conversation& c = m_items.at(index.row());
    switch (role) {
    case IdRole: return c.id;
    case Qt::DisplayRole:
    case TitleRole: return c.title;
    case SectionRole: return sectionFor(c.updatedAt, QDate::currentDate());
    case UpdatedRole: return c.updatedAt;
    case SnippetRole: return c.snippet;
    case CurrentRole: return c.id == m_currentId;
    default: return {};
    }
}

// The sidebar's conversations, newest first, grouped by date (section role:
// Today, Yesterday, Previous 7 days, Previous 30 days, then by month). With
// a search text it lists the conversations whose messages or title match
// (SQLite FTS5), each with a snippet. Rename and delete go through here.
// A delete is undoable for a few seconds: the conversation leaves the list
// at once and leaves the database when the time is up, at the next delete,
// or when the model is destroyed (the app quits).
// GUI thread.
#pragma once

#include "storage/Records.h"

#include <QAbstractListModel>
#include <QTimer>
#include <QtQml/qqmlregistration.h>

class ConversationStore;

class ConversationListModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by the session")
    Q_PROPERTY(QString searchText READ searchText WRITE setSearchText NOTIFY searchTextChanged)
    Q_PROPERTY(qint64 currentId READ currentId WRITE setCurrentId NOTIFY currentIdChanged)
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
    // The title of the conversation whose delete can still be undone ("" if none).
    Q_PROPERTY(QString pendingRemovalTitle READ pendingRemovalTitle NOTIFY pendingRemovalChanged)

public:
    enum Roles {
        IdRole = Qt::UserRole + 1, // qint64
        TitleRole,                 // QString
        SectionRole,               // QString: the date group (translated)
        UpdatedRole,               // QDateTime: last activity
        SnippetRole,               // QString: rich text around the search match ("" when not searching)
        CurrentRole,               // bool: the conversation open in the chat view
    };
    Q_ENUM(Roles)

    static constexpr int kUndoMs = 6000; // how long a delete can be undone

    explicit ConversationListModel(ConversationStore* store, QObject* parent = nullptr);
    ~ConversationListModel() override;

    QString searchText() const { return m_search; }
    void setSearchText(const QString& text);
    qint64 currentId() const { return m_currentId; }
    void setCurrentId(qint64 id);

    Q_INVOKABLE void rename(qint64 id, const QString& title);
    Q_INVOKABLE void remove(qint64 id);
    // Brings back the conversation removed last, if it is still undoable.
    Q_INVOKABLE void undoRemove();
    // Deletes the pending conversation now (no more undo).
    Q_INVOKABLE void commitRemoval();
    QString pendingRemovalTitle() const { return m_pendingTitle; }
    Q_INVOKABLE void refresh();
    // The date group a conversation last active at `when` belongs to, seen
    // from `today`.
    static QString sectionFor(const QDateTime& when, const QDate& today);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void searchTextChanged();
    void currentIdChanged();
    void countChanged();
    void removed(qint64 id);
    void restored(qint64 id);
    void pendingRemovalChanged();

private:
    ConversationStore* m_store;
    QList<Conversation> m_items;
    QString m_search;
    qint64 m_currentId = 0;
    QTimer m_searchDelay;
    QTimer m_undoTime;
    // Ends the pending removal's undo window; returns its id (0: none).
    qint64 takePending();

    qint64 m_pendingId = 0; // removed from the list, not yet from the database
    QString m_pendingTitle;
};

// The sidebar's conversations, newest first, grouped by date (section role:
// Today, Yesterday, Previous 7 days, Previous 30 days, then by month). With
// a search text it lists the conversations whose messages or title match
// (SQLite FTS5), each with a snippet. Rename and delete go through here.
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

    explicit ConversationListModel(ConversationStore* store, QObject* parent = nullptr);

    QString searchText() const { return m_search; }
    void setSearchText(const QString& text);
    qint64 currentId() const { return m_currentId; }
    void setCurrentId(qint64 id);

    Q_INVOKABLE void rename(qint64 id, const QString& title);
    Q_INVOKABLE void remove(qint64 id);
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

private:
    ConversationStore* m_store;
    QList<Conversation> m_items;
    QString m_search;
    qint64 m_currentId = 0;
    QTimer m_searchDelay;
};

// The database: migrations from every older schema, transactions, the FTS5
// search (English, Chinese, short queries, titles), streamed parts folded
// into messages, replies interrupted by a crash recovered with their text,
// provenance round trips.

#include "storage/ConversationStore.h"
#include "storage/Database.h"
#include "storage/MessageStore.h"
#include "storage/Migrations.h"

#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

class TestStorage : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    int m_n = 0;
    QString freshPath() { return m_dir.filePath(QStringLiteral("db%1.sqlite").arg(m_n++)); }

    static ChatMessage assistant(qint64 conversation, const QString& text, MessageState state)
    {
        ChatMessage m;
        m.conversationId = conversation;
        m.role = ChatTurn::Role::Assistant;
        m.text = text;
        m.state = state;
        m.provenance.modelPath = QStringLiteral("/models/tiny.gguf");
        m.provenance.modelName = QStringLiteral("Tiny");
        m.provenance.quant = QStringLiteral("Q4_K_M");
        m.provenance.architecture = QStringLiteral("llama");
        m.provenance.engine = QStringLiteral("fake");
        m.provenance.contextSize = 4096;
        m.provenance.sampler.temperature = 0.25;
        m.provenance.sampler.topK = 12;
        m.provenance.sampler.seed = 424242;
        return m;
    }

private slots:
    void freshDatabaseIsAtTheLatestVersion()
    {
        Database db(freshPath());
        QCOMPARE(db.version(), Database::latestVersion());
        QVERIFY(Database::latestVersion() >= 2);
        QCOMPARE(db.exec(QStringLiteral("PRAGMA journal_mode")).next(), true);
    }

    // A file written by each older schema opens, keeps its data and can
    // be searched (the FTS index is built for existing messages).
    void migratesFromEveryOlderVersion()
    {
        for (int from = 1; from < Database::latestVersion(); ++from) {
            const QString path = freshPath();
            {
                Database old(path, from);
                QCOMPARE(old.version(), from);
                ConversationStore conversations(&old);
                const qint64 c = conversations.createConversation(QStringLiteral("Old one"));
                // Rows as that schema's code wrote them (today's store
                // writes columns it did not have).
                const QStringList texts = {QStringLiteral("a question"), QStringLiteral("a message about pelicans"),
                                           QStringLiteral("another question"), QStringLiteral("another answer")};
                // From version 3 on, each message names its parent.
                qint64 parent = 0;
                for (int i = 0; i < texts.size(); ++i) {
                    const QVariant role = i % 2 ? QStringLiteral("assistant") : QStringLiteral("user");
                    if (from >= 3)
                        old.exec(
                            QStringLiteral("INSERT INTO messages(conversation_id, role, text, created_at, parent_id)"
                                           " VALUES (?, ?, ?, ?, ?)"),
                            {c, role, texts[i], 1000 + i, parent ? QVariant(parent) : QVariant()});
                    else
                        old.exec(QStringLiteral("INSERT INTO messages(conversation_id, role, text, created_at)"
                                                " VALUES (?, ?, ?, ?)"),
                                 {c, role, texts[i], 1000 + i});
                    QSqlQuery last = old.exec(QStringLiteral("SELECT last_insert_rowid()"));
                    QVERIFY(last.next());
                    parent = last.value(0).toLongLong();
                }
            }
            Database db(path);
            QCOMPARE(db.version(), Database::latestVersion());
            ConversationStore conversations(&db);
            const QList<Conversation> found = conversations.search(QStringLiteral("pelican"));
            QCOMPARE(found.size(), 1);
            QCOMPARE(found[0].title, QStringLiteral("Old one"));
            // The old conversation reads as it was: one line, in order, and
            // it takes alternatives from here on.
            MessageStore messages(&db);
            QList<ChatMessage> shown = messages.messages(found[0].id);
            QCOMPARE(shown.size(), 4);
            QCOMPARE(shown[1].text, QStringLiteral("a message about pelicans"));
            for (int i = 0; i < shown.size(); ++i) {
                QCOMPARE(shown[i].parentId, i == 0 ? 0 : shown[i - 1].id);
                QCOMPARE(shown[i].alternatives, 1);
            }
            ChatMessage again = assistant(found[0].id, QStringLiteral("a second answer"), MessageState::Complete);
            again.parentId = shown[2].id;
            messages.addMessage(again);
            shown = messages.messages(found[0].id);
            QCOMPARE(shown.size(), 4);
            QCOMPARE(shown[3].text, QStringLiteral("a second answer"));
            QCOMPARE(shown[3].alternative, 1);
            QCOMPARE(shown[3].alternatives, 2);
        }
    }

    void refusesANewerSchema()
    {
        const QString path = freshPath();
        {
            Database db(path);
            db.exec(QStringLiteral("PRAGMA user_version = 99"));
        }
        try {
            Database db(path);
            QFAIL("opened a database from the future");
        } catch (const DatabaseError& e) {
            QVERIFY2(e.message().contains(QStringLiteral("newer version")), qPrintable(e.message()));
        }
    }

    void transactionsRollBack()
    {
        Database db(freshPath());
        ConversationStore conversations(&db);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, db.transaction([&] {
            db.exec(QStringLiteral("INSERT INTO conversations(title, created_at, updated_at) VALUES ('x', 1, 1)"));
            throw std::runtime_error("abort");
        }));
        QCOMPARE(conversations.conversations().size(), 0);
        QVERIFY_THROWS_EXCEPTION(DatabaseError, db.exec(QStringLiteral("SELECT nonsense FROM nowhere")));
    }

    void searchFindsWordsInAnyLanguage()
    {
        Database db(freshPath());
        ConversationStore conversations(&db);
        MessageStore messages(&db);
        const qint64 a = conversations.createConversation(QStringLiteral("Birds"));
        const qint64 b = conversations.createConversation(QStringLiteral("诗"));
        const qint64 c = conversations.createConversation(QStringLiteral("Cats and 100% \"quotes\""));
        messages.addMessage(
            assistant(a, QStringLiteral("Zebras sleep standing; pelicans do not."), MessageState::Complete));
        messages.addMessage(assistant(b, QStringLiteral("这是一首关于猫的诗。"), MessageState::Complete));
        QCOMPARE(conversations.search(QStringLiteral("ZEBRA")).size(), 1);
        QCOMPARE(conversations.search(QStringLiteral("关于猫")).size(), 1);
        QVERIFY(
            conversations.search(QStringLiteral("关于猫")).first().snippet.contains(QStringLiteral("<b>关于猫</b>")));
        QCOMPARE(conversations.search(QStringLiteral("猫")).size(), 1);       // one character: LIKE, not the index
        QCOMPARE(conversations.search(QStringLiteral("Cats")).first().id, c); // titles match too
        QCOMPARE(conversations.search(QStringLiteral("100%")).size(), 1);     // LIKE wildcards are escaped
        QCOMPARE(conversations.search(QStringLiteral("\"quotes\"")).size(), 1);
        QCOMPARE(conversations.search(QStringLiteral("') OR 1=1 --")).size(), 0); // bound, never spliced
        QCOMPARE(conversations.search(QString()).size(), 3);
        conversations.deleteConversation(a);
        QCOMPARE(conversations.search(QStringLiteral("zebra")).size(), 0); // index follows deletes
    }

    void streamingPartsAndProvenance()
    {
        Database db(freshPath());
        ConversationStore conversations(&db);
        MessageStore messages(&db);
        const qint64 c = conversations.createConversation(QStringLiteral("t"));
        const qint64 id = messages.addMessage(assistant(c, {}, MessageState::Streaming));
        messages.appendPart(id, QStringLiteral("Hello "));
        messages.appendPart(id, QStringLiteral("world"));
        QCOMPARE(messages.message(id)->text, QStringLiteral("Hello world")); // readable while streaming
        QCOMPARE(conversations.search(QStringLiteral("world")).size(), 0);   // indexed once finished
        GenerationStats stats;
        stats.promptTokens = 12;
        stats.promptMs = 30.5;
        stats.timeToFirstTokenMs = 41;
        stats.generatedTokens = 2;
        stats.generationMs = 20;
        stats.contextUsed = 14;
        stats.contextShifts = 1;
        stats.stopReason = StopReason::EndOfGeneration;
        messages.finishMessage(id, MessageState::Complete, stats);
        messages.setModelSha256(QStringLiteral("/models/tiny.gguf"), QString(64, QLatin1Char('a')));

        const ChatMessage m = *messages.message(id);
        QCOMPARE(m.text, QStringLiteral("Hello world"));
        QCOMPARE(m.state, MessageState::Complete);
        QCOMPARE(m.provenance.modelSha256, QString(64, QLatin1Char('a')));
        QCOMPARE(m.provenance.quant, QStringLiteral("Q4_K_M"));
        QCOMPARE(m.provenance.sampler.seed, quint64(424242));
        QCOMPARE(m.provenance.sampler.topK, 12);
        QCOMPARE(m.provenance.sampler.temperature, 0.25);
        QCOMPARE(m.provenance.stats.promptTokens, 12);
        QCOMPARE(m.provenance.stats.timeToFirstTokenMs, 41.0);
        QCOMPARE(m.provenance.stats.contextShifts, 1);
        QCOMPARE(m.provenance.stats.stopReason, StopReason::EndOfGeneration);
        QCOMPARE(conversations.search(QStringLiteral("world")).size(), 1);
        QCOMPARE(db.exec(QStringLiteral("SELECT count(*) FROM message_parts")).next(), true);
    }

    void interruptedRepliesAreRecovered()
    {
        const QString path = freshPath();
        qint64 id = 0;
        {
            Database db(path);
            ConversationStore conversations(&db);
            MessageStore messages(&db);
            const qint64 c = conversations.createConversation(QStringLiteral("t"));
            id = messages.addMessage(assistant(c, {}, MessageState::Streaming));
            messages.appendPart(id, QStringLiteral("half a "));
            messages.appendPart(id, QStringLiteral("reply"));
        } // no finishMessage: as if the process died
        Database db(path);
        MessageStore messages(&db);
        const ChatMessage m = *messages.message(id);
        QCOMPARE(m.state, MessageState::Interrupted);
        QCOMPARE(m.text, QStringLiteral("half a reply"));
        QSqlQuery q = db.exec(QStringLiteral("SELECT count(*) FROM message_parts"));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 0);
    }

    void deleteFromTruncates()
    {
        Database db(freshPath());
        ConversationStore conversations(&db);
        MessageStore messages(&db);
        const qint64 c = conversations.createConversation(QStringLiteral("t"));
        QList<qint64> ids;
        for (int i = 0; i < 4; ++i)
            ids << messages.addMessage(assistant(c, QString::number(i), MessageState::Complete));
        messages.deleteFrom(ids[2]);
        QCOMPARE(messages.messages(c).size(), 2);
        messages.setText(ids[1], QStringLiteral("edited"));
        QCOMPARE(messages.messages(c).last().text, QStringLiteral("edited"));
        conversations.deleteConversation(c);
        QCOMPARE(messages.messages(c).size(), 0); // ON DELETE CASCADE
    }

    // Alternatives: a regenerated reply beside the old one, an edited
    // message as a new branch; the selection is stored; deleting a message
    // deletes what follows it in every branch.
    void alternativesAndBranches()
    {
        Database db(freshPath());
        ConversationStore conversations(&db);
        MessageStore messages(&db);
        const qint64 c = conversations.createConversation(QStringLiteral("t"));
        ChatMessage question;
        question.conversationId = c;
        question.text = QStringLiteral("q1");
        question.parentId = ChatMessage::kNoParent;
        const qint64 q1 = messages.addMessage(question);
        const qint64 a1 = messages.addMessage(assistant(c, QStringLiteral("a1"), MessageState::Complete));
        ChatMessage regenerated = assistant(c, QStringLiteral("a1 again"), MessageState::Complete);
        regenerated.parentId = q1;
        const qint64 a1b = messages.addMessage(regenerated);
        QCOMPARE(messages.alternativesOf(a1), (QList<qint64>{a1, a1b}));
        QList<ChatMessage> shown = messages.messages(c);
        QCOMPARE(shown.size(), 2);
        QCOMPARE(shown[1].id, a1b);
        QCOMPARE(shown[1].alternative, 1);
        QCOMPARE(shown[1].alternatives, 2);
        messages.selectAlternative(a1);
        QCOMPARE(messages.messages(c)[1].id, a1);
        QCOMPARE(messages.messages(c)[1].alternative, 0);

        // An edit of the first message: a branch of its own.
        ChatMessage edited = question;
        edited.text = QStringLiteral("q1 edited");
        const qint64 q1b = messages.addMessage(edited);
        const qint64 a2 = messages.addMessage(assistant(c, QStringLiteral("a2"), MessageState::Complete));
        shown = messages.messages(c);
        QCOMPARE(shown.size(), 2);
        QCOMPARE(shown[0].id, q1b);
        QCOMPARE(shown[0].alternatives, 2);
        QCOMPARE(shown[1].id, a2);
        QCOMPARE(shown[1].alternatives, 1);
        // Back to the first branch: its own selection (a1) is still there.
        messages.selectAlternative(q1);
        shown = messages.messages(c);
        QCOMPARE(shown[0].id, q1);
        QCOMPARE(shown[1].id, a1);
        QCOMPARE(shown[1].alternatives, 2);
        // Deleting the first branch's question deletes its replies too
        // (ON DELETE CASCADE on parent_id); the other branch is shown.
        db.exec(QStringLiteral("DELETE FROM messages WHERE id = ?"), {q1});
        QVERIFY(!messages.message(a1).has_value());
        QVERIFY(!messages.message(a1b).has_value());
        shown = messages.messages(c);
        QCOMPARE(shown.size(), 2);
        QCOMPARE(shown[0].id, q1b);
        QCOMPARE(shown[0].alternatives, 1);
    }
};

QTEST_GUILESS_MAIN(TestStorage)
#include "test_storage.moc"

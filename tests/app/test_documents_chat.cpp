// Documents in chat, through the whole app session with the fake engine and
// the real embedding model: a conversation that uses a collection gets the
// passages in its prompt, the reply keeps the ones it cites (a citation of
// a passage it was not given is removed), the context gauge shows their
// share, and everything is there again after a relaunch. Stopping while the
// documents are searched ends the reply at once.
#include "AppTestSupport.h"
#include "DocumentCorpus.h"
#include "test_support.h"

#include "chat/ChatController.h"
#include "chat/MessageListModel.h"
#include "documents/Citations.h"
#include "documents/DocumentsController.h"
#include "gauges/Gauges.h"
#include "storage/ConversationStore.h"
#include "storage/MessageStore.h"

#include <QDir>
#include <QSignalSpy>
#include <QTest>

namespace {

QVariant lastRow(MessageListModel* messages, int role)
{
    return messages->data(messages->index(messages->rowCount() - 1), role);
}

void waitForReply(ChatController* chat)
{
    QTRY_VERIFY_WITH_TIMEOUT(!chat->generating(), 60000);
}

// A new collection "Town" with `path` in it, indexed; its id.
qint64 indexTown(DocumentsController* docs, const QVariant& path)
{
    const qint64 collection = docs->createCollection(QStringLiteral("Town"));
    QSignalSpy indexed(docs, &DocumentsController::indexed);
    if (collection <= 0 || !docs->addPath(collection, path))
        return 0;
    if (!QTest::qWaitFor([&] { return indexed.count() >= 1 && !docs->indexing(); }, 120000))
        return 0;
    return collection;
}

} // namespace

class TestDocumentsChat : public QObject {
    Q_OBJECT

    QString m_model;
    QTemporaryDir m_docs;
    QString m_pdf;

private slots:
    void initTestCase()
    {
        m_model = QString::fromStdString(testsupport::findModel("all-MiniLM-L6-v2.F16.gguf"));
        if (m_model.isEmpty())
            QSKIP("all-MiniLM-L6-v2.F16.gguf not found: run scripts/setup and scripts/convert-models");
        // Three pages of a PDF and a Markdown file, each with a fact of its own.
        m_pdf = m_docs.filePath(QStringLiteral("harbour.pdf"));
        corpus::writePdf(m_pdf, corpus::townPages());
        corpus::writeMarkdown(m_docs.filePath(QStringLiteral("garden.md")), QStringLiteral("Garden notes"),
                              corpus::gardenSections());
    }

    void aReplyCitesTheDocumentsAndKeepsItsSources()
    {
        TestSession test(TestSession::fastEngine(), false, m_model);
        QVERIFY(test.loadModel());
        DocumentsController* docs = test.session->documents();
        ChatController* chat = test.session->chat();
        MessageListModel* messages = chat->messages();
        QVERIFY(docs->embeddingModelFound());

        const qint64 collection = indexTown(docs, QUrl::fromLocalFile(m_docs.path()));
        QVERIFY(collection > 0);
        QCOMPARE(docs->problems(collection).size(), 0);
        const QVariantMap row = docs->collections().first().toMap();
        QCOMPARE(row.value(QStringLiteral("documents")).toInt(), 2);
        QVERIFY(row.value(QStringLiteral("chunks")).toInt() >= 5);

        // The panel's check box: this conversation searches the collection.
        docs->setUsed(collection, true);
        QCOMPARE(chat->collections(), QList<qint64>{collection});
        QCOMPARE(docs->usedCount(), 1);

        QVERIFY(chat->send(QStringLiteral("What was the name of the lighthouse keeper's cat?")));
        QVERIFY(chat->searching());
        waitForReply(chat);
        QCOMPARE(chat->error(), QString());
        QCOMPARE(lastRow(messages, MessageListModel::StateRole).toInt(), int(MessageListModel::Complete));

        // The fake model quotes each passage with its number and adds one
        // more number: that one is gone from the text.
        const int given = lastRow(messages, MessageListModel::SourcesGivenRole).toInt();
        QVERIFY(given >= 2);
        const QString text = lastRow(messages, MessageListModel::TextRole).toString();
        QVERIFY2(text.contains(QStringLiteral("[1]")), qPrintable(text));
        QVERIFY2(!text.contains(QStringLiteral("[%1]").arg(given + 1)), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Admiral Pepper")));

        // The cited sources name file and page; the PDF's second page is one.
        const QVariantList sources = lastRow(messages, MessageListModel::SourcesRole).toList();
        QCOMPARE(sources.size(), given);
        bool lighthouse = false;
        for (const QVariant& v : sources) {
            const QVariantMap s = v.toMap();
            QVERIFY(QFile::exists(s.value(QStringLiteral("path")).toString()));
            if (s.value(QStringLiteral("path")).toString() == m_pdf && s.value(QStringLiteral("page")).toInt() == 2) {
                lighthouse = true;
                QVERIFY2(s.value(QStringLiteral("label")).toString().startsWith(QStringLiteral("harbour.pdf · p. 2")),
                         qPrintable(s.value(QStringLiteral("label")).toString()));
                QVERIFY(s.value(QStringLiteral("text")).toString().contains(QStringLiteral("Admiral Pepper")));
            }
        }
        QVERIFY(lighthouse);
        QVERIFY(test.session->gauges()->documentTokens() > 0);

        // The viewer finds the passage in the document's text.
        const QVariantMap shown =
            docs->documentText(m_pdf, sources.first().toMap().value(QStringLiteral("text")).toString());
        QVERIFY(shown.value(QStringLiteral("found")).toBool());

        // A relaunch: the conversation still uses the collection, and its
        // reply still lists what it cited.
        const qint64 conversation = chat->conversationId();
        const QString dataDir = test.dataDir;
        test.session.reset();
        AppSession::Options options;
        options.dataDir = dataDir;
        options.engine = std::make_shared<FakeEngine>(TestSession::fastEngine());
        options.scanModels = false;
        options.highlight = false;
        options.embeddingModel = m_model;
        AppSession again(options);
        again.restore();
        QCOMPARE(again.chat()->conversationId(), conversation);
        QCOMPARE(again.chat()->collections(), QList<qint64>{collection});
        QCOMPARE(again.documents()->usedCount(), 1);
        QCOMPARE(lastRow(again.chat()->messages(), MessageListModel::SourcesRole).toList(), sources);
        QCOMPARE(lastRow(again.chat()->messages(), MessageListModel::TextRole).toString(), text);

        // A new conversation starts without documents.
        again.chat()->newConversation();
        QVERIFY(again.chat()->collections().isEmpty());
        QCOMPARE(again.documents()->usedCount(), 0);
    }

    // The sentences of an answer worth a citation, and where the number goes.
    void sentencesAndAttribution()
    {
        using documents::Span;
        const QString answer = QStringLiteral("Yes. The keeper's cat is called Admiral Pepper! It sleeps by the "
                                              "lamp.\n\n```\nprint(\"not prose at all here\")\n```\n"
                                              "灯塔看守人养了一只灰猫。");
        const QList<Span> spans = documents::answerSentences(answer);
        QStringList sentences;
        for (const Span& sp : spans)
            sentences.append(answer.mid(sp.start, sp.end - sp.start));
        // "Yes." is too short, the code is not prose.
        QCOMPARE(sentences,
                 (QStringList{QStringLiteral("The keeper's cat is called Admiral Pepper!"),
                              QStringLiteral("It sleeps by the lamp."), QStringLiteral("灯塔看守人养了一只灰猫。")}));
        const documents::CitedAnswer cited = documents::attributeCitations(answer, spans, {2, 0, 1});
        QCOMPARE(cited.cited, (QList<int>{2, 1}));
        QVERIFY(cited.text.startsWith(QStringLiteral("Yes. The keeper's cat is called Admiral Pepper [2]! It sleeps")));
        QVERIFY(cited.text.endsWith(QStringLiteral("灰猫 [1]。")));
        QVERIFY(cited.text.contains(QStringLiteral("by the lamp.\n")));
    }

    // A model that writes no citation (small ones seldom do): Hearth
    // matches each sentence to the passage it comes from, says so, and the
    // reply ends only then.
    void anUncitedAnswerGetsMatchedCitations()
    {
        FakeEngine::Options plain = TestSession::fastEngine();
        plain.citeSources = false;
        TestSession test(plain, false, m_model);
        QVERIFY(test.loadModel());
        DocumentsController* docs = test.session->documents();
        ChatController* chat = test.session->chat();
        QVERIFY(indexTown(docs, m_docs.path()) > 0);

        QSignalSpy finished(chat, &ChatController::replyFinished);
        QVERIFY(chat->send(QStringLiteral("What was the name of the lighthouse keeper's cat?")));
        waitForReply(chat);
        QCOMPARE(finished.count(), 1);
        MessageListModel* messages = chat->messages();
        const int given = lastRow(messages, MessageListModel::SourcesGivenRole).toInt();
        QVERIFY(given >= 2);
        // Each sentence quotes one passage: it carries that passage's number.
        const QString text = lastRow(messages, MessageListModel::TextRole).toString();
        for (int n = 1; n <= given; ++n)
            QVERIFY2(text.contains(QStringLiteral(" [%1].").arg(n)), qPrintable(text));
        const QVariantList sources = lastRow(messages, MessageListModel::SourcesRole).toList();
        QCOMPARE(sources.size(), given);
        for (const QVariant& v : sources)
            QVERIFY(v.toMap().value(QStringLiteral("attributed")).toBool());
        // Kept: the stored text and sources are the matched ones.
        const QList<ChatMessage> stored = test.session->messageStore().messages(chat->conversationId());
        QCOMPARE(stored.last().text, text);
        QVERIFY(std::all_of(stored.last().sources.begin(), stored.last().sources.end(),
                            [](const MessageSource& m) { return m.cited && m.attributed; }));
    }

    void stopWhileSearchingEndsTheReply()
    {
        TestSession test(TestSession::fastEngine(), false, m_model);
        QVERIFY(test.loadModel());
        DocumentsController* docs = test.session->documents();
        ChatController* chat = test.session->chat();
        const qint64 collection = indexTown(docs, m_pdf);
        QVERIFY(collection > 0);
        docs->setUsed(collection, true);

        QVERIFY(chat->send(QStringLiteral("When does the fish market open?")));
        QVERIFY(chat->searching());
        chat->stop();
        QVERIFY(!chat->generating());
        QCOMPARE(lastRow(chat->messages(), MessageListModel::StateRole).toInt(), int(MessageListModel::Stopped));
        // The search's late answer changes nothing; the next question works.
        QTest::qWait(300);
        QVERIFY(!chat->generating());
        QVERIFY(chat->send(QStringLiteral("When does the fish market open?")));
        waitForReply(chat);
        QVERIFY(lastRow(chat->messages(), MessageListModel::TextRole).toString().contains(QStringLiteral("[1]")));

        // A removed collection: the conversation answers without documents,
        // and a stored conversation that used it searches it no more.
        const qint64 first = chat->conversationId();
        chat->newConversation();
        QVERIFY(chat->send(QStringLiteral("Another chat")));
        waitForReply(chat);
        const qint64 second = chat->conversationId();
        chat->openConversation(first);
        QCOMPARE(chat->collections(), QList<qint64>{collection});
        test.session->conversationStore().setCollections(second, {collection});
        docs->removeCollection(collection);
        QVERIFY(chat->collections().isEmpty());
        QVERIFY(test.session->conversationStore().collections(first).isEmpty());
        QVERIFY(test.session->conversationStore().collections(second).isEmpty());
        QVERIFY(chat->send(QStringLiteral("And on Fridays?")));
        QVERIFY(!chat->searching());
        waitForReply(chat);
        QCOMPARE(lastRow(chat->messages(), MessageListModel::SourcesGivenRole).toInt(), 0);
    }
};

QTEST_MAIN(TestDocumentsChat)
#include "test_documents_chat.moc"

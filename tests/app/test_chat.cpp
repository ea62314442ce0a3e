// The chat controller and its list models, with the fake engine: a reply
// streams into the model in batches (at most ~60 a second), each batch
// changes one row and one role, found by message id; provenance is stored;
// stop, regenerate, edit and resend; conversations listed by date and
// restored. Every list model passes QAbstractItemModelTester.

#include "AppTestSupport.h"
#include "chat/ChatController.h"
#include "conversations/ConversationListModel.h"
#include "engine/FakeMarkdown.h"
#include "gauges/Gauges.h"
#include "settings/SettingsStore.h"
#include "storage/MessageStore.h"
#include "ui/Format.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QSignalSpy>

class TestChat : public QObject {
    Q_OBJECT

    static void waitForReply(ChatController* chat) { QTRY_VERIFY_WITH_TIMEOUT(!chat->generating(), 20000); }

private slots:
    // The GPU memory gauge shows only while layers are on a GPU: the model's
    // bytes there, of the GPU's memory, and a fraction for its meter.
    void gpuMemoryGauge()
    {
        Gauges g;
        QSignalSpy changed(&g, &Gauges::memoryChanged);
        MemoryFigures m;
        m.weightsMapped = m.weightsResident = 100 << 20;
        g.setMemory(1 << 30, m);
        QVERIFY(!g.onGpu());
        QCOMPARE(g.gpuMemoryFraction(), 0.0);
        QCOMPARE(g.gpuMemoryText(), QStringLiteral("–"));
        m.gpuUsed = qint64(3) << 30;
        m.gpuTotal = qint64(12) << 30;
        g.setMemory(1 << 30, m);
        QCOMPARE(changed.count(), 2); // the GPU figures alone are a change
        QVERIFY(g.onGpu());
        QCOMPARE(g.gpuMemoryFraction(), 0.25);
        QCOMPARE(g.gpuMemoryText(),
                 QStringLiteral("%1 of %2").arg(Format::bytes(m.gpuUsed), Format::bytes(m.gpuTotal)));
        g.setMemory(1 << 30, m);
        QCOMPARE(changed.count(), 2); // the same figures again: no signal
        m.gpuUsed = m.gpuTotal = 0;   // reloaded on the CPU
        g.setMemory(1 << 30, m);
        QVERIFY(!g.onGpu());
    }

    void replyStreamsOneRowOneRole()
    {
        FakeEngine::Options fast = TestSession::fastEngine();
        fast.tokensPerSecond = 1000; // faster than the view's 60 Hz
        TestSession test(fast);
        QVERIFY(test.loadModel());
        ChatController* chat = test.session->chat();
        MessageListModel* messages = chat->messages();
        QAbstractItemModelTester tester(messages, QAbstractItemModelTester::FailureReportingMode::QtTest);

        QVERIFY(!chat->send(QStringLiteral("   "))); // nothing to send
        QSignalSpy changed(messages, &QAbstractItemModel::dataChanged);
        QSignalSpy shown(chat, &ChatController::textShown);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(chat->send(QStringLiteral("Explain something with code")));
        QVERIFY(chat->generating());
        QVERIFY(!chat->canSend());
        QCOMPARE(messages->rowCount(), 2);
        waitForReply(chat);
        const double seconds = clock.elapsed() / 1000.0;

        int textBatches = 0;
        for (const QList<QVariant>& args : std::as_const(changed)) {
            const QModelIndex from = args[0].toModelIndex(), to = args[1].toModelIndex();
            const auto roles = args[2].value<QList<int>>();
            if (roles == QList<int>{MessageListModel::TextRole}) {
                QCOMPARE(from, to); // one row
                QCOMPARE(from.row(), 1);
                ++textBatches;
            }
        }
        QCOMPARE(textBatches, int(shown.size()));
        const GenerationStats& stats =
            messages->meta(messages->data(messages->index(1), MessageListModel::IdRole).toLongLong())->provenance.stats;
        QVERIFY2(stats.generatedTokens > 2 * textBatches,
                 qPrintable(QStringLiteral("%1 tokens in %2 batches").arg(stats.generatedTokens).arg(textBatches)));
        QVERIFY2(textBatches <= seconds * 62 + 2,
                 qPrintable(QStringLiteral("%1 batches in %2 s").arg(textBatches).arg(seconds)));

        // What the view shows is what the database holds.
        const qint64 id = messages->data(messages->index(1), MessageListModel::IdRole).toLongLong();
        const ChatMessage stored = *test.session->messageStore().message(id);
        QCOMPARE(stored.text, messages->textOf(id));
        QCOMPARE(stored.state, MessageState::Complete);
        QCOMPARE(stored.provenance.quant, QStringLiteral("F32"));
        QCOMPARE(stored.provenance.engine, QStringLiteral("fake"));
        QCOMPARE(stored.provenance.stats.generatedTokens, stats.generatedTokens);
        QVERIFY(stored.provenance.sampler.seed > 0);
        QTRY_VERIFY(!test.session->messageStore().message(id)->provenance.modelSha256.isEmpty());
        QVERIFY(messages->data(messages->index(1), MessageListModel::DetailsRole)
                    .toString()
                    .contains(QStringLiteral("seed")));
        QVERIFY(messages->data(messages->index(1), MessageListModel::ProvenanceRole)
                    .toString()
                    .contains(QStringLiteral("SHA-256")));
        QVERIFY(test.session->gauges()->tokensPerSecond() > 0);
        QVERIFY(!test.session->gauges()->generating());
    }

    void stopRegenerateEdit()
    {
        FakeEngine::Options slow = TestSession::fastEngine();
        slow.tokensPerSecond = 150;
        TestSession test(slow);
        QVERIFY(test.loadModel());
        ChatController* chat = test.session->chat();
        MessageListModel* messages = chat->messages();
        QAbstractItemModelTester tester(messages, QAbstractItemModelTester::FailureReportingMode::QtTest);

        QVERIFY(chat->send(QStringLiteral("first")));
        QTRY_VERIFY(messages->textOf(messages->data(messages->index(1), MessageListModel::IdRole).toLongLong()).size() >
                    10);
        chat->stop();
        waitForReply(chat);
        QCOMPARE(messages->data(messages->index(1), MessageListModel::StateRole).value<MessageListModel::State>(),
                 MessageListModel::Stopped);

        const qint64 oldReply = messages->data(messages->index(1), MessageListModel::IdRole).toLongLong();
        const QString oldText = messages->textOf(oldReply);
        chat->regenerate();
        QVERIFY(chat->generating());
        QCOMPARE(messages->rowCount(), 2);
        QVERIFY2(test.session->messageStore().message(oldReply).has_value(), "the old reply is kept");
        QCOMPARE(messages->data(messages->index(1), MessageListModel::AlternativeRole).toInt(), 1);
        QCOMPARE(messages->data(messages->index(1), MessageListModel::AlternativesRole).toInt(), 2);
        waitForReply(chat);
        const qint64 newReply = messages->data(messages->index(1), MessageListModel::IdRole).toLongLong();

        // ‹ 1/2 ›: back to the old reply, and forward again.
        chat->showAlternative(newReply, -1);
        QCOMPARE(messages->data(messages->index(1), MessageListModel::IdRole).toLongLong(), oldReply);
        QCOMPARE(messages->textOf(oldReply), oldText);
        QCOMPARE(messages->data(messages->index(1), MessageListModel::AlternativeRole).toInt(), 0);
        chat->showAlternative(oldReply, -1); // nothing before the first
        QCOMPARE(messages->data(messages->index(1), MessageListModel::IdRole).toLongLong(), oldReply);
        chat->showAlternative(oldReply, 1);
        QCOMPARE(messages->data(messages->index(1), MessageListModel::IdRole).toLongLong(), newReply);

        // Edit and resend: a new branch; the first one is still there.
        const qint64 user = messages->data(messages->index(0), MessageListModel::IdRole).toLongLong();
        chat->editAndResend(user, QStringLiteral("second, edited"));
        QVERIFY(chat->generating());
        QCOMPARE(messages->rowCount(), 2);
        QCOMPARE(messages->data(messages->index(0), MessageListModel::TextRole).toString(),
                 QStringLiteral("second, edited"));
        QCOMPARE(messages->data(messages->index(0), MessageListModel::AlternativesRole).toInt(), 2);
        waitForReply(chat);
        QCOMPARE(test.session->messageStore().messages(chat->conversationId()).size(), 2);
        const qint64 edited = messages->data(messages->index(0), MessageListModel::IdRole).toLongLong();
        chat->showAlternative(edited, -1);
        QCOMPARE(messages->rowCount(), 2);
        QCOMPARE(messages->data(messages->index(0), MessageListModel::TextRole).toString(), QStringLiteral("first"));
        QCOMPARE(messages->data(messages->index(1), MessageListModel::IdRole).toLongLong(), newReply);
        QCOMPARE(messages->data(messages->index(1), MessageListModel::AlternativesRole).toInt(), 2);
        // The conversation reopens as it was left.
        const qint64 conversation = chat->conversationId();
        chat->newConversation();
        chat->openConversation(conversation);
        QCOMPARE(messages->data(messages->index(0), MessageListModel::TextRole).toString(), QStringLiteral("first"));
        QCOMPARE(messages->data(messages->index(1), MessageListModel::IdRole).toLongLong(), newReply);
    }

    void conversationsAreListedAndRestored()
    {
        TestSession test;
        QVERIFY(test.loadModel());
        ChatController* chat = test.session->chat();
        ConversationListModel* list = test.session->conversations();
        QAbstractItemModelTester tester(list, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(chat->send(QStringLiteral("About otters")));
        waitForReply(chat);
        const qint64 first = chat->conversationId();
        chat->newConversation();
        QCOMPARE(chat->messages()->rowCount(), 0);
        QVERIFY(chat->send(QStringLiteral("About beavers")));
        waitForReply(chat);
        QCOMPARE(list->rowCount(), 2);
        QCOMPARE(list->data(list->index(0), ConversationListModel::TitleRole).toString(),
                 QStringLiteral("About beavers"));
        QCOMPARE(list->data(list->index(0), ConversationListModel::SectionRole).toString(), QStringLiteral("Today"));
        QVERIFY(list->data(list->index(0), ConversationListModel::CurrentRole).toBool());
        list->rename(first, QStringLiteral("  Otters  "));
        QTRY_COMPARE(list->data(list->index(1), ConversationListModel::TitleRole).toString(), QStringLiteral("Otters"));
        chat->openConversation(first);
        QCOMPARE(chat->messages()->rowCount(), 2);

        // Date groups.
        const QDate today(2025, 3, 20);
        QCOMPARE(ConversationListModel::sectionFor(QDateTime(today, QTime(9, 0)), today), QStringLiteral("Today"));
        QCOMPARE(ConversationListModel::sectionFor(QDateTime(today.addDays(-1), QTime(23, 0)), today),
                 QStringLiteral("Yesterday"));
        QCOMPARE(ConversationListModel::sectionFor(QDateTime(today.addDays(-5), {}), today),
                 QStringLiteral("Previous 7 days"));
        QCOMPARE(ConversationListModel::sectionFor(QDateTime(today.addDays(-20), {}), today),
                 QStringLiteral("Previous 30 days"));
        QVERIFY(ConversationListModel::sectionFor(QDateTime(today.addDays(-90), {}), today)
                    .contains(QStringLiteral("2024")));

        // A new session on the same data restores the open conversation and model.
        const QString dataDir = test.dataDir;
        AppSession::Options options;
        options.dataDir = dataDir;
        options.engine = std::make_shared<FakeEngine>(TestSession::fastEngine());
        options.scanModels = false;
        options.highlight = false;
        test.session.reset();
        AppSession again(options);
        again.restore();
        QCOMPARE(again.chat()->conversationId(), first);
        QCOMPARE(again.chat()->messages()->rowCount(), 2);
        QTRY_VERIFY(again.loader()->loaded());
    }

    void blocksModelPassesTheTester()
    {
        const RenderStyle style = RenderStyle::light();
        MessageBlocksModel blocks(nullptr, &style);
        QAbstractItemModelTester tester(&blocks, QAbstractItemModelTester::FailureReportingMode::QtTest);
        int changes = 0;
        const auto connection = connect(
            &blocks, &QAbstractItemModel::dataChanged, this, [&](const QModelIndex& from, const QModelIndex& to) {
                ++changes;
                QCOMPARE(from, to);                          // one block
                QCOMPARE(from.row(), blocks.rowCount() - 1); // the tail, never an earlier one
            });
        const QStringList pieces = FakeMarkdown::pieces(FakeMarkdown::reply(QStringLiteral("q"), 3, 600));
        for (const QString& p : pieces)
            blocks.append(p);
        QVERIFY(blocks.rowCount() > 10);
        QVERIFY(changes > int(pieces.size()) / 2);
        disconnect(connection);
        QCOMPARE(blocks.text(), pieces.join(QString()));
        blocks.restyle();
        blocks.setText(QStringLiteral("# Done"));
        QCOMPARE(blocks.rowCount(), 1);
        QCOMPARE(blocks.data(blocks.index(0), MessageBlocksModel::KindRole).value<MessageBlocksModel::Kind>(),
                 MessageBlocksModel::Kind::Heading);
    }
};

QTEST_MAIN(TestChat)
#include "test_chat.moc"

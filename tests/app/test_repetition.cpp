// RepetitionGuard: a reply stuck in a loop is caught (phrases, sentences,
// a single character, the unit split across streamed pieces), ordinary
// text, Markdown with code and tables, and blank runs are not.

#include "chat/RepetitionGuard.h"
#include "engine/FakeMarkdown.h"

#include <QTest>

#include <algorithm>

class TestRepetition : public QObject {
    Q_OBJECT

private slots:
    void loopsAreCaught_data()
    {
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<int>("times");
        QTest::newRow("sentence") << QStringLiteral("2+2 is 4. ") << QStringLiteral("I hope this helps! ") << 30;
        QTest::newRow("word") << QString() << QStringLiteral("the ") << 150;
        QTest::newRow("char") << QStringLiteral("Answer: ") << QStringLiteral("!") << 500;
        QTest::newRow("long unit") << QStringLiteral("Once upon a time. ")
                                   << QStringLiteral("And then the cat went back to the garden, where it sat under "
                                                     "the old apple tree and looked at the birds for a while. ")
                                   << 8;
        QTest::newRow("chinese") << QStringLiteral("答案是四。") << QStringLiteral("希望这对你有帮助！") << 60;
    }

    void loopsAreCaught()
    {
        QFETCH(QString, prefix);
        QFETCH(QString, unit);
        QFETCH(int, times);
        QString text = prefix;
        for (int i = 0; i < times; ++i)
            text += unit;
        const QString found = RepetitionGuard::loopingUnit(text);
        QVERIFY2(!found.isEmpty(), qPrintable(text.left(80)));
        QCOMPARE(found.size(), unit.size()); // the unit itself, maybe rotated

        // Streamed in pieces of a few characters, as tokens arrive.
        RepetitionGuard guard;
        bool caught = false;
        int fed = 0;
        for (qsizetype i = 0; i < text.size() && !caught; i += 3) {
            caught = guard.feed(text.mid(i, 3));
            fed = int(i) + 3;
        }
        QVERIFY(caught);
        // Soon after the loop is long enough, not at the end of max tokens.
        const int needed = int(prefix.size()) + std::max<int>(RepetitionGuard::kMinCoverage,
                                                              RepetitionGuard::kMinRepeats * int(unit.size()));
        QVERIFY2(fed <= needed + RepetitionGuard::kCheckEvery + int(unit.size()) + 3,
                 qPrintable(QStringLiteral("caught after %1 characters, needed %2").arg(fed).arg(needed)));
        QVERIFY(guard.feed(QStringLiteral("more"))); // stays caught
        guard.reset();
        QVERIFY(!guard.feed(QStringLiteral("fresh start")));
        QVERIFY(guard.unit().isEmpty());
    }

    // A sampled loop: the same lines over and over with other numbers in
    // them, never exactly periodic (as Gemma 3 270M, a base model, answers
    // "What is 2+2?" in a chat template).
    void nearRepeatsAreCaught()
    {
        RepetitionGuard guard;
        QString text = QStringLiteral("Sure.\n");
        bool caught = false;
        int lines = 0;
        for (int i = 0; i < 40 && !caught; ++i) {
            QString block = QStringLiteral("What is %1+%2? Tell me.\n").arg(i % 11).arg((i * 7) % 10);
            block += i % 2 ? QStringLiteral("You have an understanding of the topic in question.\n")
                           : QStringLiteral("You are a helpful assistant.\n");
            block += QStringLiteral("You will be asked about the topic for class discussion.\n\n");
            for (qsizetype at = 0; at < block.size() && !caught; at += 4)
                caught = guard.feed(block.mid(at, 4));
            lines += 3;
            text += block;
        }
        QVERIFY(caught);
        QVERIFY2(lines <= RepetitionGuard::kLineWindow + 3, qPrintable(QString::number(lines)));
        QVERIFY(RepetitionGuard::loopingUnit(text).isEmpty()); // not exact: the line rule caught it
        QVERIFY(!guard.unit().isEmpty());
    }

    void ordinaryTextIsNot()
    {
        // Markdown replies with headings, lists, code and tables, as the fake
        // engine writes them, of every length up to 3,000 tokens.
        for (quint32 seed = 1; seed <= 40; ++seed) {
            const QString reply = FakeMarkdown::reply(QStringLiteral("tell me"), seed, int(seed) * 75);
            RepetitionGuard guard;
            bool caught = false;
            for (const QString& piece : FakeMarkdown::pieces(reply))
                caught = caught || guard.feed(piece);
            QVERIFY2(!caught, qPrintable(QStringLiteral("seed %1: unit \"%2\"").arg(seed).arg(guard.unit())));
        }
        // Repeated lines, but short of a loop (a list, a code block).
        const QStringList fruit = {QStringLiteral("apples"),   QStringLiteral("pears"), QStringLiteral("plums"),
                                   QStringLiteral("cherries"), QStringLiteral("figs"),  QStringLiteral("dates"),
                                   QStringLiteral("grapes")};
        QString list;
        for (int i = 1; i <= 30; ++i)
            list += QStringLiteral("- %1 boxes of %2\n").arg(i).arg(fruit[i % fruit.size()]);
        QVERIFY(RepetitionGuard::loopingUnit(list).isEmpty());
        RepetitionGuard listGuard;
        QVERIFY(!listGuard.feed(list));
        QString code = QStringLiteral("```\n");
        for (int i = 0; i < 12; ++i)
            code += QStringLiteral("    total += values[i];\n");
        code += QStringLiteral("```\n");
        QVERIFY(RepetitionGuard::loopingUnit(QStringLiteral("Here is the loop body:\n") + code).isEmpty());
        // Blank runs (indentation, padding) are not a runaway reply.
        QVERIFY(RepetitionGuard::loopingUnit(QStringLiteral("x") + QString(900, QLatin1Char(' '))).isEmpty());
        QVERIFY(RepetitionGuard::loopingUnit(QString()).isEmpty());
    }
};

QTEST_MAIN(TestRepetition)
#include "test_repetition.moc"

// The incremental Markdown block parser and the inline renderer: block
// kinds, chunked code fences, and the property the chat view relies on —
// appending text in any split gives the same blocks as parsing it whole,
// and an append never touches rows before the tail.

#include "engine/FakeMarkdown.h"
#include "markdown/BlockHtml.h"
#include "markdown/InlineMarkdown.h"
#include "markdown/MarkdownBlocks.h"

#include <QRandomGenerator>
#include <QTest>

using Kind = MarkdownBlock::Kind;

class TestMarkdown : public QObject {
    Q_OBJECT

    static QList<MarkdownBlock> parse(const QString& text)
    {
        MarkdownBlocks blocks;
        blocks.append(text);
        return blocks.blocks();
    }

    static bool sameBlocks(const QList<MarkdownBlock>& a, const QList<MarkdownBlock>& b)
    {
        if (a.size() != b.size())
            return false;
        for (qsizetype i = 0; i < a.size(); ++i)
            if (!a[i].sameContent(b[i]))
                return false;
        return true;
    }

private slots:
    void blockKinds()
    {
        const auto b =
            parse(QStringLiteral("# Title\n\nSome *text*\nmore text\n\n- one\n- two\n  - nested\n"
                                 "3. three\n\n> quoted\n> still\n\n---\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n"));
        QCOMPARE(b.size(), 9);
        QCOMPARE(b[0].kind, Kind::Heading);
        QCOMPARE(b[0].level, 1);
        QCOMPARE(b[0].text, QStringLiteral("Title"));
        QCOMPARE(b[1].kind, Kind::Paragraph);
        QCOMPARE(b[1].text, QStringLiteral("Some *text*\nmore text"));
        QCOMPARE(b[2].kind, Kind::ListItem);
        QCOMPARE(b[2].marker, QStringLiteral("-"));
        QCOMPARE(b[4].level, 1);
        QCOMPARE(b[4].text, QStringLiteral("nested"));
        QCOMPARE(b[5].marker, QStringLiteral("3."));
        QCOMPARE(BlockHtml::displayMarker(b[5]), QStringLiteral("3."));
        QCOMPARE(b[6].kind, Kind::Quote);
        QCOMPARE(b[6].text, QStringLiteral("quoted\nstill"));
        QCOMPARE(b[7].kind, Kind::Rule);
        QCOMPARE(b[8].kind, Kind::Table);
        const QString table = BlockHtml::render(b[8], RenderStyle::light());
        QVERIFY(table.contains(QStringLiteral("<th align=\"left\">a</th>")));
        QVERIFY(table.contains(QStringLiteral("<td align=\"right\">2</td>")));
    }

    void codeFences()
    {
        const auto b =
            parse(QStringLiteral("```Python\nx = 1  # one\n\n# not a heading\n```\nafter\n~~~\nplain\n~~~\n"));
        QCOMPARE(b.size(), 3);
        QCOMPARE(b[0].kind, Kind::Code);
        QCOMPARE(b[0].language, QStringLiteral("python"));
        QCOMPARE(b[0].text, QStringLiteral("x = 1  # one\n\n# not a heading"));
        QVERIFY(b[0].closed);
        QCOMPARE(b[0].fence, 0);
        QCOMPARE(b[1].kind, Kind::Paragraph);
        QCOMPARE(b[2].fence, 1);
        QCOMPARE(b[2].text, QStringLiteral("plain"));
    }

    void longFenceIsChunked()
    {
        QString code;
        for (int i = 0; i < 45; ++i)
            code += QStringLiteral("line %1\n").arg(i);
        MarkdownBlocks blocks;
        blocks.append(QStringLiteral("```c\n") + code + QStringLiteral("```\n"));
        const auto& b = blocks.blocks();
        QCOMPARE(b.size(), 3); // 20 + 20 + 5 lines
        QCOMPARE(b[0].chunk, 0);
        QVERIFY(!b[0].lastChunk);
        QCOMPARE(b[2].chunk, 2);
        QVERIFY(b[2].lastChunk);
        QVERIFY(b[2].closed);
        for (const MarkdownBlock& chunk : b)
            QVERIFY(chunk.text.count(QLatin1Char('\n')) < MarkdownBlocks::kCodeChunkLines);
        QCOMPARE(blocks.fenceCode(0) + QLatin1Char('\n'), code);
    }

    void partialLines()
    {
        MarkdownBlocks blocks;
        blocks.append(QStringLiteral("```py\nprint(1)\n``"));
        QCOMPARE(blocks.blocks().size(), 1);
        QCOMPARE(blocks.blocks()[0].text, QStringLiteral("print(1)")); // "``" may be the closing fence
        blocks.append(QStringLiteral("`\n"));
        QVERIFY(blocks.blocks()[0].closed);
        blocks.append(QStringLiteral("- it"));
        QCOMPARE(blocks.blocks().last().kind, Kind::ListItem);
        QCOMPARE(blocks.blocks().last().text, QStringLiteral("it"));
    }

    // Appending in random pieces gives exactly what parsing at once gives,
    // and every change starts at or after the block that was last before.
    void incrementalEqualsWhole_data()
    {
        QTest::addColumn<quint64>("seed");
        for (quint64 seed : {1ull, 2ull, 3ull, 17ull, 99ull, 1234ull})
            QTest::addRow("seed %llu", seed) << seed;
    }
    void incrementalEqualsWhole()
    {
        QFETCH(quint64, seed);
        const QString text = FakeMarkdown::reply(QStringLiteral("show me code"), seed, 800);
        QRandomGenerator rng{quint32(seed)};
        MarkdownBlocks blocks;
        qsizetype pos = 0;
        while (pos < text.size()) {
            const qsizetype n = std::min<qsizetype>(text.size() - pos, 1 + rng.bounded(12));
            const int tailBefore = std::max(0, int(blocks.blocks().size()) - 1);
            const QList<MarkdownBlock> before = blocks.blocks();
            const MarkdownBlocks::Change c = blocks.append(text.mid(pos, n));
            QVERIFY2(c.first >= tailBefore, "an append changed a block before the tail");
            for (int i = 0; i < c.first; ++i)
                QVERIFY(before[i].sameContent(blocks.blocks()[i]));
            QCOMPARE(int(blocks.blocks().size()), int(before.size()) - c.removed + c.inserted);
            pos += n;
        }
        QVERIFY(sameBlocks(blocks.blocks(), parse(text)));
    }

    void inlineMarkdown()
    {
        const RenderStyle s = RenderStyle::light();
        QCOMPARE(InlineMarkdown::toHtml(QStringLiteral("a **b** *c* ~~d~~"), s),
                 QStringLiteral("a <b>b</b> <i>c</i> <s>d</s>"));
        QCOMPARE(InlineMarkdown::toHtml(QStringLiteral("***both***"), s), QStringLiteral("<i><b>both</b></i>"));
        // As in CommonMark: _ does not emphasize inside words, * does.
        QCOMPARE(InlineMarkdown::toHtml(QStringLiteral("snake_case_name and 2*3*4"), s),
                 QStringLiteral("snake_case_name and 2<i>3</i>4"));
        QVERIFY(InlineMarkdown::toHtml(QStringLiteral("`a <b> *c*`"), s)
                    .contains(QStringLiteral(">a &lt;b&gt; *c*</code>")));
        QCOMPARE(InlineMarkdown::toHtml(QStringLiteral("<script>x</script> & \\*lit\\*"), s),
                 QStringLiteral("&lt;script&gt;x&lt;/script&gt; &amp; *lit*"));
        QVERIFY(InlineMarkdown::toHtml(QStringLiteral("[docs](https://example.org/a?b=1)"), s)
                    .startsWith(QStringLiteral("<a href=\"https://example.org/a?b=1\"")));
        QCOMPARE(InlineMarkdown::toHtml(QStringLiteral("[x](javascript:alert(1))"), s), QStringLiteral("x)"));
        QCOMPARE(InlineMarkdown::toHtml(QStringLiteral("unclosed **bold"), s), QStringLiteral("unclosed **bold"));
        QCOMPARE(InlineMarkdown::toHtml(QStringLiteral("line  \nbreak\nsoft"), s),
                 QStringLiteral("line  <br/>break soft"));
    }

    void fakeRepliesSplitIntoPieces()
    {
        const QString text = FakeMarkdown::reply(QStringLiteral("你好，请介绍一下"), 7);
        QVERIFY(text.contains(QChar(0x3002)) || text.contains(QStringLiteral("。"))); // a Chinese reply
        const QStringList pieces = FakeMarkdown::pieces(text);
        QCOMPARE(pieces.join(QString()), text);
        QCOMPARE(FakeMarkdown::countTokens(text), int(pieces.size()));
        for (const QString& p : pieces)
            QVERIFY(!p.isEmpty() && !p.back().isHighSurrogate());
        QVERIFY(FakeMarkdown::countTokens(FakeMarkdown::reply(QStringLiteral("x"), 1, 2000)) >= 2000);
    }
};

QTEST_GUILESS_MAIN(TestMarkdown)
#include "test_markdown.moc"

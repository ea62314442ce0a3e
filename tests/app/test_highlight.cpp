// Code highlighting: Prism in QJSEngine gives Node's output byte for byte
// (thanks to the RegExp `source` shim), spans and their HTML, the
// highlighter thread, and highlighted code in a streamed message.

#include "chat/MessageBlocksModel.h"
#include "highlight/CodeHtml.h"
#include "highlight/HighlightService.h"
#include "highlight/PrismHighlighter.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

class TestHighlight : public QObject {
    Q_OBJECT

    static QString read(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }
    static QString dataDir()
    {
        return QString::fromStdString(testsupport::sourceDir()) + QStringLiteral("/tests/data/highlight");
    }

    std::unique_ptr<PrismHighlighter> m_prism;

private slots:
    void initTestCase()
    {
        m_prism = std::make_unique<PrismHighlighter>();
        if (!m_prism->isAvailable())
            QSKIP("prismjs is not bundled: run scripts/setup (npm ci in third_party/npm) and rebuild");
    }

    void sourceShimMatchesTheSpecification()
    {
        // What Node prints for each; Qt 6.4 alone gets the first wrong ("a\\/b").
        QJSEngine probe;
        QFile shim(QStringLiteral(":/hearth/js/regexp-source-shim.js"));
        QVERIFY(shim.open(QIODevice::ReadOnly));
        probe.evaluate(QString::fromUtf8(shim.readAll()));
        const QString got = probe
                                .evaluate(QStringLiteral("[/a\\/b/.source, new RegExp('a/b').source, /[/]/.source,"
                                                         " new RegExp('').source, /\\\\\\//.source].join(' ')"))
                                .toString();
        QCOMPARE(got, QStringLiteral("a\\/b a\\/b [/] (?:) \\\\\\/"));
    }

    // Why the shim exists: on an engine with the bug, Prism without it
    // turns a C block comment into operators.
    void withoutTheShimCommentsBreak()
    {
        QJSEngine raw;
        if (raw.evaluate(QStringLiteral("/a\\/b/.source")).toString() != QStringLiteral("a\\\\/b"))
            QSKIP("this Qt gets RegExp.prototype.source right; the shim stays inactive");
        for (const char* name : {"core", "clike", "c"}) {
            QFile f(QStringLiteral(":/hearth/prism/prism-%1.min.js").arg(QLatin1String(name)));
            QVERIFY(f.open(QIODevice::ReadOnly));
            raw.evaluate(QString::fromUtf8(f.readAll()));
        }
        raw.globalObject().setProperty(QStringLiteral("code"), QStringLiteral("/* a/b */ int x;"));
        const QString html = raw.evaluate(QStringLiteral("Prism.highlight(code, Prism.languages.c, 'c')")).toString();
        QVERIFY2(!html.startsWith(QStringLiteral("<span class=\"token comment\">")), qPrintable(html));
        QVERIFY(m_prism->highlightHtml(QStringLiteral("/* a/b */ int x;"), QStringLiteral("c"))
                    .startsWith(QStringLiteral("<span class=\"token comment\">/* a/b */</span>")));
    }

    void outputIsNodesByteForByte()
    {
        const QDir samples(dataDir() + QStringLiteral("/samples"));
        const QStringList files = samples.entryList(QDir::Files, QDir::Name);
        QVERIFY(files.size() >= 10);
        for (const QString& file : files) {
            const QString name = file.chopped(4); // NAME.LANG.txt
            const QString language = name.section(QLatin1Char('.'), -1);
            const QString expected = read(dataDir() + QStringLiteral("/golden/") + name + QStringLiteral(".html"));
            QVERIFY2(!expected.isEmpty(), qPrintable(file + ": no golden file (scripts/refs/prism_golden.js)"));
            QCOMPARE(m_prism->highlightHtml(read(samples.filePath(file)), language), expected);
        }
    }

    void commentsWithSlashesAreComments()
    {
        const QString code = read(dataDir() + QStringLiteral("/samples/comments.c.txt"));
        const QList<HighlightSpan> spans = m_prism->highlight(code, QStringLiteral("c"));
        QVERIFY(!spans.isEmpty());
        QCOMPARE(spans.first().start, 0);
        QCOMPARE(code.mid(spans.first().start, spans.first().length),
                 QStringLiteral("/* a block comment with a/b and // inside */"));
        QCOMPARE(spans.first().kinds, QStringLiteral("comment"));
        int end = 0;
        for (const HighlightSpan& s : spans) { // sorted, not overlapping
            QVERIFY(s.start >= end);
            end = s.start + s.length;
        }
        QVERIFY(end <= code.size());
    }

    void aliasesResolve()
    {
        const QString py = QStringLiteral("def f(): return 1  # one");
        QCOMPARE(m_prism->highlight(py, QStringLiteral("py")), m_prism->highlight(py, QStringLiteral("python")));
        QVERIFY(!m_prism->highlight(py, QStringLiteral("Python")).isEmpty());
        QCOMPARE(m_prism->resolve(QStringLiteral("C++")), QStringLiteral("cpp"));
        QCOMPARE(m_prism->resolve(QStringLiteral("rs")), QStringLiteral("rust"));
        QVERIFY(!m_prism->resolve(QStringLiteral("sh")).isEmpty());
        QVERIFY(m_prism->resolve(QStringLiteral("no-such-language")).isEmpty());
        QVERIFY(m_prism->highlight(QStringLiteral("x"), QStringLiteral("no-such-language")).isEmpty());
    }

    // Rendering a fence in chunks gives the same text and colours as whole.
    void chunkedHtmlMatchesWhole()
    {
        const QString code = read(dataDir() + QStringLiteral("/samples/regex.javascript.txt"));
        const QList<HighlightSpan> spans = m_prism->highlight(code, QStringLiteral("javascript"));
        const RenderStyle style = RenderStyle::dark();
        const qsizetype cut = code.indexOf(QLatin1Char('\n'), code.size() / 2);
        const QString whole = CodeHtml::render(code, 0, spans, style);
        const QString a = CodeHtml::render(QStringView(code).left(cut), 0, spans, style);
        const QString b = CodeHtml::render(QStringView(code).mid(cut + 1), int(cut + 1), spans, style);
        QVERIFY(whole.contains(CodeHtml::colorFor(QStringLiteral("comment"), style).name()));
        auto plain = [](QString html) { return html.remove(QRegularExpression(QStringLiteral("<[^>]*>"))); };
        QCOMPARE(plain(a) + QLatin1Char('\n') + plain(b), plain(whole));
    }

    void serviceAnswersOnTheGuiThread()
    {
        HighlightService service;
        QList<HighlightSpan> got;
        bool called = false;
        QObject receiver;
        service.request(QStringLiteral("int x = 1; // one"), QStringLiteral("c"), &receiver,
                        [&](const QList<HighlightSpan>& spans) {
                            QCOMPARE(QThread::currentThread(), qApp->thread());
                            got = spans;
                            called = true;
                        });
        auto* gone = new QObject;
        bool goneCalled = false;
        service.request(QStringLiteral("x"), QStringLiteral("c"), gone, [&](const auto&) { goneCalled = true; });
        delete gone;
        QTRY_VERIFY_WITH_TIMEOUT(called, 10000);
        QTRY_COMPARE(service.pending(), 0);
        QVERIFY(!goneCalled);
        QVERIFY(std::any_of(got.cbegin(), got.cend(), [](const HighlightSpan& s) { return s.kinds == "keyword"; }));
    }

    void streamedFenceGetsColours()
    {
        HighlightService service;
        const RenderStyle style = RenderStyle::light();
        MessageBlocksModel blocks(&service, &style);
        const QStringList parts{QStringLiteral("Here:\n\n```python\n"), QStringLiteral("def f():\n"),
                                QStringLiteral("    return 1  # one\n"), QStringLiteral("```\n")};
        for (const QString& p : parts)
            blocks.append(p);
        QSignalSpy idle(&service, &HighlightService::idle);
        QTRY_COMPARE_WITH_TIMEOUT(service.pending(), 0, 10000);
        const QString html = blocks.data(blocks.index(1), MessageBlocksModel::HtmlRole).toString();
        QVERIFY2(html.contains(CodeHtml::colorFor(QStringLiteral("keyword"), style).name()), qPrintable(html));
        QVERIFY(html.contains(CodeHtml::colorFor(QStringLiteral("comment"), style).name()));
        QCOMPARE(blocks.fenceCode(0), QStringLiteral("def f():\n    return 1  # one"));
    }
};

QTEST_MAIN(TestHighlight)
#include "test_highlight.moc"

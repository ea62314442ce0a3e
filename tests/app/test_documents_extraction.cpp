// Documents without a model: extraction of every format (PDF lines,
// paragraphs, headings and page labels; DOCX/ODT pages and headings;
// Markdown and HTML heading paths), broken inputs that must end as a listed
// error and never a crash (truncated and encrypted PDFs, a scanned PDF, a zip
// bomb, invalid UTF-8, a 0-byte file, a binary file, a symlink loop),
// chunking in tokens, citations, the int8 vector scan and the FTS query.

#include "DocumentCorpus.h"

#include "documents/Chunker.h"
#include "documents/Citations.h"
#include "documents/DocumentStore.h"
#include "documents/Extraction.h"
#include "documents/Indexer.h"
#include "documents/VectorIndex.h"

#include <QDir>
#include <QFile>
#include <QPainter>
#include <QPdfWriter>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace documents;

namespace {

// A PDF written by hand, with a correct cross-reference table: pages of
// Helvetica text, optional /PageLabels and an optional /Encrypt dictionary.
QByteArray handPdf(const QStringList& pageTexts, const QByteArray& pageLabels, bool encrypted)
{
    QList<QByteArray> objs;
    const int n = int(pageTexts.size());
    QByteArray kids;
    for (int i = 0; i < n; ++i)
        kids += QByteArray::number(3 + 2 * i) + " 0 R ";
    const int font = 3 + 2 * n, encrypt = font + 1;
    objs << "<< /Type /Catalog /Pages 2 0 R " + (pageLabels.isEmpty() ? QByteArray() : "/PageLabels " + pageLabels) +
                " >>";
    objs << "<< /Type /Pages /Kids [" + kids + "] /Count " + QByteArray::number(n) + " >>";
    for (int i = 0; i < n; ++i) {
        const QByteArray stream = "BT /F1 12 Tf 72 720 Td (" + pageTexts[i].toLatin1() + ") Tj ET";
        objs << "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents " + QByteArray::number(4 + 2 * i) +
                    " 0 R /Resources << /Font << /F1 " + QByteArray::number(font) + " 0 R >> >> >>";
        objs << "<< /Length " + QByteArray::number(stream.size()) + " >>\nstream\n" + stream + "\nendstream";
    }
    objs << "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
    if (encrypted)
        objs << "<< /Filter /Standard /V 1 /R 2 /O <" + QByteArray(64, '7') + "> /U <" + QByteArray(64, '3') +
                    "> /P -44 >>";
    QByteArray pdf = "%PDF-1.4\n";
    QList<qsizetype> offsets;
    for (qsizetype i = 0; i < objs.size(); ++i) {
        offsets << pdf.size();
        pdf += QByteArray::number(i + 1) + " 0 obj\n" + objs[i] + "\nendobj\n";
    }
    const qsizetype xref = pdf.size();
    pdf += "xref\n0 " + QByteArray::number(objs.size() + 1) + "\n0000000000 65535 f \n";
    for (qsizetype o : offsets)
        pdf += QByteArray::number(o).rightJustified(10, '0') + " 00000 n \n";
    pdf += "trailer\n<< /Size " + QByteArray::number(objs.size() + 1) + " /Root 1 0 R";
    if (encrypted)
        pdf += " /Encrypt " + QByteArray::number(encrypt) +
               " 0 R /ID [<0123456789abcdef0123456789abcdef>"
               "<0123456789abcdef0123456789abcdef>]";
    pdf += " >>\nstartxref\n" + QByteArray::number(xref) + "\n%%EOF\n";
    return pdf;
}

void writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(bytes);
}

ExtractStatus failureOf(const QString& path, QString* message = nullptr, const ExtractOptions& o = {})
{
    try {
        extractDocument(path, o);
    } catch (const ExtractionError& e) {
        if (message)
            *message = e.message();
        return e.status();
    }
    QTest::qFail("extraction succeeded, an error was expected", __FILE__, __LINE__);
    return ExtractStatus::Failed;
}

int words(const QString& s)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    return int(s.split(space, Qt::SkipEmptyParts).size());
}

} // namespace

class TestDocumentsExtraction : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString path(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private slots:
    void pdfParagraphsHeadingsAndPages()
    {
        const QString long1 =
            QStringLiteral("The first paragraph is long enough to wrap over several lines of the page, "
                           "so its lines must be joined again into one paragraph of text with "
                           "spaces where the line breaks were, and nothing lost at the ends.");
        corpus::writePdf(path("a.pdf"), {{QStringLiteral("Getting Started"), {long1, QStringLiteral("Second one.")}},
                                         {QStringLiteral("Next Steps"), {QStringLiteral("Page two text.")}}});
        const Extracted e = extractDocument(path("a.pdf"));
        QCOMPARE(e.format, QStringLiteral("pdf"));
        QCOMPARE(e.pages, 2);
        QCOMPARE(e.blocks.size(), 5);
        QVERIFY(e.blocks[0].isHeading);
        QCOMPARE(e.blocks[0].text, QStringLiteral("Getting Started"));
        QCOMPARE(e.blocks[1].text, long1);
        QCOMPARE(e.blocks[1].headings, QStringList{QStringLiteral("Getting Started")});
        QCOMPARE(e.blocks[1].page, 1);
        QCOMPARE(e.blocks[2].text, QStringLiteral("Second one."));
        QCOMPARE(e.blocks[4].page, 2);
        QCOMPARE(e.blocks[4].pageLabel, QStringLiteral("2"));
        QCOMPARE(e.blocks[4].headings, QStringList{QStringLiteral("Next Steps")});
    }

    // Headings of one size are one level whether or not their letters reach
    // below the line ("The harbour" has no descender, "The lighthouse" has).
    void pdfHeadingsOfOneSizeAreOneLevel()
    {
        const QString body =
            QStringLiteral("Body text long enough to wrap over more than one line of the page, so that "
                           "the body's line height is what most lines have, as in a real guide.");
        corpus::writePdf(path("levels.pdf"), {{QStringLiteral("The harbour"), {body}},
                                              {QStringLiteral("The lighthouse"), {body}},
                                              {QStringLiteral("The market"), {body}}});
        const Extracted e = extractDocument(path("levels.pdf"));
        QCOMPARE(e.blocks.size(), 6);
        for (int page = 0; page < 3; ++page) {
            QVERIFY(e.blocks[2 * page].isHeading);
            QCOMPARE(e.blocks[2 * page + 1].headings, QStringList{e.blocks[2 * page].text});
        }
    }

    void pdfPageLabels()
    {
        writeBytes(path("labels.pdf"), handPdf({QStringLiteral("Preface text"), QStringLiteral("More preface"),
                                                QStringLiteral("Chapter one")},
                                               "<< /Nums [0 << /S /r >> 2 << /S /D >>] >>", false));
        const Extracted e = extractDocument(path("labels.pdf"));
        QCOMPARE(e.pages, 3);
        QCOMPARE(e.blocks.size(), 3);
        QCOMPARE(e.blocks[0].pageLabel, QStringLiteral("i"));
        QCOMPARE(e.blocks[1].pageLabel, QStringLiteral("ii"));
        QCOMPARE(e.blocks[2].pageLabel, QStringLiteral("1"));
        QCOMPARE(e.blocks[2].page, 3);
        QCOMPARE(e.blocks[2].text, QStringLiteral("Chapter one"));
    }

    void officePagesAndHeadings()
    {
        const QList<corpus::Section> s{{QStringLiteral("One"), {QStringLiteral("alpha text")}},
                                       {QStringLiteral("Two"), {QStringLiteral("beta text"), QStringLiteral("gamma")}},
                                       {QStringLiteral("Three"), {QStringLiteral("delta & <more>")}}};
        corpus::writeDocx(path("a.docx"), s);
        corpus::writeOdt(path("a.odt"), s);
        for (const char* name : {"a.docx", "a.odt"}) {
            const Extracted e = extractDocument(path(name));
            QCOMPARE(e.pages, 3);
            QCOMPARE(e.blocks.size(), 7);
            QVERIFY(e.blocks[2].isHeading);
            QCOMPARE(e.blocks[3].text, QStringLiteral("beta text"));
            QCOMPARE(e.blocks[3].page, 2);
            QCOMPARE(e.blocks[3].headings, QStringList{QStringLiteral("Two")});
            QCOMPARE(e.blocks[6].text, QStringLiteral("delta & <more>"));
            QCOMPARE(e.blocks[6].page, 3);
        }
    }

    void markdownHeadingPathsAndLines()
    {
        writeBytes(path("a.md"), "# Guide\n\nIntro line one\nline two.\n\n## Setup\n\n```\n# not a heading\n```\n\n"
                                 "Install it.\n\nOther\n-----\n\nSetext body.\n");
        const Extracted e = extractDocument(path("a.md"));
        QCOMPARE(e.blocks[1].text, QStringLiteral("Intro line one line two."));
        QCOMPARE(e.blocks[1].line, 3);
        QCOMPARE(e.blocks[1].headings, QStringList{QStringLiteral("Guide")});
        QCOMPARE(e.blocks[2].text, QStringLiteral("Setup"));
        QCOMPARE(e.blocks[3].text, QStringLiteral("``` # not a heading ```"));
        QCOMPARE(e.blocks[3].headings, (QStringList{QStringLiteral("Guide"), QStringLiteral("Setup")}));
        QCOMPARE(e.blocks[4].line, 12);
        QCOMPARE(e.blocks.last().text, QStringLiteral("Setext body."));
        QCOMPARE(e.blocks.last().headings, (QStringList{QStringLiteral("Guide"), QStringLiteral("Other")}));
    }

    void htmlHeadingsWithoutScripts()
    {
        writeBytes(path("a.html"), "<html><head><title>T</title><style>p{}</style></head><body><h1>Top</h1>"
                                   "<p>Caf&eacute; &amp; tea &#8212; &#x4e2d;</p><script>if (a < b) x();</script>"
                                   "<h2>Sub</h2><div>Body <b>bold</b> text</div><!-- hidden --></body></html>");
        const Extracted e = extractDocument(path("a.html"));
        QCOMPARE(e.blocks.size(), 4);
        QCOMPARE(e.blocks[0].text, QStringLiteral("Top"));
        QCOMPARE(e.blocks[1].text, QStringLiteral("Caf&eacute; & tea — 中"));
        QCOMPARE(e.blocks[3].text, QStringLiteral("Body bold text"));
        QCOMPARE(e.blocks[3].headings, (QStringList{QStringLiteral("Top"), QStringLiteral("Sub")}));
    }

    void brokenInputsAreListedErrors()
    {
        QString why;
        // Truncated PDF.
        corpus::writePdf(path("full.pdf"), {{QStringLiteral("Title"), {QStringLiteral("Some text.")}}});
        QFile full(path("full.pdf"));
        QVERIFY(full.open(QIODevice::ReadOnly));
        writeBytes(path("truncated.pdf"), full.readAll().left(300));
        QCOMPARE(failureOf(path("truncated.pdf"), &why), ExtractStatus::Failed);
        qInfo("truncated PDF: %s", qPrintable(why));
        // Encrypted PDF.
        writeBytes(path("encrypted.pdf"), handPdf({QStringLiteral("secret")}, {}, true));
        QCOMPARE(failureOf(path("encrypted.pdf"), &why), ExtractStatus::Failed);
        QVERIFY2(why.contains(QLatin1String("encrypted")), qPrintable(why));
        // A scan: a page with a picture and no text layer.
        {
            QPdfWriter w(path("scan.pdf"));
            QPainter p(&w);
            p.fillRect(QRect(100, 100, 2000, 3000), Qt::gray);
        }
        QCOMPARE(failureOf(path("scan.pdf"), &why), ExtractStatus::Empty);
        QVERIFY2(why.contains(QLatin1String("scanned")), qPrintable(why));
        // Zip bomb: 16 MiB of XML in a DOCX, refused at the 1 MiB limit.
        QByteArray bomb = "<w:document xmlns:w=\"w\"><w:body>";
        bomb += QByteArray("<w:p><w:r><w:t>aaaaaaaa</w:t></w:r></w:p>").repeated(16 << 20 >> 5);
        corpus::writeZip(path("bomb.docx"), {{QStringLiteral("word/document.xml"), bomb}});
        QVERIFY(QFileInfo(path("bomb.docx")).size() < 1 << 20);
        ExtractOptions small;
        small.maxExpandedBytes = 1 << 20;
        QCOMPARE(failureOf(path("bomb.docx"), &why, small), ExtractStatus::Failed);
        QVERIFY2(why.contains(QLatin1String("zip bomb")), qPrintable(why));
        // Not a zip at all, and a zip without the document.
        writeBytes(path("fake.docx"), "this is not a zip file");
        QCOMPARE(failureOf(path("fake.docx"), &why), ExtractStatus::Failed);
        corpus::writeZip(path("hollow.odt"), {{QStringLiteral("mimetype"), QByteArray("x")}});
        QCOMPARE(failureOf(path("hollow.odt"), &why), ExtractStatus::Failed);
        QVERIFY2(why.contains(QLatin1String("content.xml")), qPrintable(why));
        // Invalid UTF-8, a 0-byte file, a binary file, an unknown type.
        writeBytes(path("bad.txt"), "valid start \xC3\x28 then broken");
        QCOMPARE(failureOf(path("bad.txt"), &why), ExtractStatus::Failed);
        QVERIFY2(why.contains(QLatin1String("UTF-8")) && why.contains(QLatin1String("byte 12")), qPrintable(why));
        writeBytes(path("empty.md"), "");
        QCOMPARE(failureOf(path("empty.md"), &why), ExtractStatus::Empty);
        writeBytes(path("blob.txt"), QByteArray("ab\0cd", 5));
        QCOMPARE(failureOf(path("blob.txt"), &why), ExtractStatus::Skipped);
        writeBytes(path("photo.png"), "\x89PNG....");
        QCOMPARE(failureOf(path("photo.png"), &why), ExtractStatus::Skipped);
        QCOMPARE(failureOf(path("gone.pdf"), &why), ExtractStatus::Failed);
    }

    void symlinkLoopIsReported()
    {
        const QString root = path("tree");
        QVERIFY(QDir().mkpath(root + QStringLiteral("/sub")));
        writeBytes(root + QStringLiteral("/sub/a.txt"), "hello");
        QVERIFY(QFile::link(root, root + QStringLiteral("/sub/loop")));
        QVERIFY(QFile::link(root + QStringLiteral("/nowhere"), root + QStringLiteral("/dangling.txt")));
        QList<FileIssue> issues;
        const QStringList files = Indexer::listFiles({root}, issues);
        QCOMPARE(files, QStringList{root + QStringLiteral("/sub/a.txt")});
        QCOMPARE(issues.size(), 2);
        bool loop = false, dangling = false;
        for (const FileIssue& i : issues) {
            loop = loop || i.reason.contains(QLatin1String("symlink loop"));
            dangling = dangling || i.reason.contains(QLatin1String("broken symbolic link"));
        }
        QVERIFY(loop && dangling);
    }

    void chunksStayWithinLimitsAndHeadings()
    {
        Extracted doc;
        QStringList sentences;
        for (int i = 0; i < 40; ++i)
            sentences << QStringLiteral("Sentence number %1 has exactly seven words.").arg(i);
        TextBlock h{QStringLiteral("Alpha"), 1, QStringLiteral("1"), {QStringLiteral("Alpha")}, true, 0};
        TextBlock p1{
            sentences.mid(0, 20).join(QLatin1Char(' ')), 1, QStringLiteral("1"), {QStringLiteral("Alpha")}, false, 0};
        TextBlock p2{
            sentences.mid(20, 10).join(QLatin1Char(' ')), 2, QStringLiteral("2"), {QStringLiteral("Alpha")}, false, 0};
        TextBlock h2{QStringLiteral("Beta"), 2, QStringLiteral("2"), {QStringLiteral("Beta")}, true, 0};
        TextBlock p3{
            sentences.mid(30).join(QLatin1Char(' ')), 2, QStringLiteral("2"), {QStringLiteral("Beta")}, false, 0};
        doc.blocks = {h, p1, p2, h2, p3};
        ChunkParams cp;
        cp.target = 30;
        cp.overlap = 8;
        cp.max = 40;
        const QList<Chunk> chunks = chunkDocument(doc, words, cp);
        QVERIFY(chunks.size() >= 6);
        bool sawOverlap = false;
        for (qsizetype i = 0; i < chunks.size(); ++i) {
            const Chunk& c = chunks[i];
            QVERIFY(c.tokens <= cp.max);
            QCOMPARE(c.tokens, words(c.text));
            QVERIFY(c.headingPath == QLatin1String("Alpha") || c.headingPath == QLatin1String("Beta"));
            // Never across the heading: Beta's sentences only under Beta.
            QCOMPARE(c.text.contains(QLatin1String("number 35")),
                     c.headingPath == QLatin1String("Beta") && c.text.contains(QLatin1String("number 35")));
            QVERIFY(c.pageTo - c.pageFrom <= 1);
            if (i > 0 && chunks[i - 1].headingPath == c.headingPath) {
                const QString firstSentence = splitSentences(c.text).first();
                sawOverlap = sawOverlap || chunks[i - 1].text.contains(firstSentence);
            }
        }
        QVERIFY(sawOverlap);
        QCOMPARE(chunks.last().headingPath, QStringLiteral("Beta"));
        QVERIFY(chunks.last().text.endsWith(QLatin1String("Sentence number 39 has exactly seven words.")));
        // An overlong sentence is cut by words.
        Extracted one;
        one.blocks = {TextBlock{QString(QStringLiteral("word ")).repeated(100).trimmed(), 0, {}, {}, false, 1}};
        for (const Chunk& c : chunkDocument(one, words, cp))
            QVERIFY(c.tokens <= cp.max);
        QCOMPARE(splitSentences(QStringLiteral("今天很好。明天也好！Yes. No")).size(), 4);
    }

    void citations()
    {
        Passage p;
        p.path = QStringLiteral("/x/report.pdf");
        p.pageFrom = p.pageTo = 12;
        p.pageLabel = QStringLiteral("xii");
        p.heading = QStringLiteral("Results > Costs");
        QCOMPARE(citationLabel(p), QStringLiteral("report.pdf · p. 12 (xii) · Results > Costs"));
        p.pageTo = 13;
        p.pageLabel = QStringLiteral("12");
        QCOMPARE(citationLabel(p), QStringLiteral("report.pdf · pp. 12–13 · Results > Costs"));
        const CitedAnswer a = checkCitations(QStringLiteral("It costs 4 [2] and 5 [7], see [1][2]."), 3);
        QCOMPARE(a.text, QStringLiteral("It costs 4 [2] and 5, see [1][2]."));
        QCOMPARE(a.cited, (QList<int>{2, 1}));
        QCOMPARE(a.dropped, QList<int>{7});
    }

    void vectorScanIsExact()
    {
        const int dim = 384, rows = 3000;
        QRandomGenerator rng(7);
        VectorIndex index(dim);
        std::vector<std::vector<float>> dense;
        for (int r = 0; r < rows; ++r) {
            std::vector<float> v(dim);
            double n = 0;
            for (float& x : v) {
                x = float(rng.generateDouble() * 2 - 1);
                n += x * x;
            }
            for (float& x : v)
                x = float(x / std::sqrt(n));
            const StoredVector q = quantizeVector(v.data(), dim);
            index.add(r, r / 10,
                      std::span<const int8_t>(reinterpret_cast<const int8_t*>(q.values.constData()), size_t(dim)),
                      q.scale);
            // The reference scores the same int8 values, in double.
            std::vector<float> back(dim);
            for (int i = 0; i < dim; ++i)
                back[size_t(i)] = float(reinterpret_cast<const int8_t*>(q.values.constData())[i]) * q.scale;
            dense.push_back(back);
        }
        const std::vector<float>& query = dense[1234];
        const std::vector<VectorIndex::Hit> hits = index.search(query, 10);
        QCOMPARE(hits.size(), size_t(10));
        QCOMPARE(hits[0].id, int64_t{1234});
        std::vector<std::pair<double, int>> ref;
        for (int r = 0; r < rows; ++r) {
            double s = 0;
            for (int i = 0; i < dim; ++i)
                s += double(dense[size_t(r)][size_t(i)]) * query[size_t(i)];
            ref.push_back({s, r});
        }
        std::sort(ref.rbegin(), ref.rend());
        for (size_t i = 0; i < hits.size(); ++i) {
            QCOMPARE(hits[i].id, int64_t(ref[i].second));
            QVERIFY(std::abs(hits[i].score - ref[i].first) < 0.02);
        }
        int8_t a[37], b[37];
        int32_t want = 0;
        for (int i = 0; i < 37; ++i) {
            a[i] = int8_t(i * 7 - 127);
            b[i] = int8_t(127 - i * 5);
            want += int32_t(a[i]) * b[i];
        }
        QCOMPARE(dotInt8(a, b, 37), want);
    }

    void ftsQueriesAreQuoted()
    {
        QCOMPARE(ftsQuery(QStringLiteral("rye \"flour\" OR water* NEAR(x) of the")),
                 QStringLiteral("\"rye\" OR \"flour\" OR \"water\" OR \"NEAR\" OR \"x\""));
        QCOMPARE(ftsQuery(QStringLiteral("  ?! ")), QString());
        DocumentStore store(path("fts.sqlite"));
        const qint64 c = store.ensureCollection(QStringLiteral("c"));
        QVERIFY(store.keywordSearch({c}, QStringLiteral("\"unbalanced ( quote"), 5).isEmpty());
    }
};

QTEST_MAIN(TestDocumentsExtraction)
#include "test_documents_extraction.moc"

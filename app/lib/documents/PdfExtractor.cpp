// PDF through QtPdf (PDFium), page by page. QPdfDocument gives a page's text
// in reading order; its line breaks are not always there (some files give
// one long line per page), and it never marks paragraphs. So the lines are
// rebuilt from the glyph geometry: a new line where the next word starts
// below the previous one, a new paragraph where the gap to the next line is
// clearly larger than the page's usual line pitch or the text size changes,
// and a heading where a short paragraph is set clearly larger than the body
// text. Compatibility characters (CJK radicals that fonts map 文 to, ligatures)
// are folded with NFKC.
#include "documents/Extraction.h"

#include <QPdfDocument>
#include <QPdfSelection>
#include <QRectF>

#include <algorithm>
#include <cmath>
#include <functional>

namespace documents {

namespace {

struct Line {
    QString text;
    QRectF box;
};

QString loadError(QPdfDocument::Error e)
{
    switch (e) {
    case QPdfDocument::Error::FileNotFound: return QStringLiteral("the file no longer exists");
    case QPdfDocument::Error::InvalidFileFormat: return QStringLiteral("not a valid PDF (damaged or truncated)");
    case QPdfDocument::Error::IncorrectPassword: return QStringLiteral("encrypted PDF: a password is needed");
    case QPdfDocument::Error::UnsupportedSecurityScheme: return QStringLiteral("encrypted PDF (unsupported security)");
    case QPdfDocument::Error::DataNotYetAvailable: return QStringLiteral("the PDF could not be read completely");
    default: return QStringLiteral("the PDF could not be opened");
    }
}

// Splits text [from, to) of the page into lines at its line breaks, and
// inside a line where the next word starts on a lower baseline.
void splitLines(QPdfDocument& doc, int page, const QString& all, int from, int to, QList<Line>& out)
{
    int start = from;
    auto addLine = [&](int end) {
        const QString t = all.mid(start, end - start).trimmed();
        if (!t.isEmpty()) {
            const QRectF box = doc.getSelectionAtIndex(page, start, end - start).boundingRectangle();
            out.append(Line{t, box});
        }
    };
    for (int i = from; i < to; ++i) {
        if (all.at(i) != QLatin1Char(' ') || i + 1 >= to)
            continue;
        // The glyphs either side of the space: a drop of more than half a
        // line height starts a new line.
        const QRectF before = doc.getSelectionAtIndex(page, std::max(start, i - 1), 1).boundingRectangle();
        const QRectF after = doc.getSelectionAtIndex(page, i + 1, 1).boundingRectangle();
        if (before.height() > 0 && after.height() > 0 &&
            after.top() > before.top() + 0.5 * std::max(before.height(), after.height())) {
            addLine(i);
            start = i + 1;
        }
    }
    addLine(to);
}

QList<Line> pageLines(QPdfDocument& doc, int page)
{
    const QString all = doc.getAllText(page).text();
    QList<Line> lines;
    int start = 0;
    for (int i = 0; i <= all.size(); ++i) {
        if (i == all.size() || all.at(i) == QLatin1Char('\n') || all.at(i) == QLatin1Char('\r')) {
            if (i > start) {
                // Lines longer than a line of text usually runs are the ones
                // whose breaks PDFium left out; only those need the geometry.
                if (i - start > 200)
                    splitLines(doc, page, all, start, i, lines);
                else if (const QString t = all.mid(start, i - start).trimmed(); !t.isEmpty())
                    lines.append(Line{t, doc.getSelectionAtIndex(page, start, i - start).boundingRectangle()});
            }
            start = i + 1;
        }
    }
    return lines;
}

// The value below which a fraction q of v lies (0 when v is empty).
double quantile(QList<double> v, double q)
{
    if (v.isEmpty())
        return 0.0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<qsizetype>(q * double(v.size())))];
}

// A line's box reaches as low as its glyphs: "The lighthouse" (a "g") is
// about a quarter taller than "The harbour" in the same font. Boxes of text
// without a descender are scaled by this share to compare sizes.
constexpr double kNoDescenderShare = 0.8;

bool hasDescender(const QString& text)
{
    for (QChar c : text)
        if (QStringView(u"gjpqy,;()[]{}|/@Q").contains(c) || c.unicode() >= 0x2e80)
            return true; // CJK boxes span the whole em
    return false;
}

class PdfExtractor final : public Extractor {
public:
    QString format() const override { return QStringLiteral("pdf"); }

    Extracted extract(const QString& path, const ExtractOptions& options) const override
    {
        QPdfDocument doc;
        const QPdfDocument::Error err = doc.load(path);
        if (err != QPdfDocument::Error::None)
            throw ExtractionError(ExtractStatus::Failed, loadError(err));
        Extracted out;
        out.pages = doc.pageCount();
        if (out.pages <= 0)
            throw ExtractionError(ExtractStatus::Failed, QStringLiteral("the PDF has no pages"));
        if (out.pages > options.maxPdfPages)
            throw ExtractionError(ExtractStatus::Skipped,
                                  QStringLiteral("more than %1 pages").arg(options.maxPdfPages));
        qint64 chars = 0;
        QList<double> blockHeights; // per block: its tallest line, as if it had descenders
        // The body text's line height and pitch over the whole document (a
        // page may hold little more than a heading).
        QList<QList<Line>> pages;
        QList<double> heights, gaps;
        for (int p = 0; p < out.pages; ++p) {
            pages.append(pageLines(doc, p));
            const QList<Line>& lines = pages.last();
            for (int i = 0; i < lines.size(); ++i) {
                heights.append(lines[i].box.height());
                if (i > 0 && lines[i].box.top() > lines[i - 1].box.top())
                    gaps.append(lines[i].box.top() - lines[i - 1].box.top());
            }
        }
        // The line pitch is the smaller gaps' (paragraph gaps are fewer but
        // can outnumber a short document's lines).
        const double body = quantile(heights, 0.5), pitch = quantile(gaps, 0.25);
        for (int p = 0; p < out.pages; ++p) {
            const QList<Line>& lines = pages[p];
            const QString label = doc.pageLabel(p);
            QStringList para;
            double paraHeight = 0.0;
            auto flush = [&] {
                if (para.isEmpty())
                    return;
                TextBlock b;
                b.text = tidy(para.join(QLatin1Char(' '))).normalized(QString::NormalizationForm_KC);
                b.page = p + 1;
                b.pageLabel = label;
                // A short paragraph set clearly larger than the body text.
                b.isHeading = para.size() <= 2 && body > 0 && paraHeight > 1.2 * body && b.text.size() < 160;
                chars += b.text.size();
                out.blocks.append(b);
                blockHeights.append(paraHeight / (hasDescender(b.text) ? 1.0 : kNoDescenderShare));
                para.clear();
                paraHeight = 0.0;
            };
            for (int i = 0; i < lines.size(); ++i) {
                const Line& l = lines[i];
                if (i > 0) {
                    const Line& prev = lines[i - 1];
                    const double gap = l.box.top() - prev.box.top();
                    const bool sizeChange = body > 0 && std::abs(l.box.height() - paraHeight) > 0.3 * body;
                    const bool wideGap = pitch > 0 && (gap > 1.45 * pitch || gap < -0.5 * pitch);
                    if (sizeChange || wideGap)
                        flush();
                }
                para.append(l.text);
                paraHeight = para.size() == 1 ? l.box.height() : std::max(paraHeight, l.box.height());
            }
            flush();
        }
        if (chars == 0)
            throw ExtractionError(
                ExtractStatus::Empty,
                QStringLiteral("scanned PDF: no text layer on its %1 pages (OCR is not enabled)").arg(out.pages));
        // Heading levels from the sizes the document uses for headings
        // (boxes scaled to a common glyph extent, see hasDescender); sizes
        // within 20% of each other are one level.
        QList<double> sizes;
        for (qsizetype i = 0; i < out.blocks.size(); ++i)
            if (out.blocks[i].isHeading)
                sizes.append(blockHeights[i]);
        std::sort(sizes.begin(), sizes.end(), std::greater<>());
        QList<double> levelTops; // the tallest size of each level, level 1 first
        for (double h : sizes)
            if (levelTops.isEmpty() || h < 0.8 * levelTops.last())
                levelTops.append(h);
        HeadingPath headings;
        for (qsizetype i = 0; i < out.blocks.size(); ++i) {
            TextBlock& b = out.blocks[i];
            if (b.isHeading) {
                int level = 1;
                while (level < int(levelTops.size()) && blockHeights[i] < 0.8 * levelTops[level - 1])
                    ++level;
                headings.enter(std::min(level, 6), b.text);
            }
            b.headings = headings.path();
        }
        return out;
    }
};

} // namespace

const Extractor& pdfExtractor()
{
    static const PdfExtractor e;
    return e;
}

} // namespace documents

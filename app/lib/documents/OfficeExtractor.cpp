// DOCX (word/document.xml) and ODT (content.xml): paragraphs with their
// heading levels, and pages where the file marks them. Neither format stores
// the page layout; the marks are the ones word processors leave behind:
// explicit page breaks (w:br w:type="page", pageBreakBefore) and, in DOCX,
// w:lastRenderedPageBreak (where Word's last layout broke the page); in ODT,
// text:soft-page-break. A file without marks counts as one page.
#include "documents/Extraction.h"
#include "documents/ZipReader.h"

#include <QXmlStreamReader>

namespace documents {

namespace {

// Word's built-in heading styles: "Heading1", "heading 2", "Title".
int docxHeadingLevel(QStringView style)
{
    const QString s = style.toString().toLower().remove(QLatin1Char(' '));
    if (s == QLatin1String("title"))
        return 1;
    if (s.startsWith(QLatin1String("heading"))) {
        bool ok = false;
        const int n = s.mid(7).toInt(&ok);
        if (ok && n >= 1 && n <= 9)
            return n;
    }
    return 0;
}

class Builder {
public:
    explicit Builder(Extracted& out) : m_out(out) {}
    // Word writes lastRenderedPageBreak after an explicit break too: a
    // rendered break counts only when text came since the last break.
    void pageBreak(bool rendered = false)
    {
        if (rendered && !m_textSinceBreak)
            return;
        ++m_page;
        m_textSinceBreak = false;
    }
    void add(const QString& text, int headingLevel)
    {
        TextBlock b;
        b.text = tidy(text);
        if (b.text.isEmpty())
            return;
        b.page = m_page;
        b.pageLabel = QString::number(m_page);
        if (headingLevel > 0) {
            b.isHeading = true;
            m_headings.enter(headingLevel, b.text);
        }
        b.headings = m_headings.path();
        m_out.blocks.append(b);
        m_textSinceBreak = true;
    }
    int page() const { return m_page; }

private:
    Extracted& m_out;
    HeadingPath m_headings;
    int m_page = 1;
    bool m_textSinceBreak = false;
};

void checkXml(const QXmlStreamReader& xml, const char* member)
{
    if (xml.hasError())
        throw ExtractionError(ExtractStatus::Failed, QStringLiteral("%1 is not well-formed XML (line %2: %3)")
                                                         .arg(QString::fromLatin1(member))
                                                         .arg(xml.lineNumber())
                                                         .arg(xml.errorString()));
}

class DocxExtractor final : public Extractor {
public:
    QString format() const override { return QStringLiteral("docx"); }

    Extracted extract(const QString& path, const ExtractOptions& options) const override
    {
        const ZipReader zip(path);
        const QByteArray xmlBytes = zip.read("word/document.xml", options.maxExpandedBytes);
        Extracted out;
        Builder b(out);
        QXmlStreamReader xml(xmlBytes);
        QString para;
        int level = 0;
        bool inPara = false, inText = false;
        while (!xml.atEnd()) {
            xml.readNext();
            const QStringView name = xml.name();
            if (xml.isStartElement()) {
                if (name == u"p") {
                    inPara = true;
                    para.clear();
                    level = 0;
                } else if (name == u"pStyle") {
                    level = docxHeadingLevel(xml.attributes().value(QLatin1String("w:val")));
                } else if (name == u"outlineLvl" && level == 0) {
                    level = xml.attributes().value(QLatin1String("w:val")).toInt() + 1;
                } else if (name == u"pageBreakBefore") {
                    if (xml.attributes().value(QLatin1String("w:val")) != u"0")
                        b.pageBreak(/*rendered=*/true);
                } else if (name == u"t") {
                    inText = true;
                } else if (name == u"tab") {
                    para += QLatin1Char(' ');
                } else if (name == u"br" || name == u"cr") {
                    if (xml.attributes().value(QLatin1String("w:type")) == u"page") {
                        b.add(para, level);
                        para.clear();
                        b.pageBreak();
                    } else {
                        para += QLatin1Char(' ');
                    }
                } else if (name == u"lastRenderedPageBreak") {
                    b.add(para, level);
                    para.clear();
                    b.pageBreak(/*rendered=*/true);
                }
            } else if (xml.isEndElement()) {
                if (name == u"t") {
                    inText = false;
                } else if (name == u"p" && inPara) {
                    b.add(para, level);
                    para.clear();
                    inPara = false;
                }
            } else if (xml.isCharacters() && inText) {
                para += xml.text();
            }
        }
        checkXml(xml, "word/document.xml");
        out.pages = b.page();
        return out;
    }
};

class OdtExtractor final : public Extractor {
public:
    QString format() const override { return QStringLiteral("odt"); }

    Extracted extract(const QString& path, const ExtractOptions& options) const override
    {
        const ZipReader zip(path);
        const QByteArray xmlBytes = zip.read("content.xml", options.maxExpandedBytes);
        Extracted out;
        Builder b(out);
        QXmlStreamReader xml(xmlBytes);
        QString para;
        int level = 0, depth = 0; // depth of text:p / text:h nesting (notes nest paragraphs)
        bool inBody = false;
        while (!xml.atEnd()) {
            xml.readNext();
            const QStringView name = xml.name();
            if (xml.isStartElement()) {
                if (name == u"text" && xml.namespaceUri().endsWith(u"office:1.0"))
                    inBody = true;
                if (!inBody)
                    continue;
                if (name == u"p" || name == u"h") {
                    if (depth++ == 0) {
                        para.clear();
                        level = name == u"h"
                                    ? std::max(1, xml.attributes().value(QLatin1String("text:outline-level")).toInt())
                                    : 0;
                    }
                } else if (name == u"s") {
                    const int n = xml.attributes().value(QLatin1String("text:c")).toInt();
                    para += QString(std::max(1, n), QLatin1Char(' '));
                } else if (name == u"tab" || name == u"line-break") {
                    para += QLatin1Char(' ');
                } else if (name == u"soft-page-break") {
                    if (depth > 0) {
                        b.add(para, level);
                        para.clear();
                    }
                    b.pageBreak();
                }
            } else if (xml.isEndElement()) {
                if (inBody && (name == u"p" || name == u"h") && depth > 0 && --depth == 0) {
                    b.add(para, level);
                    para.clear();
                }
            } else if (xml.isCharacters() && depth > 0) {
                para += xml.text();
            }
        }
        checkXml(xml, "content.xml");
        out.pages = b.page();
        return out;
    }
};

} // namespace

const Extractor& docxExtractor()
{
    static const DocxExtractor e;
    return e;
}

const Extractor& odtExtractor()
{
    static const OdtExtractor e;
    return e;
}

} // namespace documents

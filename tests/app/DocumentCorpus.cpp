#include "DocumentCorpus.h"

#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QStringConverter>
#include <QTextStream>

#include <zip.h>

#include <stdexcept>

namespace corpus {

namespace {

QString xmlEscape(const QString& s)
{
    return s.toHtmlEscaped();
}

void writeText(const QString& path, const QString& text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        throw std::runtime_error("cannot write " + path.toStdString());
    f.write(text.toUtf8());
}

// Sentences with no facts in them, so every page reads like a page.
QStringList filler(const QString& topic, int index)
{
    static const QStringList pool{
        QStringLiteral("This part of the %1 continues the general overview given earlier."),
        QStringLiteral("Readers who need more detail can turn to the index at the back of the %1."),
        QStringLiteral("The notes below were reviewed by the editors of the %1 last season."),
        QStringLiteral("Some of the illustrations in the %1 have been redrawn for clarity."),
        QStringLiteral("Terms in italics are explained in the glossary of the %1."),
        QStringLiteral("Earlier editions of the %1 organised this material differently."),
        QStringLiteral("Where figures are rounded, the %1 says so in the text."),
        QStringLiteral("Comments and corrections for the %1 are always welcome."),
    };
    QStringList out;
    for (int p = 0; p < 2; ++p)
        out << pool[(index * 3 + p * 5) % pool.size()].arg(topic) + QLatin1Char(' ') +
                   pool[(index * 3 + p * 5 + 1) % pool.size()].arg(topic);
    return out;
}

QString topicOf(const QString& file)
{
    if (file.startsWith(QLatin1String("field-guide")))
        return QStringLiteral("field guide");
    if (file.startsWith(QLatin1String("operations")))
        return QStringLiteral("manual");
    if (file.startsWith(QLatin1String("employee")))
        return QStringLiteral("handbook");
    if (file.startsWith(QLatin1String("city")))
        return QStringLiteral("chronicle");
    if (file.startsWith(QLatin1String("recipes")))
        return QStringLiteral("cookbook");
    return QStringLiteral("almanac");
}

} // namespace

void writePdf(const QString& path, const QList<Section>& pages)
{
    QPdfWriter w(path);
    w.setPageSize(QPageSize(QPageSize::A4));
    w.setResolution(72);
    w.setPageMargins(QMarginsF(50, 50, 50, 50));
    QPainter p(&w);
    QFont heading(QStringLiteral("DejaVu Sans"), 20);
    heading.setBold(true);
    const QFont body(QStringLiteral("DejaVu Sans"), 11);
    const QRectF area(0, 0, w.width(), w.height());
    for (qsizetype i = 0; i < pages.size(); ++i) {
        if (i > 0)
            w.newPage();
        double y = 0;
        p.setFont(heading);
        QRectF r;
        p.drawText(QRectF(0, y, area.width(), 60), Qt::TextWordWrap, pages[i].heading, &r);
        y += r.height() + 24;
        p.setFont(body);
        for (const QString& para : pages[i].paragraphs) {
            p.drawText(QRectF(0, y, area.width(), area.height() - y), Qt::TextWordWrap, para, &r);
            y += r.height() + 16; // a paragraph gap
        }
    }
}

void writeZip(const QString& path, const QList<QPair<QString, QByteArray>>& members)
{
    int error = 0;
    zip_t* z = zip_open(QFile::encodeName(path).constData(), ZIP_CREATE | ZIP_TRUNCATE, &error);
    if (!z)
        throw std::runtime_error("cannot create " + path.toStdString());
    for (const auto& [name, bytes] : members) {
        void* copy = malloc(static_cast<size_t>(bytes.size()) + 1);
        memcpy(copy, bytes.constData(), static_cast<size_t>(bytes.size()));
        zip_source_t* src = zip_source_buffer(z, copy, static_cast<zip_uint64_t>(bytes.size()), /*freep=*/1);
        const zip_int64_t idx = zip_file_add(z, name.toUtf8().constData(), src, ZIP_FL_OVERWRITE);
        if (idx < 0)
            throw std::runtime_error("cannot add " + name.toStdString());
        zip_set_file_compression(z, static_cast<zip_uint64_t>(idx),
                                 name == QLatin1String("mimetype") ? ZIP_CM_STORE : ZIP_CM_DEFLATE, 9);
    }
    if (zip_close(z) != 0)
        throw std::runtime_error("cannot write " + path.toStdString());
}

void writeDocx(const QString& path, const QList<Section>& pages)
{
    QString body;
    for (qsizetype i = 0; i < pages.size(); ++i) {
        if (i > 0)
            body += QStringLiteral("<w:p><w:r><w:br w:type=\"page\"/></w:r></w:p>");
        body += QStringLiteral("<w:p><w:pPr><w:pStyle w:val=\"Heading1\"/></w:pPr><w:r><w:t>%1</w:t></w:r></w:p>")
                    .arg(xmlEscape(pages[i].heading));
        for (const QString& para : pages[i].paragraphs) {
            // Two runs per paragraph, as word processors write them.
            const qsizetype half = para.indexOf(QLatin1Char(' '), para.size() / 2);
            body += QStringLiteral("<w:p><w:r><w:t xml:space=\"preserve\">%1</w:t></w:r>"
                                   "<w:r><w:rPr><w:b/></w:rPr><w:t xml:space=\"preserve\">%2</w:t></w:r></w:p>")
                        .arg(xmlEscape(para.left(half)), xmlEscape(para.mid(half)));
        }
    }
    const QString document =
        QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
                       "<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>%1"
                       "<w:sectPr/></w:body></w:document>")
            .arg(body);
    writeZip(path,
             {{QStringLiteral("[Content_Types].xml"),
               QByteArray("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Types xmlns=\"http://schemas.openxmlformats.org/"
                          "package/2006/content-types\"><Default Extension=\"xml\" ContentType=\"application/xml\"/>"
                          "<Override PartName=\"/word/document.xml\" ContentType=\"application/vnd.openxmlformats-"
                          "officedocument.wordprocessingml.document.main+xml\"/></Types>")},
              {QStringLiteral("_rels/.rels"),
               QByteArray("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Relationships xmlns=\"http://schemas."
                          "openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://"
                          "schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" "
                          "Target=\"word/document.xml\"/></Relationships>")},
              {QStringLiteral("word/document.xml"), document.toUtf8()}});
}

void writeOdt(const QString& path, const QList<Section>& pages)
{
    QString body;
    for (qsizetype i = 0; i < pages.size(); ++i) {
        if (i > 0)
            body += QStringLiteral("<text:soft-page-break/>");
        body += QStringLiteral("<text:h text:outline-level=\"1\">%1</text:h>").arg(xmlEscape(pages[i].heading));
        for (const QString& para : pages[i].paragraphs)
            body += QStringLiteral("<text:p>%1</text:p>").arg(xmlEscape(para));
    }
    const QString content =
        QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                       "<office:document-content xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
                       "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.3\">"
                       "<office:body><office:text>%1</office:text></office:body></office:document-content>")
            .arg(body);
    writeZip(path, {{QStringLiteral("mimetype"), QByteArray("application/vnd.oasis.opendocument.text")},
                    {QStringLiteral("META-INF/manifest.xml"),
                     QByteArray("<?xml version=\"1.0\" encoding=\"UTF-8\"?><manifest:manifest xmlns:manifest=\"urn:"
                                "oasis:names:tc:opendocument:xmlns:manifest:1.0\" manifest:version=\"1.3\">"
                                "<manifest:file-entry manifest:full-path=\"/\" manifest:media-type=\"application/"
                                "vnd.oasis.opendocument.text\"/><manifest:file-entry manifest:full-path=\"content.xml\""
                                " manifest:media-type=\"text/xml\"/></manifest:manifest>")},
                    {QStringLiteral("content.xml"), content.toUtf8()}});
}

void writeMarkdown(const QString& path, const QString& title, const QList<Section>& sections)
{
    QString md = QStringLiteral("# %1\n\n").arg(title);
    for (const Section& s : sections) {
        md += QStringLiteral("## %1\n\n").arg(s.heading);
        for (const QString& p : s.paragraphs)
            md += p + QStringLiteral("\n\n");
    }
    writeText(path, md);
}

void writeHtml(const QString& path, const QString& title, const QList<Section>& sections)
{
    QString html = QStringLiteral("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>%1</title>"
                                  "<style>h2 { color: #333; }</style><script>var x = 1 < 2;</script></head><body>"
                                  "<h1>%1</h1>\n")
                       .arg(title.toHtmlEscaped());
    for (const Section& s : sections) {
        html += QStringLiteral("<section><h2>%1</h2>\n").arg(s.heading.toHtmlEscaped());
        for (const QString& p : s.paragraphs)
            html += QStringLiteral("<p>%1</p>\n")
                        .arg(p.toHtmlEscaped().replace(QLatin1String("&quot;"), QLatin1String("&#34;")));
        html += QStringLiteral("</section>\n");
    }
    writeText(path, html + QStringLiteral("</body></html>\n"));
}

QList<Fact> loadFacts(const QString& tsvPath)
{
    QFile f(tsvPath);
    if (!f.open(QIODevice::ReadOnly))
        throw std::runtime_error("cannot read " + tsvPath.toStdString());
    QList<Fact> out;
    for (const QString& line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'))) {
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList c = line.split(QLatin1Char('\t'));
        if (c.size() != 4)
            throw std::runtime_error("bad facts line: " + line.toStdString());
        Fact fact;
        fact.file = c[0];
        fact.place = c[1];
        bool paged = false;
        fact.page = c[1].toInt(&paged);
        if (!paged)
            fact.page = 0;
        fact.fact = c[2];
        fact.question = c[3];
        out.append(fact);
    }
    return out;
}

QStringList writeCorpus(const QString& dir, const QList<Fact>& facts)
{
    QMap<QString, QList<Section>> docs;
    for (const Fact& f : facts) {
        QList<Section>& s = docs[f.file];
        const int index = int(s.size());
        const QString topic = topicOf(f.file);
        Section sec;
        sec.heading = f.page > 0 ? QStringLiteral("Chapter %1").arg(f.page) : f.place;
        const QStringList fill = filler(topic, index);
        sec.paragraphs = {fill[0], f.fact, fill[1]};
        s.append(sec);
    }
    QStringList paths;
    for (auto it = docs.cbegin(); it != docs.cend(); ++it) {
        const QString path = dir + QLatin1Char('/') + it.key();
        const QString ext = QFileInfo(path).suffix();
        const QString title = topicOf(it.key());
        if (ext == QLatin1String("pdf"))
            writePdf(path, it.value());
        else if (ext == QLatin1String("docx"))
            writeDocx(path, it.value());
        else if (ext == QLatin1String("odt"))
            writeOdt(path, it.value());
        else if (ext == QLatin1String("md"))
            writeMarkdown(path, title, it.value());
        else
            writeHtml(path, title, it.value());
        paths << path;
    }
    return paths;
}

QList<Section> townPages()
{
    return {
        {QStringLiteral("The harbour"),
         {QStringLiteral("The harbour of Varnholm was dredged in 1911 to admit steamships.")}},
        {QStringLiteral("The lighthouse"),
         {QStringLiteral("The lighthouse keeper kept a grey cat called Admiral Pepper, who slept beside the lamp "
                         "every winter night.")}},
        {QStringLiteral("The market"), {QStringLiteral("On Thursdays the fish market opens at four in the morning.")}}};
}

QList<Section> gardenSections()
{
    return {{QStringLiteral("Roses"), {QStringLiteral("The climbing roses on the south wall are pruned in February.")}},
            {QStringLiteral("Soil"), {QStringLiteral("The vegetable beds get a layer of compost every October.")}}};
}

} // namespace corpus

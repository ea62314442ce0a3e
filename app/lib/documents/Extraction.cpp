#include "documents/Extraction.h"

#include <QFileInfo>
#include <QHash>

namespace documents {

namespace {

struct Entry {
    const char* ext;
    const Extractor& (*get)();
};

const Entry kByExtension[] = {
    {"pdf", pdfExtractor},
    {"docx", docxExtractor},
    {"odt", odtExtractor},
    {"md", markdownExtractor},
    {"markdown", markdownExtractor},
    {"html", htmlExtractor},
    {"htm", htmlExtractor},
    {"xhtml", htmlExtractor},
    {"txt", plainTextExtractor},
    {"text", plainTextExtractor},
    {"rst", plainTextExtractor},
    {"adoc", plainTextExtractor},
    {"csv", plainTextExtractor},
    {"log", plainTextExtractor},
    // Source code and configuration: read as text, one block per paragraph.
    {"c", codeExtractor},
    {"h", codeExtractor},
    {"cc", codeExtractor},
    {"cpp", codeExtractor},
    {"hpp", codeExtractor},
    {"cxx", codeExtractor},
    {"py", codeExtractor},
    {"js", codeExtractor},
    {"ts", codeExtractor},
    {"java", codeExtractor},
    {"go", codeExtractor},
    {"rs", codeExtractor},
    {"rb", codeExtractor},
    {"php", codeExtractor},
    {"cs", codeExtractor},
    {"swift", codeExtractor},
    {"kt", codeExtractor},
    {"sh", codeExtractor},
    {"qml", codeExtractor},
    {"sql", codeExtractor},
    {"json", codeExtractor},
    {"yaml", codeExtractor},
    {"yml", codeExtractor},
    {"toml", codeExtractor},
    {"xml", codeExtractor},
    {"css", codeExtractor},
    {"cmake", codeExtractor},
    {"ini", codeExtractor},
};

} // namespace

const Extractor* extractorFor(const QString& path)
{
    const QString ext = QFileInfo(path).suffix().toLower();
    for (const Entry& e : kByExtension)
        if (ext == QLatin1String(e.ext))
            return &e.get();
    return nullptr;
}

QStringList supportedExtensions()
{
    QStringList out;
    for (const Entry& e : kByExtension)
        out << QString::fromLatin1(e.ext);
    return out;
}

Extracted extractDocument(const QString& path, const ExtractOptions& options)
{
    const QFileInfo info(path);
    if (!info.exists())
        throw ExtractionError(ExtractStatus::Failed, QStringLiteral("the file no longer exists"));
    if (!info.isFile())
        throw ExtractionError(ExtractStatus::Skipped, QStringLiteral("not a regular file"));
    const Extractor* e = extractorFor(path);
    if (!e)
        throw ExtractionError(ExtractStatus::Skipped,
                              QStringLiteral("unsupported file type (.%1)").arg(info.suffix().toLower()));
    if (info.size() == 0)
        throw ExtractionError(ExtractStatus::Empty, QStringLiteral("the file is empty (0 bytes)"));
    if (info.size() > options.maxFileBytes)
        throw ExtractionError(ExtractStatus::Skipped,
                              QStringLiteral("larger than %1 MiB").arg(options.maxFileBytes >> 20));
    Extracted out = e->extract(path, options);
    out.format = e->format();
    bool any = false;
    for (const TextBlock& b : out.blocks)
        any = any || !b.text.trimmed().isEmpty();
    if (!any)
        throw ExtractionError(ExtractStatus::Empty, QStringLiteral("no text found"));
    return out;
}

void HeadingPath::enter(int level, const QString& title)
{
    while (!m_levels.isEmpty() && m_levels.last() >= level) {
        m_levels.removeLast();
        m_path.removeLast();
    }
    m_levels.append(level);
    m_path.append(title);
}

QString tidy(const QString& text)
{
    return text.simplified();
}

} // namespace documents

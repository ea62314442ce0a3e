// Text extraction for Documents: one Extractor per format family behind one
// interface, each turning a file into paragraphs (TextBlock) that keep their
// page, the page's printed label and the heading path above them, so that
// chunks can cite "file · p. 12 (xii) · Chapter > Section".
//
// Formats: PDF (QtPdf; lines rebuilt from glyph geometry), DOCX and ODT
// (zip with bounded expansion + QXmlStreamReader; pages where the file marks
// them), Markdown and HTML (headings), plain text and source code (by
// extension). A file that yields nothing is never dropped silently:
// extractDocument throws ExtractionError with the reason and a status
// (skipped: not a document we read; failed: broken; empty: no text, such as
// a scanned PDF without a text layer).
//
// Thread-safety: extractors keep no state; any thread may extract.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <stdexcept>

namespace documents {

struct TextBlock {
    QString text;         // one paragraph or heading, runs of whitespace as one space
    int page = 0;         // 1-based page; 0 for formats without pages
    QString pageLabel;    // the page's printed label ("xii"), or ""
    QStringList headings; // the headings above this block, outermost first
    bool isHeading = false;
    int line = 0; // 1-based first line in the source file (text formats), else 0
};

struct Extracted {
    QString format; // "pdf", "docx", "odt", "markdown", "html", "text", "code"
    int pages = 0;  // pages of a paged format, else 0
    QList<TextBlock> blocks;
};

enum class ExtractStatus {
    Skipped,
    Failed,
    Empty
};

class ExtractionError : public std::runtime_error {
public:
    ExtractionError(ExtractStatus status, const QString& message)
        : std::runtime_error(message.toStdString()), m_status(status)
    {
    }
    ExtractStatus status() const { return m_status; }
    QString message() const { return QString::fromStdString(what()); }

private:
    ExtractStatus m_status;
};

struct ExtractOptions {
    qint64 maxFileBytes = qint64{512} << 20;     // larger files are skipped
    qint64 maxExpandedBytes = qint64{256} << 20; // a zip member may inflate to this much (zip bombs)
    int maxPdfPages = 20000;
};

class Extractor {
public:
    virtual ~Extractor() = default;
    virtual QString format() const = 0;
    // Reads the file; throws ExtractionError.
    virtual Extracted extract(const QString& path, const ExtractOptions& options) const = 0;
};

// The extractor for a file name (by extension), or null when the format is
// not one we read.
const Extractor* extractorFor(const QString& path);
// Extensions read as documents (lower case, without the dot).
QStringList supportedExtensions();

// Extracts `path` with the extractor of its extension. Throws
// ExtractionError (skipped for an unknown format, a binary file or one over
// the size limit; failed when unreadable or broken; empty when there is no
// text).
Extracted extractDocument(const QString& path, const ExtractOptions& options = {});

// Keeps the heading path while a document is read: a heading of `level`
// (1 outermost) replaces the ones at its level and below.
class HeadingPath {
public:
    void enter(int level, const QString& title);
    const QStringList& path() const { return m_path; }

private:
    QList<int> m_levels;
    QStringList m_path;
};

// Whitespace runs collapsed to one space, trimmed.
QString tidy(const QString& text);

// The per-format extractors (one file each).
const Extractor& pdfExtractor();      // PdfExtractor.cpp
const Extractor& docxExtractor();     // OfficeExtractor.cpp
const Extractor& odtExtractor();      // OfficeExtractor.cpp
const Extractor& markdownExtractor(); // TextExtractors.cpp
const Extractor& htmlExtractor();     // TextExtractors.cpp
const Extractor& plainTextExtractor();
const Extractor& codeExtractor();

} // namespace documents

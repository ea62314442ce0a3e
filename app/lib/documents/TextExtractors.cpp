// Plain text, source code, Markdown and HTML. Text files must be UTF-8
// (a UTF-8 or UTF-16 byte-order mark is honoured); a NUL byte in the first
// 8 KiB marks a binary file, skipped. Paragraphs are separated by blank
// lines and keep their first line number; Markdown headings (# ATX and
// underlined setext, not inside ``` fences) and HTML's h1–h6 give the heading
// path.
#include "documents/Extraction.h"

#include <QFile>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QStringDecoder>

namespace documents {

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        throw ExtractionError(ExtractStatus::Failed, QStringLiteral("cannot open the file (%1)").arg(f.errorString()));
    QByteArray bytes = f.readAll();
    if (f.error() != QFileDevice::NoError)
        throw ExtractionError(ExtractStatus::Failed, QStringLiteral("cannot read the file (%1)").arg(f.errorString()));
    return bytes;
}

// Offset of the first byte that is not part of well-formed UTF-8, or -1.
qsizetype invalidUtf8At(const QByteArray& b)
{
    const auto* s = reinterpret_cast<const unsigned char*>(b.constData());
    const qsizetype n = b.size();
    for (qsizetype i = 0; i < n;) {
        const unsigned char c = s[i];
        int len = 0;
        uint32_t cp = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            len = 2, cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3, cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4, cp = c & 0x07;
        } else {
            return i;
        }
        if (i + len > n)
            return i;
        for (int k = 1; k < len; ++k) {
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
            return i;
        i += len;
    }
    return -1;
}

QString decodeText(const QByteArray& bytes)
{
    if (bytes.startsWith("\xFF\xFE") || bytes.startsWith("\xFE\xFF")) {
        QStringDecoder d(bytes.startsWith("\xFF\xFE") ? QStringConverter::Utf16LE : QStringConverter::Utf16BE);
        const QString s = d(bytes.mid(2));
        if (d.hasError())
            throw ExtractionError(ExtractStatus::Failed, QStringLiteral("not valid UTF-16 text"));
        return s;
    }
    if (bytes.left(8192).contains('\0'))
        throw ExtractionError(ExtractStatus::Skipped, QStringLiteral("binary file (contains NUL bytes)"));
    const QByteArray body = bytes.startsWith("\xEF\xBB\xBF") ? bytes.mid(3) : bytes;
    if (const qsizetype bad = invalidUtf8At(body); bad >= 0)
        throw ExtractionError(ExtractStatus::Failed,
                              QStringLiteral("not valid UTF-8 text (byte %1); save it as UTF-8 to index it").arg(bad));
    return QString::fromUtf8(body);
}

// Paragraphs separated by blank lines, each with its first line number.
void addParagraphs(const QStringList& lines, int firstLine, const QStringList& headings, Extracted& out)
{
    QStringList para;
    int start = 0;
    auto flush = [&] {
        if (para.isEmpty())
            return;
        TextBlock b;
        b.text = tidy(para.join(QLatin1Char(' ')));
        b.line = start;
        b.headings = headings;
        if (!b.text.isEmpty())
            out.blocks.append(b);
        para.clear();
    };
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].trimmed().isEmpty()) {
            flush();
            continue;
        }
        if (para.isEmpty())
            start = firstLine + i;
        para.append(lines[i]);
    }
    flush();
}

class PlainTextExtractor final : public Extractor {
public:
    explicit PlainTextExtractor(QString format) : m_format(std::move(format)) {}
    QString format() const override { return m_format; }

    Extracted extract(const QString& path, const ExtractOptions&) const override
    {
        Extracted out;
        const QString text = decodeText(readAll(path));
        addParagraphs(text.split(QLatin1Char('\n')), 1, {}, out);
        return out;
    }

private:
    QString m_format;
};

class MarkdownExtractor final : public Extractor {
public:
    QString format() const override { return QStringLiteral("markdown"); }

    Extracted extract(const QString& path, const ExtractOptions&) const override
    {
        Extracted out;
        const QStringList lines = decodeText(readAll(path)).split(QLatin1Char('\n'));
        static const QRegularExpression atx(QStringLiteral("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$"));
        static const QRegularExpression setext(QStringLiteral("^ {0,3}(=+|-+)\\s*$"));
        HeadingPath headings;
        QStringList section;
        int sectionStart = 1;
        bool fenced = false;
        auto heading = [&](int level, const QString& title, int line) {
            addParagraphs(section, sectionStart, headings.path(), out);
            section.clear();
            headings.enter(level, tidy(title));
            TextBlock b;
            b.text = tidy(title);
            b.isHeading = true;
            b.line = line;
            b.headings = headings.path();
            out.blocks.append(b);
            sectionStart = line + 1;
        };
        for (int i = 0; i < lines.size(); ++i) {
            QString l = lines[i];
            if (l.endsWith(QLatin1Char('\r')))
                l.chop(1);
            if (l.trimmed().startsWith(QLatin1String("```")) || l.trimmed().startsWith(QLatin1String("~~~")))
                fenced = !fenced;
            if (!fenced) {
                if (const auto m = atx.match(l); m.hasMatch()) {
                    heading(static_cast<int>(m.capturedLength(1)), m.captured(2), i + 1);
                    continue;
                }
                // "Title" over "=====" or "-----" (and the title is not a list item).
                if (i + 1 < lines.size() && !l.trimmed().isEmpty() && setext.match(lines[i + 1]).hasMatch() &&
                    !l.trimmed().startsWith(QLatin1Char('-')) &&
                    (section.isEmpty() || section.last().trimmed().isEmpty())) {
                    heading(lines[i + 1].trimmed().startsWith(QLatin1Char('=')) ? 1 : 2, l, i + 1);
                    ++i;
                    sectionStart = i + 2;
                    continue;
                }
            }
            if (section.isEmpty())
                sectionStart = i + 1;
            section.append(l);
        }
        addParagraphs(section, sectionStart, headings.path(), out);
        return out;
    }
};

// A lenient HTML reader (real pages are rarely well-formed XML): tags are
// scanned, not parsed into a tree. Block-level tags end a paragraph, h1–h6
// are headings, script / style / template / head contents and comments are
// dropped, and character references are decoded. It needs nothing of QtGui,
// so it runs on any thread and in the CLI.
class HtmlExtractor final : public Extractor {
public:
    QString format() const override { return QStringLiteral("html"); }

    Extracted extract(const QString& path, const ExtractOptions&) const override
    {
        const QByteArray bytes = readAll(path);
        if (bytes.left(8192).contains('\0'))
            throw ExtractionError(ExtractStatus::Skipped, QStringLiteral("binary file (contains NUL bytes)"));
        QStringDecoder decoder = QStringDecoder::decoderForHtml(bytes);
        const QString html = decoder.isValid() ? decoder(bytes) : decodeText(bytes);
        Extracted out;
        HeadingPath headings;
        QString para;
        int headingLevel = 0;
        auto flush = [&] {
            const QString text = tidy(decodeEntities(para));
            para.clear();
            if (text.isEmpty())
                return;
            TextBlock b;
            b.text = text;
            if (headingLevel > 0) {
                headings.enter(headingLevel, text);
                b.isHeading = true;
            }
            b.headings = headings.path();
            out.blocks.append(b);
        };
        static const QSet<QString> blocks{
            QStringLiteral("p"),      QStringLiteral("div"),        QStringLiteral("br"),
            QStringLiteral("li"),     QStringLiteral("ul"),         QStringLiteral("ol"),
            QStringLiteral("tr"),     QStringLiteral("td"),         QStringLiteral("th"),
            QStringLiteral("table"),  QStringLiteral("section"),    QStringLiteral("article"),
            QStringLiteral("header"), QStringLiteral("footer"),     QStringLiteral("nav"),
            QStringLiteral("aside"),  QStringLiteral("main"),       QStringLiteral("blockquote"),
            QStringLiteral("pre"),    QStringLiteral("hr"),         QStringLiteral("dd"),
            QStringLiteral("dt"),     QStringLiteral("figcaption"), QStringLiteral("body")};
        static const QSet<QString> hidden{QStringLiteral("script"), QStringLiteral("style"), QStringLiteral("template"),
                                          QStringLiteral("head"), QStringLiteral("noscript")};
        qsizetype i = 0;
        const qsizetype n = html.size();
        while (i < n) {
            const QChar c = html.at(i);
            if (c != QLatin1Char('<')) {
                para += c;
                ++i;
                continue;
            }
            if (html.mid(i, 4) == QLatin1String("<!--")) {
                const qsizetype e = html.indexOf(QLatin1String("-->"), i + 4);
                i = e < 0 ? n : e + 3;
                continue;
            }
            const qsizetype close = html.indexOf(QLatin1Char('>'), i + 1);
            if (close < 0) {
                para += html.mid(i);
                break;
            }
            QString tag = html.mid(i + 1, close - i - 1).trimmed();
            i = close + 1;
            const bool end = tag.startsWith(QLatin1Char('/'));
            if (end)
                tag.remove(0, 1);
            tag = tag.section(QRegularExpression(QStringLiteral("[\\s/]")), 0, 0).toLower();
            if (!end && hidden.contains(tag)) {
                const qsizetype e = html.indexOf(QStringLiteral("</") + tag, i, Qt::CaseInsensitive);
                i = e < 0 ? n : html.indexOf(QLatin1Char('>'), e) + 1;
                if (i <= 0)
                    i = n;
                continue;
            }
            if (tag.size() == 2 && tag.at(0) == QLatin1Char('h') && tag.at(1) >= QLatin1Char('1') &&
                tag.at(1) <= QLatin1Char('6')) {
                flush();
                headingLevel = end ? 0 : tag.at(1).digitValue();
            } else if (blocks.contains(tag)) {
                flush();
            }
        }
        flush();
        return out;
    }

private:
    static QString decodeEntities(const QString& s)
    {
        if (!s.contains(QLatin1Char('&')))
            return s;
        static const QHash<QString, QString> named{
            {QStringLiteral("amp"), QStringLiteral("&")},    {QStringLiteral("lt"), QStringLiteral("<")},
            {QStringLiteral("gt"), QStringLiteral(">")},     {QStringLiteral("quot"), QStringLiteral("\"")},
            {QStringLiteral("apos"), QStringLiteral("'")},   {QStringLiteral("nbsp"), QStringLiteral(" ")},
            {QStringLiteral("mdash"), QStringLiteral("—")},  {QStringLiteral("ndash"), QStringLiteral("–")},
            {QStringLiteral("hellip"), QStringLiteral("…")}, {QStringLiteral("copy"), QStringLiteral("©")},
            {QStringLiteral("rsquo"), QStringLiteral("’")},  {QStringLiteral("lsquo"), QStringLiteral("‘")},
            {QStringLiteral("rdquo"), QStringLiteral("”")},  {QStringLiteral("ldquo"), QStringLiteral("“")},
            {QStringLiteral("euro"), QStringLiteral("€")},   {QStringLiteral("deg"), QStringLiteral("°")}};
        static const QRegularExpression ref(QStringLiteral("&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});"));
        QString out;
        qsizetype last = 0;
        for (auto it = ref.globalMatch(s); it.hasNext();) {
            const auto m = it.next();
            out += QStringView(s).mid(last, m.capturedStart() - last);
            const QString name = m.captured(1);
            QString rep = m.captured(0);
            if (name.startsWith(QLatin1Char('#'))) {
                bool ok = false;
                const uint cp = name.at(1).toLower() == QLatin1Char('x') ? name.mid(2).toUInt(&ok, 16)
                                                                         : name.mid(1).toUInt(&ok, 10);
                if (ok && cp > 0 && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF)) {
                    const char32_t c32 = cp;
                    rep = QString::fromUcs4(&c32, 1);
                }
            } else if (const auto f = named.constFind(name); f != named.cend()) {
                rep = f.value();
            }
            out += rep;
            last = m.capturedEnd();
        }
        out += QStringView(s).mid(last);
        return out;
    }
};

} // namespace

const Extractor& markdownExtractor()
{
    static const MarkdownExtractor e;
    return e;
}

const Extractor& htmlExtractor()
{
    static const HtmlExtractor e;
    return e;
}

const Extractor& plainTextExtractor()
{
    static const PlainTextExtractor e(QStringLiteral("text"));
    return e;
}

const Extractor& codeExtractor()
{
    static const PlainTextExtractor e(QStringLiteral("code"));
    return e;
}

} // namespace documents

#include "documents/Chunker.h"

#include <QRegularExpression>

namespace documents {

namespace {

// A piece that is never split further: a sentence (or part of an overlong
// one) with where it came from.
struct Unit {
    QString text;
    int tokens = 0;
    int page = 0;
    QString pageLabel;
    int line = 0;
    bool paragraphStart = false;
};

// Words of an overlong sentence grouped into pieces of at most `max` tokens
// (CJK text has no spaces: split by characters).
QStringList splitLong(const QString& s, int max, const TokenCounter& count)
{
    QStringList words = s.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (words.size() <= 1) {
        words.clear();
        for (const QChar c : s)
            words.append(QString(c));
    }
    QStringList out;
    QString cur;
    for (const QString& w : words) {
        const QString next =
            cur.isEmpty() ? w : cur + (s.contains(QLatin1Char(' ')) ? QStringLiteral(" ") : QString()) + w;
        if (!cur.isEmpty() && count(next) > max) {
            out.append(cur);
            cur = w;
        } else {
            cur = next;
        }
    }
    if (!cur.isEmpty())
        out.append(cur);
    return out;
}

} // namespace

QStringList splitSentences(const QString& text)
{
    static const QRegularExpression end(QStringLiteral("(?<=[.!?])\\s+(?=[\"'(\\[]?[A-Z0-9\\p{Lo}])|(?<=[。！？])"));
    QStringList out;
    for (const QString& s : text.split(end, Qt::SkipEmptyParts))
        if (const QString t = s.trimmed(); !t.isEmpty())
            out.append(t);
    return out;
}

QList<Chunk> chunkDocument(const Extracted& doc, const TokenCounter& count, const ChunkParams& params)
{
    QList<Chunk> chunks;
    QList<Unit> units; // the current section (same heading path)
    QString heading;

    auto emitSection = [&] {
        int i = 0;
        while (i < units.size()) {
            // Fill up to target, at least one unit; stop before a page
            // change once the chunk has half its size.
            int tokens = 0, j = i;
            while (j < units.size()) {
                const Unit& u = units[j];
                if (j > i && tokens + u.tokens > params.target)
                    break;
                if (j > i && u.page != units[j - 1].page && tokens >= params.target / 2)
                    break;
                tokens += u.tokens;
                ++j;
            }
            Chunk c;
            c.headingPath = heading;
            c.pageFrom = units[i].page;
            c.pageTo = units[j - 1].page;
            c.pageLabel = units[i].pageLabel;
            c.line = units[i].line;
            for (int k = i; k < j; ++k) {
                if (k > i)
                    c.text += units[k].paragraphStart ? QStringLiteral("\n\n") : QStringLiteral(" ");
                c.text += units[k].text;
            }
            c.tokens = tokens;
            chunks.append(c);
            if (j >= units.size())
                break;
            // The next chunk repeats the last sentences up to `overlap`
            // tokens (never the whole chunk, so it always moves on).
            int back = j, kept = 0;
            while (back - 1 > i && kept + units[back - 1].tokens <= params.overlap &&
                   units[back - 1].page == units[j].page) {
                kept += units[back - 1].tokens;
                --back;
            }
            i = back;
        }
        units.clear();
    };

    for (const TextBlock& b : doc.blocks) {
        const QString path = b.headings.join(QStringLiteral(" > "));
        if (b.isHeading || path != heading) {
            emitSection();
            heading = path;
            if (b.isHeading)
                continue; // the heading travels as the chunks' heading path
        }
        bool first = true;
        for (const QString& s : splitSentences(b.text)) {
            const int n = count(s);
            const QStringList pieces = n > params.max ? splitLong(s, params.max, count) : QStringList{s};
            for (const QString& p : pieces) {
                Unit u;
                u.text = p;
                u.tokens = pieces.size() == 1 ? n : count(p);
                u.page = b.page;
                u.pageLabel = b.pageLabel;
                u.line = b.line;
                u.paragraphStart = first;
                first = false;
                units.append(u);
            }
        }
    }
    emitSection();
    return chunks;
}

} // namespace documents

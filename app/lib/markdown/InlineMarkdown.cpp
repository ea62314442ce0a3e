#include "markdown/InlineMarkdown.h"

#include <QList>

namespace InlineMarkdown {
namespace {

// A piece of output: escaped HTML, or a run of delimiters (*, _ or ~) that
// may open or close emphasis. Matched runs collect the tags they produce.
struct Piece {
    QString html;
    QChar delim;
    int count = 0;
    bool canOpen = false;
    bool canClose = false;
    QString openTags;
    QString closeTags;
};

bool isPunct(QChar c)
{
    return c.isPunct() || c.isSymbol();
}

bool safeUrl(const QString& url)
{
    return url.startsWith(QLatin1String("http://")) || url.startsWith(QLatin1String("https://")) ||
           url.startsWith(QLatin1String("mailto:"));
}

QString link(const QString& url, const QString& labelHtml, const RenderStyle& style)
{
    if (!safeUrl(url))
        return labelHtml;
    return QStringLiteral("<a href=\"%1\" style=\"color:%2\">%3</a>").arg(escape(url), style.link.name(), labelHtml);
}

// Pairs delimiter runs, innermost first (CommonMark's "process emphasis",
// without the rule of three).
void matchEmphasis(QList<Piece>& pieces)
{
    for (int c = 0; c < pieces.size(); ++c) {
        while (pieces[c].count > 0 && pieces[c].canClose) {
            Piece& closer = pieces[c];
            int o = c - 1;
            while (o >= 0 && !(pieces[o].delim == closer.delim && pieces[o].canOpen && pieces[o].count > 0))
                --o;
            if (o < 0)
                break;
            Piece& opener = pieces[o];
            int use = (opener.count >= 2 && closer.count >= 2) ? 2 : 1;
            if (closer.delim == QLatin1Char('~') && use < 2)
                break;
            const QString tag = closer.delim == QLatin1Char('~') ? QStringLiteral("s")
                                : use == 2                       ? QStringLiteral("b")
                                                                 : QStringLiteral("i");
            opener.openTags.prepend(QStringLiteral("<%1>").arg(tag));
            closer.closeTags.append(QStringLiteral("</%1>").arg(tag));
            opener.count -= use;
            closer.count -= use;
            for (int k = o + 1; k < c; ++k) // delimiters inside a pair can no longer pair outside it
                pieces[k].canOpen = pieces[k].canClose = false;
        }
    }
}

struct Scanner {
    const QString& s;
    const RenderStyle& style;
    QList<Piece> pieces;

    void text(const QString& html)
    {
        if (pieces.isEmpty() || !pieces.last().delim.isNull())
            pieces.append(Piece{});
        pieces.last().html += html;
    }

    qsizetype codeSpan(qsizetype i)
    {
        qsizetype n = 0;
        while (i + n < s.size() && s[i + n] == QLatin1Char('`'))
            ++n;
        for (qsizetype j = s.indexOf(QString(n, QLatin1Char('`')), i + n); j >= 0;
             j = s.indexOf(QString(n, QLatin1Char('`')), j + 1)) {
            qsizetype run = 0;
            while (j + run < s.size() && s[j + run] == QLatin1Char('`'))
                ++run;
            if (run != n || s[j - 1] == QLatin1Char('`')) {
                j += run - 1;
                continue;
            }
            QString code = s.mid(i + n, j - i - n);
            code.replace(QLatin1Char('\n'), QLatin1Char(' '));
            if (code.size() > 2 && code.startsWith(QLatin1Char(' ')) && code.endsWith(QLatin1Char(' ')))
                code = code.mid(1, code.size() - 2);
            text(QStringLiteral("<code style=\"background-color:%1\">%2</code>")
                     .arg(style.inlineCodeBackground.name(), escape(code)));
            return j + n;
        }
        text(QString(n, QLatin1Char('`')));
        return i + n;
    }

    qsizetype bracketLink(qsizetype i)
    {
        const qsizetype close = s.indexOf(QLatin1String("]("), i + 1);
        const qsizetype end = close < 0 ? -1 : s.indexOf(QLatin1Char(')'), close + 2);
        if (close < 0 || end < 0 || s.mid(i + 1, close - i - 1).contains(QLatin1Char('['))) {
            text(QStringLiteral("["));
            return i + 1;
        }
        const QString url = s.mid(close + 2, end - close - 2).trimmed();
        text(link(url, toHtml(s.mid(i + 1, close - i - 1), style), style));
        return end + 1;
    }

    qsizetype delimiterRun(qsizetype i)
    {
        const QChar d = s[i];
        qsizetype n = 0;
        while (i + n < s.size() && s[i + n] == d)
            ++n;
        const QChar before = i > 0 ? s[i - 1] : QLatin1Char(' ');
        const QChar after = i + n < s.size() ? s[i + n] : QLatin1Char(' ');
        const bool left = !after.isSpace() && (!isPunct(after) || before.isSpace() || isPunct(before));
        const bool right = !before.isSpace() && (!isPunct(before) || after.isSpace() || isPunct(after));
        Piece p;
        p.delim = d;
        p.count = int(n);
        p.canOpen = d == QLatin1Char('_') ? left && (!right || isPunct(before)) : left;
        p.canClose = d == QLatin1Char('_') ? right && (!left || isPunct(after)) : right;
        pieces.append(p);
        return i + n;
    }

    void run()
    {
        qsizetype i = 0;
        while (i < s.size()) {
            const QChar c = s[i];
            if (c == QLatin1Char('\\') && i + 1 < s.size() && (isPunct(s[i + 1]) || s[i + 1] == QLatin1Char('\n'))) {
                text(s[i + 1] == QLatin1Char('\n') ? QStringLiteral("<br/>") : escape(QStringView(s).mid(i + 1, 1)));
                i += 2;
            } else if (c == QLatin1Char('`')) {
                i = codeSpan(i);
            } else if (c == QLatin1Char('[')) {
                i = bracketLink(i);
            } else if (c == QLatin1Char('<') && s.indexOf(QLatin1Char('>'), i) > i &&
                       safeUrl(s.mid(i + 1, s.indexOf(QLatin1Char('>'), i) - i - 1)) &&
                       !s.mid(i + 1, s.indexOf(QLatin1Char('>'), i) - i - 1).contains(QLatin1Char(' '))) {
                const qsizetype end = s.indexOf(QLatin1Char('>'), i);
                const QString url = s.mid(i + 1, end - i - 1);
                text(link(url, escape(url), style));
                i = end + 1;
            } else if (c == QLatin1Char('*') || c == QLatin1Char('_') || c == QLatin1Char('~')) {
                i = delimiterRun(i);
            } else if (c == QLatin1Char('\n')) {
                const bool hard = i >= 2 && s[i - 1] == QLatin1Char(' ') && s[i - 2] == QLatin1Char(' ');
                text(hard ? QStringLiteral("<br/>") : QStringLiteral(" "));
                ++i;
            } else {
                qsizetype j = i + 1;
                while (j < s.size() && !QStringLiteral("\\`[<*_~\n").contains(s[j]))
                    ++j;
                text(escape(QStringView(s).mid(i, j - i)));
                i = j;
            }
        }
    }
};

} // namespace

QString escape(QStringView text)
{
    QString out;
    out.reserve(text.size() + text.size() / 8);
    for (QChar c : text) {
        switch (c.unicode()) {
        case '&': out += QLatin1String("&amp;"); break;
        case '<': out += QLatin1String("&lt;"); break;
        case '>': out += QLatin1String("&gt;"); break;
        case '"': out += QLatin1String("&quot;"); break;
        default: out += c;
        }
    }
    return out;
}

QString toHtml(const QString& text, const RenderStyle& style)
{
    Scanner scanner{text, style, {}};
    scanner.run();
    matchEmphasis(scanner.pieces);
    QString html;
    for (const Piece& p : std::as_const(scanner.pieces))
        html += p.delim.isNull() ? p.html : p.closeTags + QString(p.count, p.delim) + p.openTags;
    return html;
}

} // namespace InlineMarkdown

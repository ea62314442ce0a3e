#include "documents/Citations.h"

#include "markdown/MarkdownBlocks.h"
#include "runtime/embedder.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QTextBoundaryFinder>

#include <algorithm>

namespace documents {

QString citationLabel(const Passage& p)
{
    QStringList parts{QFileInfo(p.path).fileName()};
    if (p.pageFrom > 0) {
        QString page = p.pageTo > p.pageFrom ? QStringLiteral("pp. %1–%2").arg(p.pageFrom).arg(p.pageTo)
                                             : QStringLiteral("p. %1").arg(p.pageFrom);
        if (!p.pageLabel.isEmpty() && p.pageLabel != QString::number(p.pageFrom))
            page += QStringLiteral(" (%1)").arg(p.pageLabel);
        parts << page;
    } else if (p.line > 0) {
        parts << QStringLiteral("line %1").arg(p.line);
    }
    if (!p.heading.isEmpty())
        parts << p.heading;
    return parts.join(QStringLiteral(" · "));
}

QString contextBlock(const QList<Passage>& passages)
{
    QString out;
    for (qsizetype i = 0; i < passages.size(); ++i)
        out += QStringLiteral("[%1] %2\n%3\n\n").arg(i + 1).arg(citationLabel(passages[i]), passages[i].text);
    return out.trimmed();
}

QString answerInstruction()
{
    return QStringLiteral("Answer the question using only the numbered sources below. After each fact, cite its "
                          "source as [1], [2], ... If the sources do not contain the answer, say so.");
}

CitedAnswer checkCitations(const QString& answer, int count)
{
    static const QRegularExpression marker(QStringLiteral("\\[(\\d{1,3})\\]"));
    CitedAnswer out;
    qsizetype last = 0;
    for (auto it = marker.globalMatch(answer); it.hasNext();) {
        const auto m = it.next();
        const int n = m.captured(1).toInt();
        out.text += QStringView(answer).mid(last, m.capturedStart() - last);
        if (n >= 1 && n <= count) {
            out.text += m.captured(0);
            if (!out.cited.contains(n))
                out.cited.append(n);
        } else {
            // The space before it goes too: "5 [7], see" reads "5, see".
            while (out.text.endsWith(QLatin1Char(' ')))
                out.text.chop(1);
            if (!out.dropped.contains(n))
                out.dropped.append(n);
        }
        last = m.capturedEnd();
    }
    out.text += QStringView(answer).mid(last);
    return out;
}

namespace {

bool isCjk(QChar c)
{
    const ushort u = c.unicode();
    return (u >= 0x3040 && u <= 0x9fff) || (u >= 0xac00 && u <= 0xd7af);
}

bool worthAttributing(QStringView sentence)
{
    int words = 0;
    int cjk = 0;
    bool inWord = false;
    for (QChar c : sentence) {
        if (isCjk(c)) {
            ++cjk;
            inWord = false;
        } else if (c.isLetterOrNumber()) {
            words += inWord ? 0 : 1;
            inWord = true;
        } else if (c != QLatin1Char('\'') && c != QChar(0x2019)) {
            inWord = false;
        }
    }
    return words >= 3 || cjk >= 6;
}

bool isClosing(QChar c)
{
    return QStringView(u".!?。！？…:;：；").contains(c);
}

} // namespace

QList<Span> answerSentences(const QString& answer)
{
    // Code is not prose: the blocks the reply's own Markdown parser (the
    // one that renders it) reads as code are left out.
    QList<Span> code;
    MarkdownBlocks markdown;
    markdown.reset(answer);
    const QList<MarkdownBlock>& blocks = markdown.blocks();
    for (qsizetype i = 0; i < blocks.size(); ++i)
        if (blocks[i].kind == MarkdownBlock::Kind::Code)
            code.append({blocks[i].start, i + 1 < blocks.size() ? blocks[i + 1].start : answer.size()});
    const auto inCode = [&](qsizetype at) {
        return std::any_of(code.begin(), code.end(), [at](const Span& s) { return at >= s.start && at < s.end; });
    };

    QList<Span> out;
    QTextBoundaryFinder finder(QTextBoundaryFinder::Sentence, answer);
    qsizetype start = 0;
    for (qsizetype end = finder.toNextBoundary(); end > 0; end = finder.toNextBoundary()) {
        qsizetype a = start;
        qsizetype b = end;
        start = end;
        while (a < b && answer[a].isSpace())
            ++a;
        while (b > a && answer[b - 1].isSpace())
            --b;
        if (a >= b || inCode(a) || !worthAttributing(QStringView(answer).mid(a, b - a)))
            continue;
        out.append({a, b});
    }
    return out;
}

CitedAnswer attributeCitations(const QString& answer, const QList<Span>& sentences, const QList<int>& passageOf)
{
    CitedAnswer out;
    qsizetype last = 0;
    for (qsizetype i = 0; i < sentences.size() && i < passageOf.size(); ++i) {
        const int n = passageOf[i];
        if (n <= 0)
            continue;
        qsizetype at = sentences[i].end;
        while (at > sentences[i].start && isClosing(answer[at - 1]))
            --at;
        out.text += QStringView(answer).mid(last, at - last);
        out.text += QStringLiteral(" [%1]").arg(n);
        last = at;
        if (!out.cited.contains(n))
            out.cited.append(n);
    }
    out.text += QStringView(answer).mid(last);
    return out;
}

CitedAnswer attributeCitations(hearth::Embedder& embedder, const QString& answer, const QStringList& passages)
{
    const QList<Span> sentences = answerSentences(answer);
    if (sentences.isEmpty() || passages.isEmpty())
        return {answer, {}, {}};
    std::vector<std::string> texts;
    for (const Span& s : sentences)
        texts.push_back(QStringView(answer).mid(s.start, s.end - s.start).toString().toStdString());
    for (const QString& p : passages)
        texts.push_back(p.toStdString());
    const std::vector<float> v = embedder.embed(texts); // unit vectors: a dot product is the cosine
    const auto dim = size_t(embedder.dimension());
    const size_t first = size_t(sentences.size());
    QList<int> passageOf;
    for (size_t i = 0; i < first; ++i) {
        int best = 0;
        float bestScore = kAttributionThreshold;
        for (size_t j = 0; j < size_t(passages.size()); ++j) {
            const float* a = v.data() + i * dim;
            const float* b = v.data() + (first + j) * dim;
            float dot = 0;
            for (size_t k = 0; k < dim; ++k)
                dot += a[k] * b[k];
            if (dot >= bestScore) {
                bestScore = dot;
                best = int(j + 1);
            }
        }
        passageOf.append(best);
    }
    return attributeCitations(answer, sentences, passageOf);
}

} // namespace documents

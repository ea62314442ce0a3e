#include "documents/Citations.h"

#include <QFileInfo>
#include <QRegularExpression>

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
        } else if (!out.dropped.contains(n)) {
            out.dropped.append(n);
        }
        last = m.capturedEnd();
    }
    out.text += QStringView(answer).mid(last);
    return out;
}

} // namespace documents

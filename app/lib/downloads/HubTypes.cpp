#include "HubTypes.h"

#include "gguf/split_name.h"

#include <QMap>
#include <QRegularExpression>

#include <algorithm>

qint64 ModelFileChoice::size() const
{
    qint64 total = 0;
    for (const HubFile& f : parts)
        total += f.size;
    return total;
}

namespace HubNames {

namespace {

std::optional<hearth::gguf::SplitName> splitName(const QString& path)
{
    return hearth::gguf::parseSplitName(path.toStdString());
}

} // namespace

QString quantOf(const QString& fileName)
{
    // Longest alternatives first, so that Q4_K_M is not read as Q4_K.
    static const QRegularExpression re(
        QStringLiteral("(?:^|[-_./])((?:IQ[1-4]_(?:XXS|XS|NL|S|M|L))|(?:Q[2-8]_K(?:_XL|_[SML])?)|(?:Q[4-8]_[01])|"
                       "(?:TQ[12]_0)|(?:MXFP4(?:_MOE)?)|BF16|F16|F32)(?=$|[-_./])"),
        QRegularExpression::CaseInsensitiveOption);
    QRegularExpressionMatchIterator it = re.globalMatch(fileName);
    QString last;
    while (it.hasNext())
        last = it.next().captured(1);
    return last.toUpper();
}

bool isLaterSplitPart(const QString& path)
{
    const std::optional<hearth::gguf::SplitName> split = splitName(path);
    return split && split->part > 1;
}

QList<ModelFileChoice> ggufChoices(const QList<HubFile>& files)
{
    QList<ModelFileChoice> out;
    QMap<QString, QList<HubFile>> splits; // "prefix|count" -> parts
    for (const HubFile& f : files) {
        if (!f.path.endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive))
            continue;
        if (const std::optional<hearth::gguf::SplitName> split = splitName(f.path)) {
            splits[QString::fromStdString(split->stem) + QLatin1Char('|') + QString::number(split->count)].append(f);
            continue;
        }
        out.append({f.path, quantOf(f.path), {f}});
    }
    for (auto it = splits.begin(); it != splits.end(); ++it) {
        QList<HubFile> parts = it.value();
        std::sort(parts.begin(), parts.end(), [](const HubFile& a, const HubFile& b) { return a.path < b.path; });
        const int count = it.key().section(QLatin1Char('|'), -1).toInt();
        bool complete = parts.size() == count;
        for (int i = 0; complete && i < parts.size(); ++i)
            complete = splitName(parts[i].path)->part == i + 1;
        if (complete)
            out.append({parts.front().path, quantOf(parts.front().path), parts});
    }
    std::sort(out.begin(), out.end(), [](const ModelFileChoice& a, const ModelFileChoice& b) {
        return a.size() != b.size() ? a.size() < b.size() : a.name < b.name;
    });
    return out;
}

int findChoice(const QList<ModelFileChoice>& choices, const QString& want)
{
    for (int i = 0; i < choices.size(); ++i)
        for (const HubFile& f : choices[i].parts)
            if (f.path == want || f.path.section(QLatin1Char('/'), -1) == want)
                return i;
    for (int i = 0; i < choices.size(); ++i)
        if (!choices[i].quant.isEmpty() && choices[i].quant.compare(want, Qt::CaseInsensitive) == 0)
            return i;
    return -1;
}

qint64 roughMemoryFor(qint64 fileSize)
{
    return fileSize + fileSize / 5;
}

int recommendedChoice(const QList<ModelFileChoice>& choices, qint64 availableBytes)
{
    if (choices.isEmpty())
        return -1;
    const auto fits = [&](int i) { return availableBytes <= 0 || roughMemoryFor(choices[i].size()) <= availableBytes; };
    const int q4 = findChoice(choices, QStringLiteral("Q4_K_M"));
    if (q4 >= 0 && fits(q4))
        return q4;
    int best = -1;
    for (int i = 0; i < choices.size(); ++i) // sorted by size: the last that fits is the largest
        if (fits(i))
            best = i;
    return best >= 0 ? best : 0;
}

} // namespace HubNames

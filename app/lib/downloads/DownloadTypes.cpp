#include "DownloadTypes.h"

#include <QDir>
#include <QJsonArray>

QString DownloadSpec::targetPath(int i) const
{
    return QDir(folder).filePath(parts.value(i).path.section(QLatin1Char('/'), -1));
}

qint64 DownloadSpec::totalBytes() const
{
    qint64 total = 0;
    for (const HubFile& f : parts)
        total += f.size;
    return total;
}

QJsonObject DownloadSpec::toJson() const
{
    QJsonArray files;
    for (const HubFile& f : parts)
        files.append(QJsonObject{{QStringLiteral("path"), f.path},
                                 {QStringLiteral("size"), double(f.size)},
                                 {QStringLiteral("sha256"), f.sha256}});
    return {{QStringLiteral("repo"), repo},   {QStringLiteral("revision"), revision}, {QStringLiteral("name"), name},
            {QStringLiteral("quant"), quant}, {QStringLiteral("folder"), folder},     {QStringLiteral("parts"), files}};
}

DownloadSpec DownloadSpec::fromJson(const QJsonObject& o)
{
    DownloadSpec s;
    s.repo = o.value(QLatin1String("repo")).toString();
    s.revision = o.value(QLatin1String("revision")).toString(QStringLiteral("main"));
    s.name = o.value(QLatin1String("name")).toString();
    s.quant = o.value(QLatin1String("quant")).toString();
    s.folder = o.value(QLatin1String("folder")).toString();
    for (const QJsonValue& v : o.value(QLatin1String("parts")).toArray()) {
        const QJsonObject f = v.toObject();
        s.parts.append({f.value(QLatin1String("path")).toString(), qint64(f.value(QLatin1String("size")).toDouble()),
                        f.value(QLatin1String("sha256")).toString()});
    }
    return s;
}

QString DownloadInfo::stateName(State s)
{
    switch (s) {
    case State::Queued: return QStringLiteral("queued");
    case State::Preparing: return QStringLiteral("preparing");
    case State::Running: return QStringLiteral("downloading");
    case State::Paused: return QStringLiteral("paused");
    case State::Verifying: return QStringLiteral("verifying");
    case State::Done: return QStringLiteral("done");
    case State::Failed: return QStringLiteral("failed");
    }
    return {};
}

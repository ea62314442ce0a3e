#include "remote/RemoteEndpoint.h"

#include <QNetworkRequest>
#include <QSslCertificate>
#include <QSslConfiguration>

namespace {

QString apiRoot(const QUrl& base)
{
    QString path = base.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    if (!path.endsWith(QLatin1String("/v1")))
        path += QLatin1String("/v1");
    return path;
}

} // namespace

QUrl RemoteEndpoint::apiUrl(const QString& route) const
{
    QUrl url = baseUrl;
    url.setPath(apiRoot(baseUrl) + route);
    url.setQuery(QString());
    url.setFragment(QString());
    return url;
}

QUrl RemoteEndpoint::modelUrl(const QString& modelId) const
{
    QUrl url = apiUrl(QStringLiteral("/models/"));
    // The id may hold '/' (org/name): encode it as one segment.
    url.setPath(url.path() + QString::fromLatin1(QUrl::toPercentEncoding(modelId)), QUrl::TolerantMode);
    return url;
}

QString RemoteEndpoint::modelIdOf(const QUrl& url) const
{
    const QUrl root = apiUrl(QStringLiteral("/models/"));
    if (url.scheme() != root.scheme() || url.host() != root.host() ||
        url.port(url.scheme() == QLatin1String("https") ? 443 : 80) !=
            root.port(root.scheme() == QLatin1String("https") ? 443 : 80))
        return {};
    const QString encoded = url.path(QUrl::FullyEncoded);
    const QString prefix = root.path(QUrl::FullyEncoded);
    if (!encoded.startsWith(prefix) || encoded.size() == prefix.size())
        return {};
    return QUrl::fromPercentEncoding(encoded.mid(prefix.size()).toLatin1());
}

QString RemoteEndpoint::label() const
{
    const QString where =
        baseUrl.port() > 0 ? QStringLiteral("%1:%2").arg(baseUrl.host()).arg(baseUrl.port()) : baseUrl.host();
    return name.isEmpty() || name == where ? where : QStringLiteral("%1 (%2)").arg(name, where);
}

QNetworkRequest RemoteEndpoint::request(const QString& route) const
{
    QNetworkRequest r(apiUrl(route));
    r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    r.setRawHeader("Accept", "application/json, text/event-stream");
    r.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    for (const auto& [name, value] : headers)
        r.setRawHeader(name, value);
    if (!apiKey.isEmpty())
        r.setRawHeader("Authorization", "Bearer " + apiKey.toUtf8());
    if (baseUrl.scheme() == QLatin1String("https")) {
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.setPeerVerifyMode(QSslSocket::VerifyPeer); // always: never turned off
        if (!caCertificates.isEmpty()) {
            QList<QSslCertificate> cas = tls.caCertificates();
            cas += QSslCertificate::fromData(caCertificates, QSsl::Pem);
            tls.setCaCertificates(cas);
        }
        r.setSslConfiguration(tls);
    }
    return r;
}

QString RemoteEndpoint::validateBaseUrl(const QUrl& url)
{
    if (!url.isValid())
        return QStringLiteral("'%1' is not a valid URL.").arg(url.toString());
    if (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
        return QStringLiteral("'%1' must start with http:// or https://.").arg(url.toString());
    if (url.host().isEmpty())
        return QStringLiteral("'%1' names no host.").arg(url.toString());
    if (!url.userInfo().isEmpty())
        return QStringLiteral("Put the API key in its own field, not in the URL.");
    return {};
}

QString RemoteEndpoint::parseHeaders(const QString& text, QList<QPair<QByteArray, QByteArray>>& out)
{
    out.clear();
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        const QString name = colon > 0 ? line.first(colon).trimmed() : QString();
        static const QString token = QStringLiteral("!#$%&'*+-.^_`|~");
        bool ok = !name.isEmpty();
        for (QChar c : name)
            ok = ok && c.unicode() < 128 && (c.isLetterOrNumber() || token.contains(c));
        if (!ok)
            return QStringLiteral("Header line %1 is not 'Name: value': %2").arg(i + 1).arg(line);
        if (name.compare(QLatin1String("Authorization"), Qt::CaseInsensitive) == 0)
            return QStringLiteral("Header line %1: put the key in the API key field (kept in the keychain).")
                .arg(i + 1);
        out.append({name.toLatin1(), line.mid(colon + 1).trimmed().toUtf8()});
    }
    return {};
}

QString RemoteEndpoint::headersText(const QList<QPair<QByteArray, QByteArray>>& headers)
{
    QStringList lines;
    for (const auto& [name, value] : headers)
        lines.append(QString::fromLatin1(name) + QStringLiteral(": ") + QString::fromUtf8(value));
    return lines.join(QLatin1Char('\n'));
}

bool isRemoteModelPath(const QString& path)
{
    return path.startsWith(QLatin1String("http://")) || path.startsWith(QLatin1String("https://"));
}

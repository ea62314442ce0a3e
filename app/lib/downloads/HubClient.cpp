#include "HubClient.h"

#include "AppInfo.h"
#include "engine/FitEstimator.h"
#include "engine/HeaderFacts.h"
#include "gauges/SystemMemory.h"
#include "gguf/gguf.h"
#include "gguf/model_info.h"
#include "util/error.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QRegularExpression>
#include <QTimer>
#include <QUrlQuery>

#include <algorithm>

namespace {

constexpr qint64 kFirstProbeBytes = 64 * 1024;
constexpr qint64 kMaxHeaderBytes = 64 * 1024 * 1024;
// The context the fit estimate assumes: the trained one, at most this.
constexpr int kFitContext = 8192;

QString tr(const char* text)
{
    return QCoreApplication::translate("HubClient", text);
}

bool validRepoId(const QString& repo)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+$"));
    return re.match(repo).hasMatch() && !repo.contains(QLatin1String(".."));
}

HubError invalidRepo(const QString& repo)
{
    return {HubErrorKind::Invalid, tr("'%1' is not a repository id (expected OWNER/NAME).").arg(repo)};
}

QDateTime parseTime(const QJsonValue& v)
{
    QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
    if (!t.isValid())
        t = QDateTime::fromString(v.toString(), Qt::ISODate);
    return t.toUTC();
}

HubFile fileFrom(const QJsonObject& o, const QString& nameKey)
{
    HubFile f;
    f.path = o.value(nameKey).toString();
    const QJsonObject lfs = o.value(QLatin1String("lfs")).toObject();
    f.size = qint64(o.value(QLatin1String("size")).toDouble(lfs.value(QLatin1String("size")).toDouble()));
    f.sha256 = lfs.value(QLatin1String("sha256")).toString(lfs.value(QLatin1String("oid")).toString()).toLower();
    return f;
}

// Reads a finished reply's JSON body, or says why it is not JSON.
QJsonDocument jsonOf(QNetworkReply* reply, HubError& error, const QString& what)
{
    QJsonParseError pe;
    QJsonDocument doc = QJsonDocument::fromJson(reply->readAll(), &pe);
    if (pe.error != QJsonParseError::NoError)
        error = {HubErrorKind::Invalid, tr("The hub's answer for %1 is not JSON (%2).").arg(what, pe.errorString())};
    return doc;
}

} // namespace

HubClient::HubClient(QObject* parent)
    : QObject(parent)
    , m_network(new QNetworkAccessManager(this))
    , m_endpoint(defaultEndpoint())
    , m_token(qEnvironmentVariable("HF_TOKEN"))
{
}

QUrl HubClient::defaultEndpoint()
{
    const QString env = qEnvironmentVariable("HF_ENDPOINT").trimmed();
    QString url = env.isEmpty() ? QStringLiteral("https://huggingface.co") : env;
    while (url.endsWith(QLatin1Char('/')))
        url.chop(1);
    return QUrl(url);
}

QUrl HubClient::resolveUrl(const QString& repo, const QString& revision, const QString& path) const
{
    QUrl url = m_endpoint;
    url.setPath(url.path() + QLatin1Char('/') + repo + QLatin1String("/resolve/") +
                QString::fromLatin1(QUrl::toPercentEncoding(revision)) + QLatin1Char('/') + path);
    return url;
}

QNetworkRequest HubClient::request(const QUrl& url) const
{
    QNetworkRequest r(url);
    r.setHeader(QNetworkRequest::UserAgentHeader, QStringLiteral("Hearth/%1").arg(AppInfo::version()));
    // The token goes only to the hub's own host, never to a CDN it redirects to.
    if (!m_token.isEmpty() && url.host() == m_endpoint.host() && url.port() == m_endpoint.port())
        r.setRawHeader("Authorization", "Bearer " + m_token.toUtf8());
    r.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    return r;
}

QNetworkReply* HubClient::get(const QNetworkRequest& request)
{
    QNetworkReply* reply = m_network->sendCustomRequest(request, "GET");
    auto* watchdog = new QTimer(reply);
    watchdog->setSingleShot(true);
    watchdog->setInterval(m_stallTimeoutMs);
    connect(watchdog, &QTimer::timeout, reply, [reply] {
        reply->setProperty("hearthStalled", true);
        reply->abort();
    });
    const auto alive = [watchdog] { watchdog->start(); };
    connect(reply, &QNetworkReply::metaDataChanged, watchdog, alive);
    connect(reply, &QNetworkReply::readyRead, watchdog, alive);
    connect(reply, &QNetworkReply::redirected, watchdog, alive);
    connect(reply, &QNetworkReply::finished, watchdog, &QTimer::stop);
    watchdog->start();
    return reply;
}

HubError HubClient::errorOf(QNetworkReply* reply, const QString& what) const
{
    const QString host = reply->url().host().isEmpty() ? m_endpoint.host() : reply->url().host();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray code = reply->rawHeader("X-Error-Code");
    if (status == 401 || status == 403) {
        if (m_token.isEmpty())
            return {HubErrorKind::Auth, tr("%1 is gated or private: the hub answered HTTP %2. Enter a Hugging Face "
                                           "access token that can read it (or set HF_TOKEN).")
                                            .arg(what)
                                            .arg(status)};
        return {HubErrorKind::Auth, tr("The hub refused the token for %1 (HTTP %2): check that it is valid and "
                                       "that its account has accepted the repository's terms.")
                                        .arg(what)
                                        .arg(status)};
    }
    if (status == 404) {
        if (code == "RevisionNotFound")
            return {HubErrorKind::NotFound, tr("%1: no such revision on %2.").arg(what, host)};
        if (code == "EntryNotFound")
            return {HubErrorKind::NotFound, tr("%1 was not found in the repository on %2.").arg(what, host)};
        return {HubErrorKind::NotFound, tr("%1 was not found on %2 (HTTP 404).").arg(what, host)};
    }
    if (status == 416)
        return {HubErrorKind::Invalid, tr("%1: %2 refused the byte range asked for (HTTP 416).").arg(what, host)};
    if (status >= 400)
        return {HubErrorKind::Network,
                tr("%1: %2 answered HTTP %3 %4.")
                    .arg(what, host)
                    .arg(status)
                    .arg(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString())};
    switch (reply->error()) {
    case QNetworkReply::NoError: return {};
    case QNetworkReply::OperationCanceledError:
    case QNetworkReply::TimeoutError:
        if (reply->property("hearthCancelled").toBool() && !reply->property("hearthStalled").toBool())
            return {HubErrorKind::Cancelled, tr("%1: cancelled.").arg(what)};
        return {HubErrorKind::Timeout, tr("%1: %2 sent nothing for %3 s; the download stopped.")
                                           .arg(what, host)
                                           .arg(m_stallTimeoutMs / 1000.0, 0, 'g', 3)};
    case QNetworkReply::HostNotFoundError:
        return {HubErrorKind::Network, tr("Cannot find the host %1 (DNS lookup failed): check the network "
                                          "connection or HF_ENDPOINT.")
                                           .arg(host)};
    case QNetworkReply::ConnectionRefusedError:
        return {HubErrorKind::Network, tr("%1 refused the connection (%2).").arg(host, what)};
    case QNetworkReply::RemoteHostClosedError:
        return {HubErrorKind::Network, tr("%1 closed the connection (%2).").arg(host, what)};
    case QNetworkReply::SslHandshakeFailedError:
        return {HubErrorKind::Network,
                tr("The TLS (HTTPS) handshake with %1 failed: %2.").arg(host, reply->errorString())};
    default: return {HubErrorKind::Network, tr("%1: %2.").arg(what, reply->errorString())};
    }
}

void HubClient::search(const QString& query, Sort sort, int limit,
                       std::function<void(const HubResult<QList<HubModel>>&)> done)
{
    QUrl url = m_endpoint;
    url.setPath(url.path() + QLatin1String("/api/models"));
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("search"), query);
    q.addQueryItem(QStringLiteral("filter"), QStringLiteral("gguf"));
    q.addQueryItem(QStringLiteral("sort"), sort == Sort::Updated ? QStringLiteral("lastModified")
                                           : sort == Sort::Likes ? QStringLiteral("likes")
                                                                 : QStringLiteral("downloads"));
    q.addQueryItem(QStringLiteral("direction"), QStringLiteral("-1"));
    q.addQueryItem(QStringLiteral("limit"), QString::number(std::clamp(limit, 1, 100)));
    for (const char* field : {"downloads", "likes", "lastModified", "gated", "private"})
        q.addQueryItem(QStringLiteral("expand[]"), QString::fromLatin1(field));
    url.setQuery(q);
    QNetworkReply* reply = get(request(url));
    connect(reply, &QNetworkReply::finished, this, [this, reply, query, done] {
        reply->deleteLater();
        HubResult<QList<HubModel>> result;
        const QString what = tr("the search for '%1'").arg(query);
        result.error = errorOf(reply, what);
        if (result.ok()) {
            const QJsonDocument doc = jsonOf(reply, result.error, what);
            if (result.ok() && !doc.isArray())
                result.error = {HubErrorKind::Invalid, tr("The hub's answer for %1 is not a list.").arg(what)};
            for (const QJsonValue& v : doc.array()) {
                const QJsonObject o = v.toObject();
                HubModel m;
                m.id = o.value(QLatin1String("id")).toString(o.value(QLatin1String("modelId")).toString());
                if (m.id.isEmpty())
                    continue;
                m.downloads = qint64(o.value(QLatin1String("downloads")).toDouble());
                m.likes = qint64(o.value(QLatin1String("likes")).toDouble());
                m.lastModified = parseTime(o.value(QLatin1String("lastModified")));
                const QJsonValue gated = o.value(QLatin1String("gated"));
                m.gated = gated.isString() ? gated.toString() != QLatin1String("false") : gated.toBool();
                m.isPrivate = o.value(QLatin1String("private")).toBool();
                result.value.append(m);
            }
        }
        done(result);
    });
}

void HubClient::listFiles(const QString& repo, const QString& revision,
                          std::function<void(const HubResult<RepoFiles>&)> done)
{
    if (!validRepoId(repo)) {
        done({{}, invalidRepo(repo)});
        return;
    }
    QUrl url = m_endpoint;
    url.setPath(url.path() + QLatin1String("/api/models/") + repo + QLatin1String("/revision/") +
                QString::fromLatin1(QUrl::toPercentEncoding(revision)));
    url.setQuery(QStringLiteral("blobs=true"));
    QNetworkReply* reply = get(request(url));
    connect(reply, &QNetworkReply::finished, this, [this, reply, repo, revision, done] {
        reply->deleteLater();
        HubResult<RepoFiles> result;
        const QString what = tr("The repository %1").arg(repo);
        result.error = errorOf(reply, what);
        if (result.ok()) {
            const QJsonObject o = jsonOf(reply, result.error, what).object();
            result.value.repo = repo;
            result.value.revision = revision;
            result.value.commit = o.value(QLatin1String("sha")).toString();
            for (const QJsonValue& v : o.value(QLatin1String("siblings")).toArray())
                result.value.files.append(fileFrom(v.toObject(), QStringLiteral("rfilename")));
            if (result.ok() && !o.contains(QLatin1String("siblings")))
                result.error = {HubErrorKind::Invalid, tr("The hub did not list the files of %1.").arg(repo)};
        }
        done(result);
    });
}

struct HubClient::Probe {
    QString repo, revision;
    ModelFileChoice choice;
    qsizetype part = 0;      // the part whose header is being read
    QList<QByteArray> heads; // each part's first bytes, up to `part`
    qint64 want = kFirstProbeBytes;
    std::function<void(const HubResult<HeaderProbe>&)> done;
    QByteArray& bytes() { return heads[part]; }
    const HubFile& file() const { return choice.parts[part]; }
};

void HubClient::probeHeader(const QString& repo, const QString& revision, const ModelFileChoice& choice,
                            std::function<void(const HubResult<HeaderProbe>&)> done)
{
    if (!validRepoId(repo)) {
        done({{}, invalidRepo(repo)});
        return;
    }
    if (choice.parts.isEmpty()) {
        done({{}, {HubErrorKind::Invalid, tr("No file was chosen in %1.").arg(repo)}});
        return;
    }
    auto probe = std::make_shared<Probe>();
    probe->repo = repo;
    probe->revision = revision;
    probe->choice = choice;
    probe->heads.append(QByteArray());
    probe->want = std::min(kFirstProbeBytes, choice.parts.front().size);
    probe->done = std::move(done);
    probeStep(probe, {}, 0);
}

void HubClient::probeStep(const std::shared_ptr<Probe>& probe, const QUrl& url, int redirects)
{
    QNetworkRequest r = request(url.isEmpty() ? resolveUrl(probe->repo, probe->revision, probe->file().path) : url);
    // Redirects are followed here, so that the token stays with the hub.
    r.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    const qint64 from = probe->bytes().size();
    r.setRawHeader("Range", QStringLiteral("bytes=%1-%2").arg(from).arg(probe->want - 1).toLatin1());
    QNetworkReply* reply = get(r);
    // A server that ignores Range sends the whole file: stop once enough came.
    connect(reply, &QNetworkReply::readyRead, this, [reply, probe, from] {
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        if (status == 200 && from == 0 && reply->bytesAvailable() >= probe->want) {
            reply->setProperty("hearthEnough", true);
            probe->bytes() = reply->read(probe->want);
            reply->abort();
        }
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, probe, redirects] {
        reply->deleteLater();
        const QString what = tr("%1 in %2").arg(probe->file().path, probe->repo);
        const int code = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QUrl location = reply->attribute(QNetworkRequest::RedirectionTargetAttribute).toUrl();
        if (code >= 300 && code < 400 && location.isValid() && redirects < 10) {
            probeStep(probe, reply->url().resolved(location), redirects + 1);
            return;
        }
        if (!reply->property("hearthEnough").toBool()) {
            const HubError error = errorOf(reply, what);
            if (!error.ok()) {
                probe->done({{}, error});
                return;
            }
            const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
            const QByteArray body = reply->readAll();
            if (status == 200)
                probe->bytes() = body.left(probe->want);
            else
                probe->bytes().append(body);
        }
        const qint64 total = probe->file().size;
        try {
            // This part's header alone first: a short one asks for more of it.
            const auto* data = reinterpret_cast<const uint8_t*>(probe->bytes().constData());
            (void)hearth::gguf::File::fromPrefix(probe->file().path.toStdString(),
                                                 {data, size_t(probe->bytes().size())}, uint64_t(total));
            if (probe->part + 1 < probe->choice.parts.size()) {
                // A split set: every part's header lists its own tensors.
                ++probe->part;
                probe->heads.append(QByteArray());
                probe->want = std::min(kFirstProbeBytes, probe->file().size);
                probeStep(probe, {}, 0);
                return;
            }
            std::vector<hearth::gguf::File::PartPrefix> parts;
            qint64 bytesRead = 0;
            for (qsizetype i = 0; i < probe->heads.size(); ++i) {
                const QByteArray& head = probe->heads[i];
                parts.push_back({probe->choice.parts[i].path.toStdString(),
                                 {reinterpret_cast<const uint8_t*>(head.constData()), size_t(head.size())},
                                 uint64_t(probe->choice.parts[i].size)});
                bytesRead += head.size();
            }
            const hearth::gguf::File file = hearth::gguf::File::fromPrefixes(parts);
            const hearth::gguf::ModelInfo info = hearth::gguf::summarize(file);
            if (info.architecture.empty() || info.tensorCount == 0)
                throw hearth::Error("it names no model architecture or holds no tensors");
            const int ctx = std::min<int>(HeaderFacts::effectiveContext(info, 0), kFitContext);
            HeaderProbe out;
            out.facts = HeaderFacts::factsFrom(info, ctx);
            out.facts.path = probe->choice.name;
            out.fit = fitOf(file, info, ctx);
            out.bytesRead = bytesRead;
            probe->done({out, {}});
        } catch (const hearth::gguf::IncompleteHeader& e) {
            const qint64 next = std::max<qint64>(qint64(e.needed), probe->want * 2);
            if (qint64(e.needed) > kMaxHeaderBytes || probe->want >= total) {
                probe->done(
                    {{},
                     {HubErrorKind::Invalid,
                      tr("%1: its GGUF header is larger than %2 MiB; refused.").arg(what).arg(kMaxHeaderBytes >> 20)}});
                return;
            }
            probe->want = std::min({next, total, kMaxHeaderBytes});
            probeStep(probe, {}, 0);
        } catch (const hearth::Error& e) {
            probe->done({{},
                         {HubErrorKind::Invalid,
                          tr("%1 is not a valid GGUF model: %2").arg(what, QString::fromStdString(e.what()))}});
        }
    });
}

FitEstimate HubClient::fitOf(const hearth::gguf::File& file, const hearth::gguf::ModelInfo& info, int contextSize) const
{
    try {
        const hearth::DeviceBudget device = m_fitDevice ? *m_fitDevice : FitEstimator::deviceFor(m_fitGpuLayers);
        return FitEstimator::estimate(file, contextSize, m_fitGpuLayers, device, SystemMemory::availableBytes());
    } catch (const hearth::Error&) {
        // A model this engine cannot place (an architecture it does not run):
        // the header's own figures, in RAM.
        return HeaderFacts::estimateFor(info, contextSize);
    }
}

#include "DownloadManager.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QFuture>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLockFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPointer>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStorageInfo>
#include <QTimer>
#include <QtConcurrent>

#include <deque>

namespace {

using State = DownloadInfo::State;

QString partPath(const QString& target)
{
    return target + QLatin1String(".part");
}

QString sidecarPath(const QString& target)
{
    return target + QLatin1String(".part.json");
}

QString sizeText(qint64 bytes)
{
    if (bytes >= qint64(1) << 30)
        return QStringLiteral("%1 GB").arg(double(bytes) / 1e9, 0, 'f', 2);
    if (bytes >= qint64(1) << 20)
        return QStringLiteral("%1 MB").arg(double(bytes) / 1e6, 0, 'f', 1);
    return QStringLiteral("%1 KB").arg(double(bytes) / 1e3, 0, 'f', 1);
}

// Hashes the first `bytes` of `path` (what an earlier run left in a .part).
std::shared_ptr<QCryptographicHash> hashPrefix(const QString& path, qint64 bytes)
{
    auto hash = std::make_shared<QCryptographicHash>(QCryptographicHash::Sha256);
    QFile f(path);
    if (bytes == 0 || !f.open(QIODevice::ReadOnly))
        return bytes == 0 ? hash : nullptr;
    QByteArray block;
    qint64 left = bytes;
    while (left > 0) {
        block = f.read(std::min<qint64>(left, 4 << 20));
        if (block.isEmpty())
            return nullptr;
        hash->addData(block);
        left -= block.size();
    }
    return hash;
}

// The sidecar names the hub object a .part belongs to; a .part without one,
// or for another object (the file changed on the hub), starts over.
bool sidecarMatches(const QString& target, const HubFile& file)
{
    QFile f(sidecarPath(target));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    return o.value(QLatin1String("sha256")).toString() == file.sha256 &&
           qint64(o.value(QLatin1String("size")).toDouble()) == file.size;
}

bool writeSidecar(const QString& target, const DownloadSpec& spec, const HubFile& file)
{
    QSaveFile f(sidecarPath(target));
    if (!f.open(QIODevice::WriteOnly))
        return false;
    const QJsonObject o{{QStringLiteral("repo"), spec.repo},
                        {QStringLiteral("revision"), spec.revision},
                        {QStringLiteral("path"), file.path},
                        {QStringLiteral("size"), double(file.size)},
                        {QStringLiteral("sha256"), file.sha256}};
    f.write(QJsonDocument(o).toJson(QJsonDocument::Compact));
    return f.commit();
}

bool complete(const QString& path, qint64 size)
{
    const QFileInfo fi(path);
    return fi.isFile() && fi.size() == size;
}

} // namespace

struct DownloadManager::Task {
    DownloadInfo info;
    bool started = false; // holds one of the maxConcurrent slots
    int part = 0;         // the part being fetched
    qint64 doneBytes = 0; // of the parts before it
    qint64 partBytes = 0; // of this part on disk
    qint64 from = 0;      // where the current request started
    bool checkedStatus = false;
    int redirects = 0;  // followed for the current request
    int generation = 0; // bumped whenever a transfer stops: late callbacks see a new number
    int retriesWithoutProgress = 0;
    qint64 progressAtRetry = -1;
    QPointer<QNetworkReply> reply;
    std::unique_ptr<QFileDevice> sink;
    std::shared_ptr<QCryptographicHash> hash;
    qint64 hashed = 0; // bytes of this part in `hash`
    std::unique_ptr<QLockFile> lock;
    QElapsedTimer clock, sinceReport;
    std::deque<std::pair<qint64, qint64>> samples; // (ms, received)

    const HubFile& file() const { return info.spec.parts[part]; }
    QString target() const { return info.spec.targetPath(part); }
};

DownloadManager::DownloadManager(HubClient* hub, QObject* parent) : QObject(parent), m_hub(hub)
{
    qRegisterMetaType<DownloadInfo>();
}

DownloadManager::~DownloadManager()
{
    for (auto& [id, t] : m_tasks)
        stopTransfer(*t);
}

void DownloadManager::setMaxConcurrent(int n)
{
    m_maxConcurrent = std::max(1, n);
    schedule();
}

DownloadManager::Task* DownloadManager::find(const QString& id) const
{
    const auto it = m_tasks.find(id);
    return it == m_tasks.end() ? nullptr : it->second.get();
}

QList<DownloadInfo> DownloadManager::downloads() const
{
    QList<DownloadInfo> out;
    for (const QString& id : m_order)
        out.append(find(id)->info);
    return out;
}

DownloadInfo DownloadManager::info(const QString& id) const
{
    const Task* t = find(id);
    return t ? t->info : DownloadInfo{};
}

static qint64 bytesOnDisk(const DownloadSpec& spec)
{
    qint64 total = 0;
    for (int i = 0; i < spec.parts.size(); ++i) {
        const QString target = spec.targetPath(i);
        total += complete(target, spec.parts[i].size)
                     ? spec.parts[i].size
                     : std::min(QFileInfo(partPath(target)).size(), spec.parts[i].size);
    }
    return total;
}

QString DownloadManager::start(const DownloadSpec& spec)
{
    const QString id = spec.id();
    if (Task* t = find(id)) {
        if (t->info.state == State::Paused || t->info.state == State::Failed)
            resume(id);
        return id;
    }
    auto t = std::make_unique<Task>();
    t->info.id = id;
    t->info.spec = spec;
    t->info.total = spec.totalBytes();
    t->info.received = bytesOnDisk(spec);
    Task& task = *t;
    m_tasks.emplace(id, std::move(t));
    m_order.append(id);
    if (spec.parts.isEmpty() || spec.folder.isEmpty()) {
        fail(task, {HubErrorKind::Invalid, tr("Nothing to download for %1.").arg(spec.repo)}, false);
        return id;
    }
    report(task, true);
    save();
    schedule();
    return id;
}

void DownloadManager::schedule()
{
    int running = 0;
    for (const auto& [id, t] : m_tasks)
        running += t->started ? 1 : 0;
    for (const QString& id : m_order) {
        if (running >= m_maxConcurrent)
            return;
        Task& t = *find(id);
        if (t.info.state == State::Queued && !t.started) {
            ++running;
            begin(t);
        }
    }
}

void DownloadManager::begin(Task& t)
{
    t.started = true;
    t.info.error = {};
    setState(t, State::Preparing);
    const DownloadSpec& spec = t.info.spec;
    if (!QDir().mkpath(spec.folder)) {
        fail(t, {HubErrorKind::Disk, tr("Cannot create the folder %1.").arg(spec.folder)}, false);
        return;
    }
    t.lock = std::make_unique<QLockFile>(partPath(spec.targetPath(0)) + QLatin1String(".lock"));
    if (!t.lock->tryLock(0)) {
        t.lock.reset();
        fail(t, {HubErrorKind::Invalid, tr("%1 is being downloaded by another Hearth process.").arg(spec.name)}, false);
        return;
    }
    for (int i = 0; i < spec.parts.size(); ++i) {
        const QString target = spec.targetPath(i);
        if (!complete(target, spec.parts[i].size) && !sidecarMatches(target, spec.parts[i]))
            QFile::remove(partPath(target));
    }
    t.info.received = bytesOnDisk(spec);
    const qint64 need = spec.totalBytes() - t.info.received;
    const qint64 free = m_freeSpace ? m_freeSpace(spec.folder) : QStorageInfo(spec.folder).bytesAvailable();
    if (free >= 0 && need > free) {
        fail(t,
             {HubErrorKind::Disk, tr("Not enough disk space for %1: it needs %2 more, and %3 is free in %4.")
                                      .arg(spec.name, sizeText(need), sizeText(free), spec.folder)},
             false);
        return;
    }
    t.part = 0;
    t.doneBytes = 0;
    t.hash.reset();
    t.hashed = 0;
    t.clock.start();
    t.samples.clear();
    startPart(t);
}

void DownloadManager::startPart(Task& t)
{
    const DownloadSpec& spec = t.info.spec;
    while (t.part < spec.parts.size() && complete(t.target(), t.file().size)) {
        t.doneBytes += t.file().size;
        ++t.part;
        t.hash.reset();
        t.hashed = 0;
    }
    if (t.part == spec.parts.size()) {
        commit(t);
        return;
    }
    const QString target = t.target();
    qint64 onDisk = QFileInfo(partPath(target)).size();
    if (onDisk > t.file().size) {
        QFile::remove(partPath(target));
        onDisk = 0;
    }
    if (!writeSidecar(target, spec, t.file())) {
        fail(t, {HubErrorKind::Disk, tr("Cannot write %1.").arg(sidecarPath(target))}, false);
        return;
    }
    t.partBytes = onDisk;
    if (!t.hash || t.hashed != onDisk) {
        // Hash what an earlier run (or try) left before appending to it.
        setState(t, State::Preparing);
        const QString id = t.info.id;
        const int generation = t.generation;
        QtConcurrent::run(hashPrefix, partPath(target), onDisk)
            .then(this, [this, id, generation, onDisk](std::shared_ptr<QCryptographicHash> hash) {
                Task* task = find(id);
                if (!task || task->generation != generation)
                    return;
                task->hash = hash ? hash : std::make_shared<QCryptographicHash>(QCryptographicHash::Sha256);
                task->hashed = hash ? onDisk : 0;
                if (!hash)
                    QFile::remove(partPath(task->target()));
                startPart(*task);
            });
        return;
    }
    if (onDisk == t.file().size) {
        finishPart(t);
        return;
    }
    request(t, onDisk);
}

void DownloadManager::request(Task& t, qint64 from)
{
    const QString path = partPath(t.target());
    t.sink = m_sinkFactory ? m_sinkFactory(path) : std::make_unique<QFile>(path);
    if (!t.sink->open(QIODevice::WriteOnly | QIODevice::Append)) {
        fail(t, {HubErrorKind::Disk, tr("Cannot write %1: %2.").arg(path, t.sink->errorString())}, false);
        return;
    }
    t.from = from;
    t.redirects = 0;
    send(t, m_hub->resolveUrl(t.info.spec.repo, t.info.spec.revision, t.file().path));
}

void DownloadManager::send(Task& t, const QUrl& url)
{
    QNetworkRequest r = m_hub->request(url);
    // Redirects are followed here, not by QtNetwork, which would silently
    // send a dropped redirected request again from its start.
    r.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    if (t.from > 0)
        r.setRawHeader("Range", "bytes=" + QByteArray::number(t.from) + '-');
    // A connection of its own: QtNetwork re-sends a request that met a
    // kept-alive connection as the server closed it, and a dropped transfer
    // must fail here (to resume from the bytes on disk), not start over.
    r.setRawHeader("Connection", "close");
    t.checkedStatus = false;
    QNetworkReply* reply = m_hub->get(r);
    t.reply = reply;
    const QString id = t.info.id;
    const int generation = t.generation;
    connect(reply, &QNetworkReply::readyRead, this, [this, id, generation] {
        if (Task* task = find(id); task && task->generation == generation)
            onData(*task);
    });
    connect(reply, &QNetworkReply::finished, this, [this, id, generation, reply] {
        reply->deleteLater();
        if (Task* task = find(id); task && task->generation == generation)
            onFinished(*task);
    });
    setState(t, State::Running);
}

void DownloadManager::onData(Task& t)
{
    QNetworkReply* reply = t.reply;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status >= 300)
        return; // a redirect or an error page: onFinished() handles it
    if (!t.checkedStatus) {
        t.checkedStatus = true;
        if (status == 206) {
            static const QRegularExpression range(QStringLiteral("^bytes (\\d+)-"));
            const QRegularExpressionMatch m = range.match(QString::fromLatin1(reply->rawHeader("Content-Range")));
            if (!m.hasMatch() || m.captured(1).toLongLong() != t.from) {
                fail(t,
                     {HubErrorKind::Invalid,
                      tr("%1: the server sent another byte range than the one asked for.").arg(t.file().path)},
                     false);
                return;
            }
        } else if (t.from > 0) {
            // The server ignored Range: the whole file comes again.
            t.sink->resize(0);
            t.sink->seek(0);
            t.hash = std::make_shared<QCryptographicHash>(QCryptographicHash::Sha256);
            t.hashed = t.partBytes = 0;
        }
    }
    const QByteArray data = reply->readAll();
    if (t.partBytes + data.size() > t.file().size) {
        fail(t,
             {HubErrorKind::Invalid,
              tr("%1: the server sent more than the %2 bytes the hub lists.").arg(t.file().path).arg(t.file().size)},
             true);
        return;
    }
    if (t.sink->write(data) != data.size()) {
        const QString why = t.sink->errorString();
        fail(t,
             {HubErrorKind::Disk, tr("Cannot write %1 (%2): is the disk full? The partial download was deleted.")
                                      .arg(partPath(t.target()), why)},
             true);
        return;
    }
    t.hash->addData(data);
    t.hashed += data.size();
    t.partBytes += data.size();
    report(t, false);
}

void DownloadManager::onFinished(Task& t)
{
    QNetworkReply* reply = t.reply;
    const int code = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QUrl location = reply->attribute(QNetworkRequest::RedirectionTargetAttribute).toUrl();
    if (code >= 300 && code < 400 && location.isValid()) {
        if (++t.redirects > 10) {
            fail(t, {HubErrorKind::Network, tr("%1: too many redirects.").arg(t.file().path)}, false);
            return;
        }
        send(t, reply->url().resolved(location));
        return;
    }
    const HubError error = m_hub->errorOf(reply, tr("%1 in %2").arg(t.file().path, t.info.spec.repo));
    if (error.ok())
        onData(t);
    if (find(t.info.id) != &t || !t.reply)
        return; // onData() failed the download
    t.reply = nullptr;
    if (t.sink && !t.sink->flush() && error.ok()) {
        fail(t, {HubErrorKind::Disk, tr("Cannot write %1: %2.").arg(partPath(t.target()), t.sink->errorString())},
             true);
        return;
    }
    t.sink.reset();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 416 && t.from > 0) {
        // The range is past the end: the .part is not what we thought. Start over.
        QFile::remove(partPath(t.target()));
        t.hash.reset();
        retryOrFail(t, error);
        return;
    }
    if (!error.ok()) {
        if (error.kind == HubErrorKind::Network || error.kind == HubErrorKind::Timeout)
            retryOrFail(t, error);
        else // nothing to resume from if nothing arrived
            fail(t, error, bytesOnDisk(t.info.spec) == 0);
        return;
    }
    if (t.partBytes < t.file().size) {
        retryOrFail(t,
                    {HubErrorKind::Network, tr("%1: the connection ended after %2 of %3.")
                                                .arg(t.file().path, sizeText(t.partBytes), sizeText(t.file().size))});
        return;
    }
    finishPart(t);
}

void DownloadManager::retryOrFail(Task& t, const HubError& error)
{
    if (t.info.received > t.progressAtRetry) {
        t.progressAtRetry = t.info.received;
        t.retriesWithoutProgress = 0;
    }
    if (t.retriesWithoutProgress >= m_maxRetries) {
        const int percent = t.info.total > 0 ? int(100 * t.info.received / t.info.total) : 0;
        const bool nothing = bytesOnDisk(t.info.spec) == 0;
        fail(t,
             {error.kind, nothing ? error.message
                                  : error.message + QLatin1Char(' ') + tr("Resume to continue from %1%.").arg(percent)},
             nothing);
        return;
    }
    ++t.retriesWithoutProgress;
    ++t.info.retries;
    ++t.generation;
    setState(t, State::Queued);
    const QString id = t.info.id;
    const int generation = t.generation;
    const int delay = m_retryDelayMs * (1 << std::min(t.retriesWithoutProgress - 1, 5));
    QTimer::singleShot(delay, this, [this, id, generation] {
        if (Task* task = find(id); task && task->generation == generation && task->started)
            startPart(*task);
    });
}

void DownloadManager::finishPart(Task& t)
{
    setState(t, State::Verifying);
    const QString digest = QString::fromLatin1(t.hash->result().toHex());
    const QString& expected = t.file().sha256;
    if (!expected.isEmpty() && digest != expected) {
        fail(t,
             {HubErrorKind::Invalid, tr("%1: its SHA-256 is %2, but the hub lists %3. The download was deleted.")
                                         .arg(t.file().path, digest, expected)},
             true);
        return;
    }
    t.doneBytes += t.file().size;
    ++t.part;
    t.hash.reset();
    t.hashed = 0;
    // Verified parts stay .part until every part is: then all move at once.
    if (t.part < t.info.spec.parts.size())
        startPart(t);
    else
        commit(t);
}

void DownloadManager::commit(Task& t)
{
    const DownloadSpec& spec = t.info.spec;
    for (int i = 0; i < spec.parts.size(); ++i) {
        const QString target = spec.targetPath(i);
        if (complete(target, spec.parts[i].size) && !QFile::exists(partPath(target)))
            continue;
        QFile::remove(target);
        if (!QFile::rename(partPath(target), target)) {
            fail(t, {HubErrorKind::Disk, tr("Cannot move %1 into place.").arg(target)}, false);
            return;
        }
        QFile::remove(sidecarPath(target));
    }
    t.info.path = spec.targetPath(0);
    t.info.received = t.info.total;
    t.started = false;
    t.lock.reset();
    setState(t, State::Done);
    emit finished(t.info);
    schedule();
}

void DownloadManager::fail(Task& t, const HubError& error, bool removeParts)
{
    stopTransfer(t);
    if (removeParts)
        deleteParts(t);
    t.info.received = bytesOnDisk(t.info.spec);
    t.info.error = error;
    t.started = false;
    t.lock.reset();
    setState(t, State::Failed);
    emit finished(t.info);
    schedule();
}

void DownloadManager::stopTransfer(Task& t)
{
    ++t.generation;
    if (QNetworkReply* reply = t.reply) {
        t.reply = nullptr;
        reply->disconnect(this);
        reply->setProperty("hearthCancelled", true);
        reply->abort();
        reply->deleteLater();
    }
    t.sink.reset(); // closes (and flushes) the .part
}

void DownloadManager::deleteParts(const Task& t)
{
    for (int i = 0; i < t.info.spec.parts.size(); ++i) {
        const QString target = t.info.spec.targetPath(i);
        QFile::remove(partPath(target));
        QFile::remove(sidecarPath(target));
    }
}

void DownloadManager::pause(const QString& id)
{
    Task* t = find(id);
    if (!t || !t->info.active())
        return;
    stopTransfer(*t);
    t->info.received = bytesOnDisk(t->info.spec);
    t->started = false;
    t->lock.reset();
    setState(*t, State::Paused);
    schedule();
}

void DownloadManager::resume(const QString& id)
{
    Task* t = find(id);
    if (!t || (t->info.state != State::Paused && t->info.state != State::Failed))
        return;
    t->retriesWithoutProgress = 0;
    t->info.error = {};
    setState(*t, State::Queued);
    schedule();
}

void DownloadManager::cancel(const QString& id)
{
    Task* t = find(id);
    if (!t)
        return;
    stopTransfer(*t);
    if (t->info.state != State::Done)
        deleteParts(*t);
    m_tasks.erase(id);
    m_order.removeAll(id);
    emit removed(id);
    save();
    schedule();
}

void DownloadManager::forget(const QString& id)
{
    Task* t = find(id);
    if (!t || t->info.active())
        return;
    m_tasks.erase(id);
    m_order.removeAll(id);
    emit removed(id);
    save();
}

void DownloadManager::setState(Task& t, State state)
{
    const bool persist = t.info.state != state;
    t.info.state = state;
    if (state != State::Running) {
        t.info.bytesPerSecond = 0;
        t.info.etaSeconds = -1;
    }
    report(t, true);
    if (persist)
        save();
}

void DownloadManager::report(Task& t, bool force)
{
    if (t.info.state == State::Running) {
        t.info.received = t.doneBytes + t.partBytes;
        const qint64 now = t.clock.isValid() ? t.clock.elapsed() : 0;
        t.samples.emplace_back(now, t.info.received);
        while (t.samples.size() > 2 && now - t.samples.front().first > 3000)
            t.samples.pop_front();
        const qint64 span = now - t.samples.front().first;
        if (span >= 200) {
            t.info.bytesPerSecond = double(t.info.received - t.samples.front().second) * 1000.0 / double(span);
            t.info.etaSeconds =
                t.info.bytesPerSecond > 0 ? qint64(double(t.info.total - t.info.received) / t.info.bytesPerSecond) : -1;
        }
    }
    if (!force && t.sinceReport.isValid() && t.sinceReport.elapsed() < 100)
        return;
    t.sinceReport.start();
    emit changed(t.info);
}

void DownloadManager::setStateFile(const QString& path)
{
    m_stateFile = path;
    load();
    schedule();
}

void DownloadManager::save() const
{
    if (m_stateFile.isEmpty())
        return;
    QJsonArray list;
    for (const QString& id : m_order) {
        const DownloadInfo& info = find(id)->info;
        QJsonObject o = info.spec.toJson();
        o.insert(QStringLiteral("state"), DownloadInfo::stateName(info.active() ? State::Queued : info.state));
        if (!info.error.ok())
            o.insert(QStringLiteral("error"), info.error.message);
        list.append(o);
    }
    QDir().mkpath(QFileInfo(m_stateFile).absolutePath());
    QSaveFile f(m_stateFile);
    if (f.open(QIODevice::WriteOnly)) {
        f.write(
            QJsonDocument(QJsonObject{{QStringLiteral("version"), 1}, {QStringLiteral("downloads"), list}}).toJson());
        f.commit();
    }
}

void DownloadManager::load()
{
    QFile f(m_stateFile);
    if (!f.open(QIODevice::ReadOnly))
        return;
    const QJsonArray list = QJsonDocument::fromJson(f.readAll()).object().value(QLatin1String("downloads")).toArray();
    for (const QJsonValue& v : list) {
        const QJsonObject o = v.toObject();
        const DownloadSpec spec = DownloadSpec::fromJson(o);
        if (spec.parts.isEmpty() || spec.folder.isEmpty() || find(spec.id()))
            continue;
        const QString state = o.value(QLatin1String("state")).toString();
        auto t = std::make_unique<Task>();
        t->info.id = spec.id();
        t->info.spec = spec;
        t->info.total = spec.totalBytes();
        t->info.received = bytesOnDisk(spec);
        if (state == DownloadInfo::stateName(State::Done)) {
            if (!complete(spec.targetPath(0), spec.parts.front().size))
                continue; // deleted since
            t->info.state = State::Done;
            t->info.path = spec.targetPath(0);
        } else if (state == DownloadInfo::stateName(State::Paused)) {
            t->info.state = State::Paused;
        } else if (state == DownloadInfo::stateName(State::Failed)) {
            t->info.state = State::Failed;
            t->info.error = {HubErrorKind::Network, o.value(QLatin1String("error")).toString()};
        }
        const QString id = t->info.id;
        m_tasks.emplace(id, std::move(t));
        m_order.append(id);
        emit changed(find(id)->info);
    }
}

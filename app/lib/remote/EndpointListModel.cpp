#include "remote/EndpointListModel.h"

#include "secrets/SecretStore.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QMutex>
#include <QSet>
#include <QSettings>
#include <QSslCertificate>
#include <QUuid>
#include <QWaitCondition>

struct EndpointListModel::Shared {
    mutable QMutex mutex;
    QWaitCondition keyRead;             // a read of `reading` ended
    QList<RemoteEndpoint> endpoints;    // without keys
    QStringList withKey;                // ids whose key is in the keychain
    QHash<QString, QString> keys;       // keys read from the keychain (GUI thread), by id
    QSet<QString> reading;              // ids whose start-up read is under way
    QHash<QString, QString> readErrors; // why a start-up read failed, by id

    // The start-up read of `id`'s key has ended with `k`.
    void readDone(const QString& id, const SecretResult& k)
    {
        QMutexLocker lock(&mutex);
        reading.remove(id);
        if (k.ok())
            keys.insert(id, k.value);
        else
            readErrors.insert(id, k.error.isEmpty() ? QStringLiteral("not in the keychain") : k.error);
        keyRead.wakeAll();
    }
};

// How long a model load waits for the keychain to hand over a key read at
// start-up (it may be asking the user to unlock it).
static constexpr int keyWaitMs = 60000;

EndpointListModel::EndpointListModel(QSettings* settings, QObject* parent)
    : QAbstractListModel(parent)
    , m_settings(settings)
    , m_secrets(new SecretStore(this))
    , m_shared(std::make_shared<Shared>())
{
    load();
    publish();
    // The keys, for the worker's lookup (a model restored at start-up waits
    // for its endpoint's read).
    for (const Row& r : std::as_const(m_rows))
        if (r.hasKey) {
            {
                QMutexLocker lock(&m_shared->mutex);
                m_shared->reading.insert(r.endpoint.id);
            }
            m_secrets->read(keyName(r.endpoint.id), [shared = m_shared, id = r.endpoint.id](const SecretResult& k) {
                shared->readDone(id, k);
            });
        }
}

EndpointListModel::~EndpointListModel() = default;

void EndpointListModel::load()
{
    m_settings->beginGroup(QStringLiteral("endpoints"));
    for (const QString& id : m_settings->childGroups()) {
        m_settings->beginGroup(id);
        Row r;
        r.endpoint.id = id;
        r.endpoint.name = m_settings->value(QStringLiteral("name")).toString();
        r.endpoint.baseUrl = QUrl(m_settings->value(QStringLiteral("baseUrl")).toString());
        RemoteEndpoint::parseHeaders(m_settings->value(QStringLiteral("headers")).toString(), r.endpoint.headers);
        r.endpoint.caCertificates = m_settings->value(QStringLiteral("certificates")).toByteArray();
        r.endpoint.timeoutMs = m_settings->value(QStringLiteral("timeoutSeconds"), 120).toInt() * 1000;
        r.endpoint.extendedSampling = m_settings->value(QStringLiteral("extendedSampling"), true).toBool();
        r.hasKey = m_settings->value(QStringLiteral("hasKey")).toBool();
        m_settings->endGroup();
        if (RemoteEndpoint::validateBaseUrl(r.endpoint.baseUrl).isEmpty())
            m_rows.append(r);
    }
    m_settings->endGroup();
}

void EndpointListModel::persist(const Row& r)
{
    m_settings->beginGroup(QStringLiteral("endpoints/") + r.endpoint.id);
    m_settings->setValue(QStringLiteral("name"), r.endpoint.name);
    m_settings->setValue(QStringLiteral("baseUrl"), r.endpoint.baseUrl.toString());
    m_settings->setValue(QStringLiteral("headers"), RemoteEndpoint::headersText(r.endpoint.headers));
    m_settings->setValue(QStringLiteral("certificates"), r.endpoint.caCertificates);
    m_settings->setValue(QStringLiteral("timeoutSeconds"), r.endpoint.timeoutMs / 1000);
    m_settings->setValue(QStringLiteral("extendedSampling"), r.endpoint.extendedSampling);
    m_settings->setValue(QStringLiteral("hasKey"), r.hasKey);
    m_settings->endGroup();
    m_settings->sync();
}

void EndpointListModel::publish()
{
    QMutexLocker lock(&m_shared->mutex);
    m_shared->endpoints.clear();
    m_shared->withKey.clear();
    for (const Row& r : std::as_const(m_rows)) {
        m_shared->endpoints.append(r.endpoint);
        if (r.hasKey)
            m_shared->withKey.append(r.endpoint.id);
    }
}

RemoteEngine::EndpointLookup EndpointListModel::lookup() const
{
    return [shared = m_shared](const QUrl& url, QString& error) -> std::optional<RemoteEndpoint> {
        QMutexLocker lock(&shared->mutex);
        for (const RemoteEndpoint& e : std::as_const(shared->endpoints)) {
            if (e.modelIdOf(url).isEmpty())
                continue;
            RemoteEndpoint found = e;
            if (shared->withKey.contains(e.id)) {
                // Read from the keychain on the GUI thread at start-up or when
                // the endpoint was listed (QtKeychain's jobs belong to one
                // thread); a load right after start-up waits for that read.
                const QDeadlineTimer deadline(keyWaitMs);
                while (!shared->keys.contains(e.id) && shared->reading.contains(e.id))
                    if (!shared->keyRead.wait(&shared->mutex, deadline))
                        break;
                if (!shared->keys.contains(e.id)) {
                    const QString why = shared->readErrors.value(e.id);
                    error = why.isEmpty() ? QStringLiteral("The keychain has not handed over the API key of %1 "
                                                           "(is it locked?): unlock it, or open Settings → "
                                                           "Engines and test the connection.")
                                                .arg(e.label())
                                          : QStringLiteral("The API key of %1 could not be read from the keychain "
                                                           "(%2): open Settings → Engines and enter it again.")
                                                .arg(e.label(), why);
                    return std::nullopt;
                }
                found.apiKey = shared->keys.value(e.id);
            }
            return found;
        }
        error = QStringLiteral("No endpoint in Settings → Engines serves %1.").arg(url.toString());
        return std::nullopt;
    };
}

QList<ModelEntry> EndpointListModel::remoteModels() const
{
    QList<ModelEntry> out;
    for (const Row& r : m_rows)
        for (const RemoteModel& m : r.models) {
            ModelEntry e;
            e.path = r.endpoint.modelUrl(m.id).toString();
            e.name = m.id;
            e.architecture = QStringLiteral("remote");
            e.trainedContext = m.contextSize;
            e.endpoint = r.endpoint.label();
            out.append(e);
        }
    return out;
}

QString EndpointListModel::modelPath(const QString& id, const QString& modelId) const
{
    const int row = rowOf(id);
    return row < 0 ? QString() : m_rows[row].endpoint.modelUrl(modelId).toString();
}

QString EndpointListModel::readFields(const QVariantMap& f, RemoteEndpoint& e) const
{
    e.name = f.value(QStringLiteral("name")).toString().trimmed();
    e.baseUrl = QUrl::fromUserInput(f.value(QStringLiteral("baseUrl")).toString().trimmed());
    if (const QString why = RemoteEndpoint::validateBaseUrl(e.baseUrl); !why.isEmpty())
        return why;
    if (const QString why = RemoteEndpoint::parseHeaders(f.value(QStringLiteral("headers")).toString(), e.headers);
        !why.isEmpty())
        return why;
    const QString certificate = f.value(QStringLiteral("certificateFile")).toString();
    if (f.value(QStringLiteral("clearCertificate")).toBool())
        e.caCertificates.clear();
    if (!certificate.isEmpty()) {
        QFile file(QUrl(certificate).isLocalFile() ? QUrl(certificate).toLocalFile() : certificate);
        if (!file.open(QIODevice::ReadOnly))
            return QStringLiteral("Cannot read the certificate file %1.").arg(file.fileName());
        const QByteArray pem = file.readAll();
        if (QSslCertificate::fromData(pem, QSsl::Pem).isEmpty())
            return QStringLiteral("%1 holds no PEM certificate.").arg(file.fileName());
        e.caCertificates = pem;
    }
    const int timeout = f.value(QStringLiteral("timeoutSeconds"), e.timeoutMs / 1000).toInt();
    e.timeoutMs = std::clamp(timeout, 1, 3600) * 1000;
    e.extendedSampling = f.value(QStringLiteral("extendedSampling"), e.extendedSampling).toBool();
    if (e.name.isEmpty())
        e.name = e.baseUrl.host();
    return {};
}

QString EndpointListModel::save(const QVariantMap& fields)
{
    const QString id = fields.value(QStringLiteral("id")).toString();
    const int existing = rowOf(id);
    if (!id.isEmpty() && existing < 0)
        return QStringLiteral("That endpoint was removed.");
    Row r = existing >= 0 ? m_rows[existing] : Row{};
    if (const QString why = readFields(fields, r.endpoint); !why.isEmpty())
        return why;
    for (const Row& other : std::as_const(m_rows))
        if (other.endpoint.id != id && other.endpoint.apiUrl({}) == r.endpoint.apiUrl({}))
            return QStringLiteral("%1 already has this URL.").arg(other.endpoint.label());
    if (existing < 0)
        r.endpoint.id = QUuid::createUuid().toString(QUuid::Id128).left(12);
    const QString key = fields.value(QStringLiteral("apiKey")).toString().trimmed();
    const bool clearKey = fields.value(QStringLiteral("clearKey")).toBool();
    if (clearKey)
        r.hasKey = false;
    if (existing >= 0) {
        m_rows[existing] = r;
        emit dataChanged(index(existing), index(existing));
    } else {
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
        m_rows.append(r);
        endInsertRows();
        emit countChanged();
    }
    persist(r);
    publish();
    const QString rowId = r.endpoint.id;
    const auto done = [this, rowId](const SecretResult& result) {
        const int row = rowOf(rowId);
        if (row < 0)
            return;
        QString error;
        if (result.status == SecretResult::Status::Ok || result.status == SecretResult::Status::NotFound) {
            // stored, or (clearing) nothing was there
        } else {
            error = QStringLiteral("The API key could not be stored in the keychain: %1").arg(result.error);
            m_rows[row].hasKey = false;
        }
        persist(m_rows[row]);
        publish();
        emit dataChanged(index(row), index(row), {HasKeyRole});
        emit saved(rowId, error);
        listModels(row);
    };
    {
        QMutexLocker lock(&m_shared->mutex);
        if (clearKey || !key.isEmpty()) {
            m_shared->keys.remove(rowId);
            m_shared->readErrors.remove(rowId);
        }
    }
    if (!key.isEmpty() && !clearKey) {
        m_rows[rowOf(rowId)].hasKey = true;
        m_secrets->write(keyName(rowId), key, done);
    } else if (clearKey) {
        m_secrets->remove(keyName(rowId), done);
    } else {
        done(SecretResult{SecretResult::Status::Ok, {}, {}});
    }
    return {};
}

void EndpointListModel::remove(const QString& id)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    const bool hadKey = m_rows[row].hasKey;
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
    emit countChanged();
    m_settings->remove(QStringLiteral("endpoints/") + id);
    m_settings->sync();
    {
        QMutexLocker lock(&m_shared->mutex);
        m_shared->keys.remove(id);
        m_shared->readErrors.remove(id);
    }
    publish();
    if (hadKey)
        m_secrets->remove(keyName(id), [](const SecretResult&) {});
    emit remoteModelsChanged();
}

void EndpointListModel::fetch(const RemoteEndpoint& endpoint,
                              std::function<void(const RemoteFailure&, QList<RemoteModel>)> done)
{
    auto* call = new RemoteCall(&m_network, endpoint, QStringLiteral("/models"), {}, /*stream=*/false, {}, this);
    connect(call, &RemoteCall::finished, this, [call, endpoint, done = std::move(done)] {
        call->deleteLater();
        RemoteFailure f = call->failure();
        QList<RemoteModel> models;
        if (!f.failed()) {
            if (call->json().object().value(QLatin1String("data")).isArray())
                models = RemoteEngine::parseModels(call->json().object());
            else
                f = {RemoteFailure::Kind::Protocol, 0,
                     QStringLiteral("%1 answered /v1/models without a model list: is this an OpenAI-compatible "
                                    "server?")
                         .arg(endpoint.label())};
        }
        done(f, models);
    });
}

void EndpointListModel::listModels(int row)
{
    const Row& r = m_rows[row];
    const QString id = r.endpoint.id;
    const auto start = [this, id](const RemoteEndpoint& endpoint) {
        fetch(endpoint, [this, id](const RemoteFailure& f, const QList<RemoteModel>& models) {
            const int at = rowOf(id);
            if (at < 0)
                return;
            Row& target = m_rows[at];
            target.ok = !f.failed();
            target.models = target.ok ? models : QList<RemoteModel>{};
            target.status = target.ok ? tr("%n model(s)", nullptr, int(models.size())) : f.message;
            emit dataChanged(index(at), index(at), {ModelsRole, StatusRole, StatusOkRole});
            emit remoteModelsChanged();
        });
    };
    if (!r.hasKey) {
        start(r.endpoint);
        return;
    }
    m_secrets->read(keyName(id), [this, id, start](const SecretResult& result) {
        const int at = rowOf(id);
        if (at < 0)
            return;
        RemoteEndpoint e = m_rows[at].endpoint;
        if (!result.ok()) {
            m_rows[at].ok = false;
            m_rows[at].status = QStringLiteral("Cannot read the API key: %1")
                                    .arg(result.error.isEmpty() ? QStringLiteral("not in the keychain") : result.error);
            emit dataChanged(index(at), index(at), {StatusRole, StatusOkRole});
            return;
        }
        e.apiKey = result.value;
        {
            QMutexLocker lock(&m_shared->mutex);
            m_shared->keys.insert(id, result.value);
            m_shared->readErrors.remove(id);
            m_shared->keyRead.wakeAll();
        }
        start(e);
    });
}

void EndpointListModel::refreshModels()
{
    for (int row = 0; row < m_rows.size(); ++row)
        listModels(row);
}

void EndpointListModel::testConnection(const QVariantMap& fields)
{
    const int existing = rowOf(fields.value(QStringLiteral("id")).toString());
    RemoteEndpoint e = existing >= 0 ? m_rows[existing].endpoint : RemoteEndpoint{};
    if (const QString why = readFields(fields, e); !why.isEmpty()) {
        emit testFinished(false, why, {});
        return;
    }
    ++m_testing;
    emit testingChanged();
    const auto report = [this](const RemoteFailure& f, const QList<RemoteModel>& models) {
        --m_testing;
        emit testingChanged();
        QStringList ids;
        for (const RemoteModel& m : models)
            ids.append(m.id);
        emit testFinished(!f.failed(), f.failed() ? f.message : tr("Connected: %n model(s).", nullptr, int(ids.size())),
                          ids);
    };
    const QString key = fields.value(QStringLiteral("apiKey")).toString().trimmed();
    if (!key.isEmpty() || existing < 0 || !m_rows[existing].hasKey ||
        fields.value(QStringLiteral("clearKey")).toBool()) {
        e.apiKey = key;
        fetch(e, report);
        return;
    }
    m_secrets->read(keyName(e.id), [this, e, report](const SecretResult& result) mutable {
        e.apiKey = result.value;
        fetch(e, report);
    });
}

int EndpointListModel::rowOf(const QString& id) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (!id.isEmpty() && m_rows[i].endpoint.id == id)
            return i;
    return -1;
}

QVariantMap EndpointListModel::get(int row) const
{
    QVariantMap out;
    if (row < 0 || row >= m_rows.size())
        return out;
    const QHash<int, QByteArray> names = roleNames();
    for (auto it = names.begin(); it != names.end(); ++it)
        out.insert(QString::fromLatin1(it.value()), data(index(row), it.key()));
    return out;
}

int EndpointListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QHash<int, QByteArray> EndpointListModel::roleNames() const
{
    return {{IdRole, "endpointId"},          {NameRole, "name"},
            {BaseUrlRole, "baseUrl"},        {HeadersRole, "headers"},
            {HasKeyRole, "hasKey"},          {HasCertificateRole, "hasCertificate"},
            {TimeoutRole, "timeoutSeconds"}, {ExtendedSamplingRole, "extendedSampling"},
            {ModelsRole, "models"},          {StatusRole, "status"},
            {StatusOkRole, "statusOk"}};
}

QVariant EndpointListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& r = m_rows.at(index.row());
    switch (role) {
    case IdRole: return r.endpoint.id;
    case Qt::DisplayRole:
    case NameRole: return r.endpoint.name;
    case BaseUrlRole: return r.endpoint.baseUrl.toString();
    case HeadersRole: return RemoteEndpoint::headersText(r.endpoint.headers);
    case HasKeyRole: return r.hasKey;
    case HasCertificateRole: return !r.endpoint.caCertificates.isEmpty();
    case TimeoutRole: return r.endpoint.timeoutMs / 1000;
    case ExtendedSamplingRole: return r.endpoint.extendedSampling;
    case ModelsRole: {
        QStringList ids;
        for (const RemoteModel& m : r.models)
            ids.append(m.id);
        return ids;
    }
    case StatusRole: return r.status;
    case StatusOkRole: return r.ok;
    default: return {};
    }
}

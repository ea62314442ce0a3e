#include "SecretStore.h"

#include <qt6keychain/keychain.h>

#include <QEventLoop>
#include <QPointer>

namespace {

SecretResult resultOf(const QKeychain::Job& job, const QString& key)
{
    SecretResult r;
    switch (job.error()) {
    case QKeychain::NoError: r.status = SecretResult::Status::Ok; break;
    case QKeychain::EntryNotFound: r.status = SecretResult::Status::NotFound; break;
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented:
        r.status = SecretResult::Status::Unavailable;
        r.error = SecretStore::tr("No keychain is available to keep \"%1\" (%2). On Linux, Hearth needs a "
                                  "Secret Service such as GNOME Keyring or KWallet.")
                      .arg(key, job.errorString());
        break;
    case QKeychain::AccessDeniedByUser:
    case QKeychain::AccessDenied:
        r.status = SecretResult::Status::Failed;
        r.error = SecretStore::tr("The keychain refused access to \"%1\": %2").arg(key, job.errorString());
        break;
    default:
        r.status = SecretResult::Status::Failed;
        r.error = SecretStore::tr("The keychain failed for \"%1\": %2").arg(key, job.errorString());
        break;
    }
    return r;
}

// Starts `job` and reports through `done` when it finishes; the job deletes
// itself afterwards.
template <typename JobT>
void startJob(JobT* job, const QString& key, SecretStore::Callback done)
{
    job->setAutoDelete(true);
    job->setInsecureFallback(false); // never a plain-text file
    job->setKey(key);
    QObject::connect(job, &QKeychain::Job::finished, job, [key, done = std::move(done)](QKeychain::Job* j) {
        SecretResult r = resultOf(*j, key);
        if (r.ok())
            if (auto* read = qobject_cast<QKeychain::ReadPasswordJob*>(j))
                r.value = read->textData();
        if (done)
            done(r);
    });
    job->start();
}

} // namespace

SecretStore::SecretStore(QObject* parent) : QObject(parent), m_service(defaultService())
{
}

QString SecretStore::defaultService()
{
    const QString env = qEnvironmentVariable("HEARTH_KEYCHAIN_SERVICE");
    return env.isEmpty() ? QStringLiteral("Hearth") : env;
}

void SecretStore::read(const QString& key, Callback done)
{
    startJob(new QKeychain::ReadPasswordJob(m_service, this), key, std::move(done));
}

void SecretStore::write(const QString& key, const QString& value, Callback done)
{
    auto* job = new QKeychain::WritePasswordJob(m_service, this);
    job->setTextData(value);
    startJob(job, key, std::move(done));
}

void SecretStore::remove(const QString& key, Callback done)
{
    startJob(new QKeychain::DeletePasswordJob(m_service, this), key, [done = std::move(done)](SecretResult r) {
        // Removing what is not there leaves the keychain as asked.
        if (r.status == SecretResult::Status::NotFound)
            r.status = SecretResult::Status::Ok;
        if (done)
            done(r);
    });
}

SecretResult SecretStore::waitFor(const std::function<void(Callback)>& start)
{
    QEventLoop loop;
    SecretResult out;
    bool finished = false;
    start([&](const SecretResult& r) {
        out = r;
        finished = true;
        loop.quit();
    });
    if (!finished)
        loop.exec();
    return out;
}

SecretResult SecretStore::readBlocking(const QString& key)
{
    return waitFor([&](Callback cb) { read(key, std::move(cb)); });
}

SecretResult SecretStore::writeBlocking(const QString& key, const QString& value)
{
    return waitFor([&](Callback cb) { write(key, value, std::move(cb)); });
}

SecretResult SecretStore::removeBlocking(const QString& key)
{
    return waitFor([&](Callback cb) { remove(key, std::move(cb)); });
}

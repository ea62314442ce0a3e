#include "storage/Database.h"

#include "storage/Migrations.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSqlError>

namespace {

QString nextConnectionName()
{
    static QAtomicInteger<int> counter;
    return QStringLiteral("hearth-%1").arg(counter.fetchAndAddRelaxed(1));
}

} // namespace

Database::Database(const QString& path, int migrateTo) : m_path(path), m_connection(nextConnectionName())
{
    if (path != QLatin1String(":memory:"))
        QDir().mkpath(QFileInfo(path).absolutePath());
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    m_db.setDatabaseName(path);
    if (!m_db.open())
        throw DatabaseError(QCoreApplication::translate("Database", "Cannot open the database %1: %2")
                                .arg(path, m_db.lastError().text()));
    exec(QStringLiteral("PRAGMA foreign_keys = ON"));
    exec(QStringLiteral("PRAGMA journal_mode = WAL"));
    exec(QStringLiteral("PRAGMA synchronous = NORMAL"));
    exec(QStringLiteral("PRAGMA busy_timeout = 5000"));
    if (version() > latestVersion())
        throw DatabaseError(QCoreApplication::translate("Database", "The database %1 was written by a newer version "
                                                                    "of Hearth (schema %2; this one knows %3).")
                                .arg(path)
                                .arg(version())
                                .arg(latestVersion()));
    migrate(migrateTo);
}

Database::~Database()
{
    m_db.close();
    m_db = QSqlDatabase();
    QSqlDatabase::removeDatabase(m_connection);
}

int Database::latestVersion()
{
    return int(Migrations::all().size());
}

int Database::version() const
{
    QSqlQuery q(m_db);
    return q.exec(QStringLiteral("PRAGMA user_version")) && q.next() ? q.value(0).toInt() : 0;
}

void Database::migrate(int target)
{
    const QList<QStringList>& migrations = Migrations::all();
    for (int v = version(); v < std::min(target, int(migrations.size())); ++v) {
        transaction([&] {
            for (const QString& sql : migrations[v])
                exec(sql);
            // PRAGMA takes no bound values; the number is ours, not input.
            exec(QStringLiteral("PRAGMA user_version = %1").arg(v + 1));
        });
    }
}

void Database::transaction(const std::function<void()>& work)
{
    if (!m_db.transaction())
        throw DatabaseError(QStringLiteral("BEGIN failed: %1").arg(m_db.lastError().text()));
    try {
        work();
    } catch (...) {
        m_db.rollback();
        throw;
    }
    if (!m_db.commit()) {
        const QString error = m_db.lastError().text();
        m_db.rollback();
        throw DatabaseError(QStringLiteral("COMMIT failed: %1").arg(error));
    }
}

QSqlQuery Database::exec(const QString& sql, const QVariantList& values)
{
    QSqlQuery q(m_db);
    if (!q.prepare(sql))
        throw DatabaseError(QStringLiteral("%1\nin: %2").arg(q.lastError().text(), sql));
    for (const QVariant& v : values)
        q.addBindValue(v);
    if (!q.exec())
        throw DatabaseError(QStringLiteral("%1\nin: %2").arg(q.lastError().text(), sql));
    return q;
}

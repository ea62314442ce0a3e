// The one SQLite database (QtSql): opening, pragmas, versioned migrations,
// transactions. Owned by the GUI thread; every statement is prepared with
// bound values (never built by concatenation).
//
// Durability: WAL journal with synchronous=NORMAL. A committed transaction
// survives the process being killed at any moment (it is in the WAL in the
// OS's cache); a power cut may lose the last few commits.
#pragma once

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariantList>

#include <functional>

class Database {
public:
    // Opens (creating if needed) the database at `path` (":memory:" for
    // tests) and migrates it to `migrateTo` (tests build old schemas with a
    // lower one). Throws DatabaseError with a clear message, also for a file
    // written by a newer Hearth.
    explicit Database(const QString& path, int migrateTo = latestVersion());
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // The schema version this build writes; migrations bring older files up.
    static int latestVersion();
    int version() const;

    // Migrates up to `target` (tests pass a lower one to build old files).
    void migrate(int target = latestVersion());

    // Runs `work` in one transaction: committed if it returns, rolled back if
    // it throws (the exception propagates).
    void transaction(const std::function<void()>& work);

    // Prepares and runs `sql` with `values` bound in order; throws
    // DatabaseError naming the statement on failure. Returns the active query.
    QSqlQuery exec(const QString& sql, const QVariantList& values = {});

    QSqlDatabase& handle() { return m_db; }
    const QString& path() const { return m_path; }

private:
    QString m_path;
    QString m_connection;
    QSqlDatabase m_db;
};

class DatabaseError : public std::runtime_error {
public:
    explicit DatabaseError(const QString& message) : std::runtime_error(message.toStdString()) {}
    QString message() const { return QString::fromStdString(what()); }
};

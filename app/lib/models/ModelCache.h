// What Hearth knows about model files it has seen, keyed by path and valid
// while the file's size and modification time are unchanged: header facts,
// the fit estimate, the SHA-256 once computed. Saves re-reading headers on
// every start and re-hashing multi-gigabyte files ever.
//
// Stored as JSON in the cache folder. Thread-safe (a mutex): the scanner and
// the hasher update it from worker threads.
#pragma once

#include "models/ModelEntry.h"

#include <QHash>
#include <QMutex>
#include <optional>

class ModelCache {
public:
    explicit ModelCache(QString file); // "" keeps it in memory only
    // The entry for `path` if the file still has `size` and `modified`.
    std::optional<ModelEntry> find(const QString& path, qint64 size, const QDateTime& modified) const;
    void put(const ModelEntry& entry);
    // The known SHA-256 of the file as it is now, or "".
    QString sha256(const QString& path, qint64 size, const QDateTime& modified) const;
    // Records a hash for the file as it is now (size and mtime checked).
    void setSha256(const QString& path, qint64 size, const QDateTime& modified, const QString& sha256);
    void save() const;

private:
    void load();

    QString m_file;
    mutable QMutex m_mutex;
    QHash<QString, ModelEntry> m_entries;
};

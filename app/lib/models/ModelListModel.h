// The models the picker lists (ModelEntry rows). Replaced wholesale after a
// scan; single rows change when a file is added or its hash arrives, and
// the loaded flag follows the loader. GUI thread.
#pragma once

#include "models/ModelEntry.h"

#include <QAbstractListModel>
#include <QtQml/qqmlregistration.h>

class ModelListModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by the model library")
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)

public:
    enum Roles {
        PathRole = Qt::UserRole + 1, // QString: absolute path
        FileNameRole,                // QString
        NameRole,                    // QString: general.name or the file name
        ArchitectureRole,            // QString
        ParametersRole,              // qint64
        ParametersTextRole,          // QString: "135M"
        QuantRole,                   // QString: "Q4_K_M"
        TrainedContextRole,          // int
        FileSizeRole,                // qint64
        FileSizeTextRole,            // QString: "812 MB"
        FitsRole,                    // bool: the estimate fits in available memory
        FitTextRole,                 // QString: where and how much, "in RAM, needs 1.2 GB of 14 GB available"
        FitPlaceRole,                // QString: "gpu", "split" (GPU and RAM), "ram", "none"; "" unknown
        ErrorRole,                   // QString: why the file cannot be used, "" if it can
        LoadedRole,                  // bool: this is the loaded model
        RemoteRole,                  // bool: served by a remote endpoint (path is a URL)
        EndpointRole,                // QString: that endpoint, "" for a file
    };
    Q_ENUM(Roles)

    using QAbstractListModel::QAbstractListModel;

    // The files; the remote models (setRemoteEntries) stay after them.
    void setEntries(const QList<ModelEntry>& entries);
    void setRemoteEntries(const QList<ModelEntry>& entries);
    // Adds or replaces the entry with the same path; returns its row.
    int upsert(const ModelEntry& entry);
    void setLoadedPath(const QString& path);
    void setSha256(const QString& path, const QString& sha256);
    const QList<ModelEntry>& entries() const { return m_entries; }
    int rowOf(const QString& path) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Where `entry` fits and with how much memory, as the picker says it.
    static QString fitText(const ModelEntry& entry);

signals:
    void countChanged();

private:
    QList<ModelEntry> m_entries;
    QString m_loadedPath;
};

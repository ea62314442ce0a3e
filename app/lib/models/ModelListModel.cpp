#include "models/ModelListModel.h"

#include "engine/FitEstimator.h"
#include "ui/Format.h"

#include <QFileInfo>

void ModelListModel::setEntries(const QList<ModelEntry>& entries)
{
    QList<ModelEntry> all = entries;
    for (const ModelEntry& e : std::as_const(m_entries))
        if (e.isRemote())
            all.append(e);
    beginResetModel();
    m_entries = all;
    endResetModel();
    emit countChanged();
}

void ModelListModel::setRemoteEntries(const QList<ModelEntry>& entries)
{
    QList<ModelEntry> all;
    for (const ModelEntry& e : std::as_const(m_entries))
        if (!e.isRemote())
            all.append(e);
    all += entries;
    beginResetModel();
    m_entries = all;
    endResetModel();
    emit countChanged();
}

int ModelListModel::upsert(const ModelEntry& entry)
{
    const int row = rowOf(entry.path);
    if (row >= 0) {
        m_entries[row] = entry;
        emit dataChanged(index(row), index(row));
        return row;
    }
    const int at = int(m_entries.size());
    beginInsertRows({}, at, at);
    m_entries.append(entry);
    endInsertRows();
    emit countChanged();
    return at;
}

void ModelListModel::setLoadedPath(const QString& path)
{
    if (path == m_loadedPath)
        return;
    const int before = rowOf(m_loadedPath);
    m_loadedPath = path;
    for (int row : {before, rowOf(path)})
        if (row >= 0)
            emit dataChanged(index(row), index(row), {LoadedRole});
}

void ModelListModel::setSha256(const QString& path, const QString& sha256)
{
    const int row = rowOf(path);
    if (row >= 0)
        m_entries[row].sha256 = sha256;
}

QString ModelListModel::fitText(const ModelEntry& e)
{
    if (!e.isValid() || e.requiredBytes <= 0)
        return QString();
    return FitEstimator::describe(e.fit());
}

int ModelListModel::rowOf(const QString& path) const
{
    if (path.isEmpty())
        return -1;
    for (int i = 0; i < m_entries.size(); ++i)
        if (m_entries[i].path == path)
            return i;
    return -1;
}

int ModelListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

QHash<int, QByteArray> ModelListModel::roleNames() const
{
    return {{PathRole, "path"},
            {FileNameRole, "fileName"},
            {NameRole, "name"},
            {ArchitectureRole, "architecture"},
            {ParametersRole, "parameters"},
            {ParametersTextRole, "parametersText"},
            {QuantRole, "quant"},
            {TrainedContextRole, "trainedContext"},
            {FileSizeRole, "fileSize"},
            {FileSizeTextRole, "fileSizeText"},
            {FitsRole, "fits"},
            {FitTextRole, "fitText"},
            {FitPlaceRole, "fitPlace"},
            {ErrorRole, "error"},
            {LoadedRole, "loaded"},
            {RemoteRole, "remote"},
            {EndpointRole, "endpoint"}};
}

QVariant ModelListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ModelEntry& e = m_entries.at(index.row());
    switch (role) {
    case PathRole: return e.path;
    case FileNameRole: return e.isRemote() ? e.name : QFileInfo(e.path).fileName();
    case Qt::DisplayRole:
    case NameRole: return e.name;
    case ArchitectureRole: return e.architecture;
    case ParametersRole: return e.parameters;
    case ParametersTextRole: return Format::count(e.parameters);
    case QuantRole: return e.quant;
    case TrainedContextRole: return e.trainedContext;
    case FileSizeRole: return e.fileSize;
    case FileSizeTextRole: return Format::bytes(e.fileSize);
    case FitsRole: return e.fits();
    case FitTextRole: return fitText(e);
    case FitPlaceRole:
        if (!e.isValid() || e.requiredBytes <= 0)
            return QString();
        return FitEstimator::placeName(e.fit());
    case ErrorRole: return e.error;
    case LoadedRole: return !m_loadedPath.isEmpty() && e.path == m_loadedPath;
    case RemoteRole: return e.isRemote();
    case EndpointRole: return e.endpoint;
    default: return {};
    }
}

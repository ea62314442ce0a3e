#include "models/ModelListModel.h"

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
    const FitEstimate fit = e.fit();
    const QString ram = Format::bytes(fit.ramRequiredBytes());
    const QString ramFree = Format::bytes(fit.availableBytes);
    const QString gpu = Format::bytes(fit.gpuRequiredBytes);
    const QString gpuFree = Format::bytes(fit.gpuAvailableBytes);
    switch (fit.place()) {
    case FitEstimate::Place::Gpu: return tr("on the GPU, %1 of %2 free there (%3 in RAM)").arg(gpu, gpuFree, ram);
    case FitEstimate::Place::Split:
        return tr("%1 of %2 layers on the GPU (%3 of %4 free there), the rest in RAM (%5 of %6 available)")
            .arg(fit.gpuLayers)
            .arg(fit.layerCount)
            .arg(gpu, gpuFree, ram, ramFree);
    case FitEstimate::Place::Ram: return tr("in RAM, needs %1 of %2 available").arg(ram, ramFree);
    case FitEstimate::Place::None: break;
    }
    if (fit.gpuRequiredBytes > fit.gpuAvailableBytes)
        return tr("%1 layers need %2 on the GPU, %3 free there").arg(fit.gpuLayers).arg(gpu, gpuFree);
    return tr("needs %1 of %2 available in RAM").arg(ram, ramFree);
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
        switch (e.fit().place()) {
        case FitEstimate::Place::Gpu: return QStringLiteral("gpu");
        case FitEstimate::Place::Split: return QStringLiteral("split");
        case FitEstimate::Place::Ram: return QStringLiteral("ram");
        case FitEstimate::Place::None: return QStringLiteral("none");
        }
        return QString();
    case ErrorRole: return e.error;
    case LoadedRole: return !m_loadedPath.isEmpty() && e.path == m_loadedPath;
    case RemoteRole: return e.isRemote();
    case EndpointRole: return e.endpoint;
    default: return {};
    }
}

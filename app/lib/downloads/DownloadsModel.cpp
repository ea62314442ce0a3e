#include "DownloadsModel.h"

#include "DownloadManager.h"
#include "ModelPaths.h"

#include <QDir>

DownloadsModel::DownloadsModel(QObject* parent) : QAbstractListModel(parent), m_folder(ModelPaths::defaultModelsDir())
{
    m_thread.setObjectName(QStringLiteral("hearth-downloads"));
    auto* hub = new HubClient;
    m_manager = new DownloadManager(hub);
    hub->setParent(m_manager);
    m_manager->moveToThread(&m_thread);
    connect(m_manager, &DownloadManager::changed, this, &DownloadsModel::onChanged, Qt::QueuedConnection);
    connect(m_manager, &DownloadManager::removed, this, &DownloadsModel::onRemoved, Qt::QueuedConnection);
    m_thread.start();
    const QString state = QDir(m_folder).filePath(QStringLiteral(".hearth-downloads.json"));
    QMetaObject::invokeMethod(m_manager, [m = m_manager, state] { m->setStateFile(state); });
}

DownloadsModel::~DownloadsModel()
{
    // The manager stops its transfers (the .part files stay for next time).
    QMetaObject::invokeMethod(
        m_manager, [m = m_manager] { delete m; }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

int DownloadsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int DownloadsModel::active() const
{
    return int(std::count_if(m_rows.begin(), m_rows.end(), [](const DownloadInfo& i) { return i.active(); }));
}

QVariant DownloadsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const DownloadInfo& i = m_rows[index.row()];
    switch (role) {
    case IdRole: return i.id;
    case Qt::DisplayRole:
    case NameRole: return i.spec.name;
    case RepoRole: return i.spec.repo;
    case StateRole: return DownloadInfo::stateName(i.state);
    case ProgressRole: return i.total > 0 ? double(i.received) / double(i.total) : 0.0;
    case ReceivedRole: return double(i.received);
    case TotalRole: return double(i.total);
    case SpeedRole: return i.bytesPerSecond;
    case EtaRole: return double(i.etaSeconds);
    case ErrorRole: return i.error.message;
    case PathRole: return i.path;
    default: return {};
    }
}

QHash<int, QByteArray> DownloadsModel::roleNames() const
{
    return {{IdRole, "downloadId"},     {NameRole, "name"},         {RepoRole, "repo"},   {StateRole, "state"},
            {ProgressRole, "progress"}, {ReceivedRole, "received"}, {TotalRole, "total"}, {SpeedRole, "speed"},
            {EtaRole, "eta"},           {ErrorRole, "error"},       {PathRole, "path"}};
}

int DownloadsModel::rowOf(const QString& id) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].id == id)
            return i;
    return -1;
}

void DownloadsModel::onChanged(const DownloadInfo& info)
{
    const int row = rowOf(info.id);
    const int before = active();
    bool arrived = false;
    if (row < 0) {
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
        m_rows.append(info);
        endInsertRows();
        emit countChanged();
    } else {
        arrived = m_rows[row].state != DownloadInfo::State::Done && info.state == DownloadInfo::State::Done;
        m_rows[row] = info;
        emit dataChanged(index(row), index(row));
    }
    if (active() != before)
        emit activeChanged();
    if (arrived)
        emit modelArrived(info.path);
}

void DownloadsModel::onRemoved(const QString& id)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
    emit countChanged();
    emit activeChanged();
}

void DownloadsModel::start(DownloadSpec spec)
{
    if (spec.folder.isEmpty())
        spec.folder = QDir(m_folder).filePath(spec.repo);
    QMetaObject::invokeMethod(m_manager, [m = m_manager, spec] { m->start(spec); });
}

void DownloadsModel::setToken(const QString& token)
{
    QMetaObject::invokeMethod(m_manager, [m = m_manager, token] { m->hub()->setToken(token); });
}

void DownloadsModel::pause(const QString& id)
{
    QMetaObject::invokeMethod(m_manager, [m = m_manager, id] { m->pause(id); });
}

void DownloadsModel::resume(const QString& id)
{
    QMetaObject::invokeMethod(m_manager, [m = m_manager, id] { m->resume(id); });
}

void DownloadsModel::cancel(const QString& id)
{
    QMetaObject::invokeMethod(m_manager, [m = m_manager, id] { m->cancel(id); });
}

void DownloadsModel::forget(const QString& id)
{
    QMetaObject::invokeMethod(m_manager, [m = m_manager, id] { m->forget(id); });
}

#include "settings/SettingsModel.h"

#include "engine/GpuDevice.h"

SettingsModel::SettingsModel(SettingsStore* store, QObject* parent) : QAbstractListModel(parent), m_store(store)
{
    connect(m_store, &SettingsStore::changed, this, [this](const QString&, const QString& key) {
        const int row = rowOf(key);
        if (row >= 0)
            emit dataChanged(index(row), index(row), {ValueRole, OverriddenRole, ResettableRole});
    });
}

void SettingsModel::setScope(Scope scope)
{
    if (scope == m_scope)
        return;
    m_scope = scope;
    emit scopeChanged();
    refresh();
}

void SettingsModel::setModel(const QString& path, const QString& name)
{
    if (path == m_modelPath && name == m_modelName)
        return;
    m_modelPath = path;
    m_modelName = name;
    emit modelChanged();
    if (m_modelPath.isEmpty() && m_scope == Model)
        setScope(Global);
    refresh();
}

void SettingsModel::refresh()
{
    if (rowCount() > 0)
        emit dataChanged(index(0), index(rowCount() - 1), {ValueRole, OverriddenRole, ResettableRole});
}

int SettingsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(SettingsStore::descriptors().size());
}

int SettingsModel::rowOf(const QString& key) const
{
    const auto& all = SettingsStore::descriptors();
    for (int i = 0; i < all.size(); ++i)
        if (all[i].key == key)
            return i;
    return -1;
}

QHash<int, QByteArray> SettingsModel::roleNames() const
{
    return {{KeyRole, "key"},
            {LabelRole, "label"},
            {HelpRole, "help"},
            {ValueTypeRole, "valueType"},
            {ValueRole, "value"},
            {MinimumRole, "minimum"},
            {MaximumRole, "maximum"},
            {StepRole, "step"},
            {DecimalsRole, "decimals"},
            {OverriddenRole, "overridden"},
            {ResettableRole, "resettable"},
            {AvailableRole, "available"},
            {UnavailableReasonRole, "unavailableReason"}};
}

Qt::ItemFlags SettingsModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    const QString key = SettingsStore::descriptors().at(index.row()).key;
    return unavailableReason(key).isEmpty() ? Qt::ItemIsEnabled | Qt::ItemIsEditable : Qt::NoItemFlags;
}

QVariant SettingsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SettingsStore::Descriptor& d = SettingsStore::descriptors().at(index.row());
    const bool modelScope = m_scope == Model && !m_modelPath.isEmpty();
    switch (role) {
    case KeyRole: return d.key;
    case Qt::DisplayRole:
    case LabelRole: return label(d.key);
    case HelpRole: return help(d.key);
    case ValueTypeRole: return QVariant::fromValue(ValueType(int(d.type)));
    case ValueRole: return modelScope ? m_store->effective(m_modelPath, d.key) : m_store->globalValue(d.key);
    case MinimumRole: return d.minimum;
    case MaximumRole: return d.maximum;
    case StepRole: return d.step;
    case DecimalsRole: return d.decimals;
    case OverriddenRole: return modelScope && m_store->modelOverride(m_modelPath, d.key).has_value();
    case ResettableRole:
        if (!unavailableReason(d.key).isEmpty())
            return false;
        return modelScope ? m_store->modelOverride(m_modelPath, d.key).has_value()
                          : m_store->globalValue(d.key) != d.defaultValue;
    case AvailableRole: return unavailableReason(d.key).isEmpty();
    case UnavailableReasonRole: return unavailableReason(d.key);
    default: return {};
    }
}

bool SettingsModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (role != ValueRole || !checkIndex(index, CheckIndexOption::IndexIsValid))
        return false;
    const SettingsStore::Descriptor& d = SettingsStore::descriptors().at(index.row());
    if (!unavailableReason(d.key).isEmpty())
        return false;
    if (m_scope == Model && !m_modelPath.isEmpty())
        m_store->setModelOverride(m_modelPath, d.key, value);
    else
        m_store->setGlobalValue(d.key, value);
    return true;
}

void SettingsModel::setValue(int row, const QVariant& value)
{
    setData(index(row), value, ValueRole);
}

void SettingsModel::resetValue(int row)
{
    if (row < 0 || row >= rowCount())
        return;
    const QString key = SettingsStore::descriptors().at(row).key;
    if (m_scope == Model && !m_modelPath.isEmpty())
        m_store->clearModelOverride(m_modelPath, key);
    else
        m_store->resetGlobalValue(key);
}

QString SettingsModel::unavailableReason(const QString& key) const
{
    if (key == QLatin1String("gpuLayers") && !GpuDevices::chosen().found)
        return tr("No Vulkan GPU was found: Hearth runs models on the CPU.");
    return {};
}

const SettingsModel::Texts* SettingsModel::texts(const QString& key)
{
    // Marked for lupdate here, translated with tr() where shown.
    static const Texts all[] = {
        {"temperature", QT_TR_NOOP("Temperature"),
         QT_TR_NOOP("Higher is more varied, lower more focused; 0 always picks the likeliest token.")},
        {"topK", QT_TR_NOOP("Top-k"), QT_TR_NOOP("Sample only from the k likeliest tokens (0 = off).")},
        {"topP", QT_TR_NOOP("Top-p"),
         QT_TR_NOOP("Sample from the likeliest tokens that together reach this probability.")},
        {"minP", QT_TR_NOOP("Min-p"), QT_TR_NOOP("Drop tokens less likely than this fraction of the likeliest one.")},
        {"repeatPenalty", QT_TR_NOOP("Repeat penalty"), QT_TR_NOOP("Discourage repeating recent tokens (1 = off).")},
        {"maxTokens", QT_TR_NOOP("Max tokens"), QT_TR_NOOP("The longest reply, in tokens.")},
        {"contextSize", QT_TR_NOOP("Context size"),
         QT_TR_NOOP("How many tokens of the conversation the model sees. Applies on the next load.")},
        {"gpuLayers", QT_TR_NOOP("GPU layers"),
         QT_TR_NOOP("Layers to run on the GPU; -1 = as many as fit, more than the model has = all. Applies on the "
                    "next load.")},
        {"threads", QT_TR_NOOP("Threads"),
         QT_TR_NOOP("CPU threads for the model (0 = one per core). Applies on the next load.")},
        {"seed", QT_TR_NOOP("Seed"),
         QT_TR_NOOP("Random seed; -1 picks a new one for every reply (it is recorded with the reply).")},
        {"systemPrompt", QT_TR_NOOP("System prompt"),
         QT_TR_NOOP("Instructions the model reads before the conversation.")},
    };
    for (const Texts& t : all)
        if (key == QLatin1String(t.key))
            return &t;
    return nullptr;
}

QString SettingsModel::label(const QString& key) const
{
    const Texts* t = texts(key);
    return t ? tr(t->label) : key;
}

QString SettingsModel::help(const QString& key) const
{
    const Texts* t = texts(key);
    QString text = t ? tr(t->help) : QString();
    if (key == QLatin1String("gpuLayers") && GpuDevices::chosen().found) {
        const GpuDevice& gpu = GpuDevices::chosen();
        text +=
            QLatin1Char(' ') +
            tr("GPU: %1, %2 MiB free of %3 MiB.").arg(gpu.name).arg(gpu.memoryFree >> 20).arg(gpu.memoryTotal >> 20);
    }
    return text;
}

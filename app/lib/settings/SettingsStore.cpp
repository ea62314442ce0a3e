#include "settings/SettingsStore.h"

#include <QCryptographicHash>
#include <QRandomGenerator>

const QList<SettingsStore::Descriptor>& SettingsStore::descriptors()
{
    using T = Type;
    static const QList<Descriptor> all = {
        {QStringLiteral("temperature"), T::Real, 0.7, 0, 2, 0.05, 2},
        {QStringLiteral("topK"), T::Integer, 40, 0, 500, 1, 0},
        {QStringLiteral("topP"), T::Real, 0.95, 0, 1, 0.01, 2},
        {QStringLiteral("minP"), T::Real, 0.05, 0, 1, 0.01, 2},
        {QStringLiteral("repeatPenalty"), T::Real, 1.1, 1, 2, 0.05, 2},
        {QStringLiteral("maxTokens"), T::Integer, 1024, 1, 32768, 64, 0},
        {QStringLiteral("contextSize"), T::Integer, 4096, 256, 131072, 256, 0},
        {QStringLiteral("gpuLayers"), T::Integer, 0, -1, 999, 1, 0},
        {QStringLiteral("threads"), T::Integer, 0, 0, 256, 1, 0},
        {QStringLiteral("seed"), T::Integer, -1, -1, 2147483647, 1, 0},
        {QStringLiteral("systemPrompt"), T::Text, QStringLiteral("You are a helpful assistant."), 0, 0, 0, 0},
    };
    return all;
}

const SettingsStore::Descriptor* SettingsStore::descriptor(const QString& key)
{
    for (const Descriptor& d : descriptors())
        if (d.key == key)
            return &d;
    return nullptr;
}

SettingsStore::SettingsStore(QSettings* settings, QObject* parent) : QObject(parent), m_settings(settings)
{
}

QString SettingsStore::groupFor(const QString& modelPath)
{
    const QByteArray hash = QCryptographicHash::hash(modelPath.toUtf8(), QCryptographicHash::Sha1).toHex().left(16);
    return QStringLiteral("models/") + QString::fromLatin1(hash);
}

QVariant SettingsStore::clamp(const Descriptor& d, const QVariant& value)
{
    switch (d.type) {
    case Type::Real: return std::clamp(value.toDouble(), d.minimum, d.maximum);
    case Type::Integer: return qint64(std::clamp(double(value.toLongLong()), d.minimum, d.maximum));
    case Type::Text: return value.toString();
    }
    return value;
}

QVariant SettingsStore::globalValue(const QString& key) const
{
    const Descriptor* d = descriptor(key);
    if (!d)
        return {};
    const QVariant stored = m_settings->value(QStringLiteral("generation/") + key);
    return stored.isValid() ? clamp(*d, stored) : d->defaultValue;
}

void SettingsStore::setGlobalValue(const QString& key, const QVariant& value)
{
    const Descriptor* d = descriptor(key);
    if (!d)
        return;
    m_settings->setValue(QStringLiteral("generation/") + key, clamp(*d, value));
    emit changed({}, key);
}

void SettingsStore::resetGlobalValue(const QString& key)
{
    m_settings->remove(QStringLiteral("generation/") + key);
    emit changed({}, key);
}

std::optional<QVariant> SettingsStore::modelOverride(const QString& modelPath, const QString& key) const
{
    const Descriptor* d = descriptor(key);
    if (!d || modelPath.isEmpty())
        return std::nullopt;
    const QVariant stored = m_settings->value(groupFor(modelPath) + QLatin1Char('/') + key);
    return stored.isValid() ? std::optional<QVariant>(clamp(*d, stored)) : std::nullopt;
}

void SettingsStore::setModelOverride(const QString& modelPath, const QString& key, const QVariant& value)
{
    const Descriptor* d = descriptor(key);
    if (!d || modelPath.isEmpty())
        return;
    const QString group = groupFor(modelPath);
    m_settings->setValue(group + QStringLiteral("/path"), modelPath);
    m_settings->setValue(group + QLatin1Char('/') + key, clamp(*d, value));
    emit changed(modelPath, key);
}

void SettingsStore::clearModelOverride(const QString& modelPath, const QString& key)
{
    m_settings->remove(groupFor(modelPath) + QLatin1Char('/') + key);
    emit changed(modelPath, key);
}

QVariant SettingsStore::effective(const QString& modelPath, const QString& key) const
{
    if (const auto v = modelOverride(modelPath, key))
        return *v;
    return globalValue(key);
}

SamplerSettings SettingsStore::sampler(const QString& modelPath) const
{
    SamplerSettings s;
    s.temperature = effective(modelPath, QStringLiteral("temperature")).toDouble();
    s.topK = effective(modelPath, QStringLiteral("topK")).toInt();
    s.topP = effective(modelPath, QStringLiteral("topP")).toDouble();
    s.minP = effective(modelPath, QStringLiteral("minP")).toDouble();
    s.repeatPenalty = effective(modelPath, QStringLiteral("repeatPenalty")).toDouble();
    s.maxTokens = effective(modelPath, QStringLiteral("maxTokens")).toInt();
    const qint64 seed = effective(modelPath, QStringLiteral("seed")).toLongLong();
    s.seed = seed >= 0 ? quint64(seed) : QRandomGenerator::global()->bounded(quint32(2147483647));
    return s;
}

LoadParams SettingsStore::loadParams(const QString& modelPath) const
{
    LoadParams p;
    p.contextSize = effective(modelPath, QStringLiteral("contextSize")).toInt();
    p.threads = effective(modelPath, QStringLiteral("threads")).toInt();
    p.gpuLayers = effective(modelPath, QStringLiteral("gpuLayers")).toInt(); // -1: as many as fit
    return p;
}

QString SettingsStore::systemPrompt(const QString& modelPath) const
{
    return effective(modelPath, QStringLiteral("systemPrompt")).toString();
}

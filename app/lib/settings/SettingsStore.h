// Generation settings persisted with QSettings: global defaults plus
// per-model overrides. A model's effective value is its override if it has
// one, else the global value, else the built-in default.
//
// Layout in the settings file:
//   generation/<key>                global values
//   models/<id>/path                the model file an override group is for
//   models/<id>/<key>               that model's overrides
// where <id> is a hash of the model's path (paths make poor group names).
//
// GUI thread.
#pragma once

#include "engine/EngineTypes.h"

#include <QObject>
#include <QSettings>
#include <QVariant>

#include <optional>

class SettingsStore : public QObject {
    Q_OBJECT

public:
    enum class Type {
        Real,
        Integer,
        Text
    };

    struct Descriptor {
        QString key;
        Type type;
        QVariant defaultValue;
        double minimum = 0;
        double maximum = 0;
        double step = 1;
        int decimals = 0;
    };

    // Settings in `settings` (not owned, must outlive the store).
    explicit SettingsStore(QSettings* settings, QObject* parent = nullptr);

    static const QList<Descriptor>& descriptors();
    static const Descriptor* descriptor(const QString& key);

    QVariant globalValue(const QString& key) const;
    void setGlobalValue(const QString& key, const QVariant& value);
    void resetGlobalValue(const QString& key);

    std::optional<QVariant> modelOverride(const QString& modelPath, const QString& key) const;
    void setModelOverride(const QString& modelPath, const QString& key, const QVariant& value);
    void clearModelOverride(const QString& modelPath, const QString& key);

    QVariant effective(const QString& modelPath, const QString& key) const;

    // Effective settings of a generation / load with `modelPath`. The seed
    // setting -1 means "random": sampler() then draws one, so that every
    // reply records the seed it really used.
    SamplerSettings sampler(const QString& modelPath) const;
    LoadParams loadParams(const QString& modelPath) const;
    QString systemPrompt(const QString& modelPath) const;

signals:
    // `modelPath` is empty for a change of a global value.
    void changed(const QString& modelPath, const QString& key);

private:
    static QString groupFor(const QString& modelPath);
    static QVariant clamp(const Descriptor& d, const QVariant& value);

    QSettings* m_settings;
};

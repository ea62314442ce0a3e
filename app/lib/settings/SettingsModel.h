// The settings panel's rows: one per generation setting, for one scope —
// the global defaults or the overrides of the loaded model. Editing in the
// model scope creates an override; resetting removes it (the global value
// shows through again). Backed by SettingsStore.
#pragma once

#include "settings/SettingsStore.h"

#include <QAbstractListModel>
#include <QtQml/qqmlregistration.h>

class SettingsModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by the session")
    Q_PROPERTY(Scope scope READ scope WRITE setScope NOTIFY scopeChanged)
    Q_PROPERTY(QString modelPath READ modelPath NOTIFY modelChanged)
    Q_PROPERTY(QString modelName READ modelName NOTIFY modelChanged)
    Q_PROPERTY(bool hasModel READ hasModel NOTIFY modelChanged)

public:
    enum Scope {
        Global,
        Model
    };
    Q_ENUM(Scope)
    enum ValueType {
        Real,
        Integer,
        Text
    };
    Q_ENUM(ValueType)

    enum Roles {
        KeyRole = Qt::UserRole + 1, // QString: "temperature", "topK", …
        LabelRole,                  // QString: translated name
        HelpRole,                   // QString: translated one-line explanation
        ValueTypeRole,              // ValueType
        ValueRole,                  // QVariant: the value in this scope (effective for Model)
        MinimumRole,                // double
        MaximumRole,                // double
        StepRole,                   // double
        DecimalsRole,               // int
        OverriddenRole,             // bool: Model scope and the model has its own value
        ResettableRole,             // bool: reset would change something here
        AvailableRole,              // bool: false for settings that cannot apply here (GPU layers)
        UnavailableReasonRole,      // QString: why not (translated), "" when available
    };
    Q_ENUM(Roles)

    explicit SettingsModel(SettingsStore* store, QObject* parent = nullptr);

    Scope scope() const { return m_scope; }
    void setScope(Scope scope);
    QString modelPath() const { return m_modelPath; }
    QString modelName() const { return m_modelName; }
    bool hasModel() const { return !m_modelPath.isEmpty(); }
    // The loaded model whose overrides the Model scope edits ("" = none).
    void setModel(const QString& path, const QString& name);

    Q_INVOKABLE void setValue(int row, const QVariant& value);
    Q_INVOKABLE void resetValue(int row); // Model: drop the override; Global: back to the default
    Q_INVOKABLE int rowOf(const QString& key) const;
    // The value of `key` in the current scope.
    Q_INVOKABLE QVariant value(const QString& key) const { return data(index(rowOf(key)), ValueRole); }

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void scopeChanged();
    void modelChanged();

private:
    struct Texts {
        const char* key;
        const char* label;
        const char* help;
    };
    static const Texts* texts(const QString& key);
    QString label(const QString& key) const;
    QString help(const QString& key) const;
    QString unavailableReason(const QString& key) const;
    void refresh();

    SettingsStore* m_store;
    Scope m_scope = Global;
    QString m_modelPath;
    QString m_modelName;
};

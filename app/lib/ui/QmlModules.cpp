#include "ui/QmlModules.h"

#include <QQmlComponent>
#include <QQmlEngine>
#include <QRegularExpression>

QmlModules::QmlModules(QObject* parent) : QObject(parent)
{
}

bool QmlModules::importable(QQmlEngine* engine, const QString& module)
{
    static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$"));
    if (!engine || !name.match(module).hasMatch())
        return false;
    QQmlComponent probe(engine);
    probe.setData(QStringLiteral("import QtQml\nimport %1\nQtObject {}\n").arg(module).toUtf8(), QUrl());
    return probe.status() == QQmlComponent::Ready;
}

QString QmlModules::firstMissing(const QStringList& modules)
{
    QQmlEngine* engine = qmlEngine(this);
    for (const QString& module : modules) {
        auto known = m_importable.constFind(module);
        if (known == m_importable.constEnd())
            known = m_importable.insert(module, importable(engine, module));
        if (!known.value())
            return module;
    }
    return {};
}

QString QmlModules::debianPackage(const QString& module)
{
    return QStringLiteral("qml6-module-") + module.toLower().replace(QLatin1Char('.'), QLatin1Char('-'));
}

// Whether QML modules can be imported here, asked before a view uses one
// that a bare install may lack: Qt's own file dialog, where the platform has
// no native one, is written in QML on Qt.labs.folderlistmodel, and opening
// it without that module crashes (Debian ships it separately). The views
// ask firstMissing() and offer a fallback that names the module and the
// package instead. Results are cached per engine. GUI thread.
#pragma once

#include <QHash>
#include <QObject>
#include <QStringList>
#include <QtQml/qqmlregistration.h>

class QQmlEngine;

class QmlModules : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

public:
    explicit QmlModules(QObject* parent = nullptr);

    // True if `import <module>` succeeds in `engine`.
    static bool importable(QQmlEngine* engine, const QString& module);

    // The first of `modules` that cannot be imported in this object's QML
    // engine, or "" when all can.
    Q_INVOKABLE QString firstMissing(const QStringList& modules);
    // The Debian package that holds `module` (qml6-module-qt-labs-folderlistmodel
    // for Qt.labs.folderlistmodel), by Debian's naming rule.
    Q_INVOKABLE static QString debianPackage(const QString& module);

private:
    QHash<QString, bool> m_importable;
};

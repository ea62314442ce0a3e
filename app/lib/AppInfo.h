// Facts about this build for the UI (the About dialog, the window title):
// name, version, homepage, the Qt it runs on, the CPU features the engine
// uses. The version is the project's (CMakeLists.txt), the same one the
// packages, the manual pages and the AppStream metadata carry
// (tests/packaging checks that). Immutable; safe from any thread.
#pragma once

#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

class AppInfo : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    Q_PROPERTY(QString name READ name CONSTANT)
    Q_PROPERTY(QString version READ version CONSTANT)
    Q_PROPERTY(QString cpuFeatures READ cpuFeatures CONSTANT)
    Q_PROPERTY(QString homepage READ homepage CONSTANT)
    Q_PROPERTY(QString qtVersion READ qtVersion CONSTANT)

public:
    explicit AppInfo(QObject* parent = nullptr);

    static QString name();
    static QString version();
    static QString cpuFeatures();
    static QString homepage();
    // The Qt the app runs on (which may be newer than it was built with).
    static QString qtVersion();
};

// Facts about this build for the UI: name, version, the CPU features the
// engine uses. Immutable; safe from any thread.
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

public:
    explicit AppInfo(QObject* parent = nullptr);

    static QString name();
    static QString version();
    static QString cpuFeatures();
};

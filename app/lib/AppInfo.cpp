#include "AppInfo.h"

#include "cpu/cpu_features.h"
#include "hearth_version.h"

AppInfo::AppInfo(QObject* parent) : QObject(parent)
{
}

QString AppInfo::name()
{
    return QStringLiteral("Hearth");
}

QString AppInfo::version()
{
    return QStringLiteral(HEARTH_VERSION);
}

QString AppInfo::cpuFeatures()
{
    return QString::fromStdString(hearth::cpu::describeCpu());
}

QString AppInfo::homepage()
{
    return QStringLiteral("https://github.com/hearth-app/hearth");
}

QString AppInfo::qtVersion()
{
    return QString::fromLatin1(qVersion());
}

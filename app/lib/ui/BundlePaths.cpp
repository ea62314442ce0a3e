#include "ui/BundlePaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace BundlePaths {

QStringList besideExecutable(const QString& exeDir, const QString& what)
{
    const QString candidates[] = {
        exeDir + QLatin1Char('/') + what,                    // Windows (windeployqt)
        exeDir + QStringLiteral("/../Resources/") + what,    // macOS bundle (macdeployqt)
        exeDir + QStringLiteral("/../share/hearth/") + what, // a relocated Linux tree
    };
    QStringList found;
    for (const QString& c : candidates) {
        const QFileInfo info(c);
        if (info.isDir())
            found.append(QDir::cleanPath(info.absoluteFilePath()));
    }
    return found;
}

QStringList besideExecutable(const QString& what)
{
    return besideExecutable(QCoreApplication::applicationDirPath(), what);
}

} // namespace BundlePaths

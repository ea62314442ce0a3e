// Where a relocatable Hearth finds what it ships beside its executable:
// Qt's QML modules and translations as the deployment tools lay them out
// (windeployqt: qml/ and translations/ next to Hearth.exe; macdeployqt:
// Contents/Resources/qml and .../translations in the bundle; a Linux tree
// installed anywhere: ../share/hearth/...). Hearth's own QML module and
// translations are compiled into the executable, so they need no path.
//
// Nothing here looks at the build tree: a bundle moved to another folder
// or machine keeps working. Thread-safe (pure functions).
#pragma once

#include <QString>
#include <QStringList>

namespace BundlePaths {

// The existing folders named `what` ("qml", "translations") beside the
// executable in `exeDir`, most specific first.
QStringList besideExecutable(const QString& exeDir, const QString& what);

// The same for this process's executable (needs a QCoreApplication).
QStringList besideExecutable(const QString& what);

} // namespace BundlePaths

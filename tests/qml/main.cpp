#include <QtQml/QQmlExtensionPlugin>
#include <QtQuickTest>

Q_IMPORT_QML_PLUGIN(HearthPlugin)

QUICK_TEST_MAIN(hearth_qml)

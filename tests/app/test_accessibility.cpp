// What a screen reader can do with Hearth's controls, through Qt's
// accessibility interfaces (the ones the AT-SPI, UIA and NSAccessibility
// bridges serve): Press and Toggle act as a click does (Qt 6.4's own buttons
// ignore them; ui/Accessibility.h), a disabled button ignores them, and the
// model picker opened that way is a named dialog in the window's tree.
// tests/e2e/atspi_dump.py checks the same over AT-SPI in the real app.

#include "AppTestSupport.h"
#include "ui/Accessibility.h"

#include <QAccessible>
#include <QQmlApplicationEngine>
#include <QQmlComponent>
#include <QQuickItem>
#include <QQuickWindow>
#include <QSignalSpy>
#include <QTest>
#include <QtQml/QQmlExtensionPlugin>

#include <memory>

Q_IMPORT_QML_PLUGIN(HearthPlugin)

namespace {

QAccessibleActionInterface* actionsOf(QObject* object)
{
    QAccessibleInterface* iface = QAccessible::queryAccessibleInterface(object);
    return iface ? iface->actionInterface() : nullptr;
}

QQuickItem* findNamed(QObject* root, const QString& name)
{
    for (auto* item : root->findChildren<QQuickItem*>())
        if (item->objectName() == name)
            return item;
    return nullptr;
}

// Depth-first: the first interface with `role` and `name` under `iface`.
QAccessibleInterface* findInTree(QAccessibleInterface* iface, QAccessible::Role role, const QString& name,
                                 int depth = 0)
{
    if (!iface || depth > 60)
        return nullptr;
    if (iface->role() == role && iface->text(QAccessible::Name) == name && !iface->state().invisible)
        return iface;
    for (int i = 0; i < iface->childCount(); ++i)
        if (QAccessibleInterface* found = findInTree(iface->child(i), role, name, depth + 1))
            return found;
    return nullptr;
}

} // namespace

class TestAccessibility : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Before any QML engine: the factory must come ahead of Qt Quick's.
        Accessibility::installActions();
        QAccessible::setActive(true);
    }

    void pressAndToggleActAsAClick()
    {
        QQmlEngine engine;
        QQmlComponent component(&engine);
        component.setData(R"(
            import QtQuick
            import QtQuick.Controls
            import Hearth
            Window {
                width: 400; height: 300; visible: true
                Column {
                    Button { objectName: "push"; text: "Push" }
                    Button { objectName: "off"; text: "Off"; enabled: false }
                    CheckBox { objectName: "check"; text: "Check" }
                    Button { objectName: "withAction"; action: Action { objectName: "action"; text: "Act" } }
                    ComboBox { objectName: "combo"; model: ["One", "Two"]; Accessible.name: "Choice"
                               Component.onCompleted: Accessibility.nameItem(contentItem, Accessible.name) }
                }
            }
        )",
                          QUrl(QStringLiteral("qrc:/test_accessibility.qml")));
        std::unique_ptr<QObject> root(component.create());
        QVERIFY2(root, qPrintable(component.errorString()));
        auto* window = qobject_cast<QQuickWindow*>(root.get());
        QVERIFY(QTest::qWaitForWindowExposed(window));

        QQuickItem* push = findNamed(window, QStringLiteral("push"));
        QVERIFY(push);
        QSignalSpy pushed(push, SIGNAL(clicked()));
        QAccessibleActionInterface* pushActions = actionsOf(push);
        QVERIFY(pushActions);
        QVERIFY(pushActions->actionNames().contains(QAccessibleActionInterface::pressAction()));
        QVERIFY2(!pushActions->actionNames().contains(QAccessibleActionInterface::toggleAction()),
                 "a push button offers no Toggle");
        pushActions->doAction(QAccessibleActionInterface::pressAction());
        QCOMPARE(pushed.count(), 1);

        QQuickItem* off = findNamed(window, QStringLiteral("off"));
        QSignalSpy offClicked(off, SIGNAL(clicked()));
        actionsOf(off)->doAction(QAccessibleActionInterface::pressAction());
        QCOMPARE(offClicked.count(), 0);

        QQuickItem* check = findNamed(window, QStringLiteral("check"));
        QSignalSpy toggled(check, SIGNAL(toggled()));
        QSignalSpy checkClicked(check, SIGNAL(clicked()));
        QAccessibleActionInterface* checkActions = actionsOf(check);
        QVERIFY(checkActions->actionNames().contains(QAccessibleActionInterface::toggleAction()));
        checkActions->doAction(QAccessibleActionInterface::toggleAction());
        QVERIFY(check->property("checked").toBool());
        QCOMPARE(toggled.count(), 1);
        QCOMPARE(checkClicked.count(), 1);
        checkActions->doAction(QAccessibleActionInterface::pressAction());
        QVERIFY(!check->property("checked").toBool());
        QCOMPARE(toggled.count(), 2);

        QQuickItem* withAction = findNamed(window, QStringLiteral("withAction"));
        QObject* action = withAction->property("action").value<QObject*>();
        QVERIFY(action);
        QSignalSpy triggered(action, SIGNAL(triggered(QObject*)));
        actionsOf(withAction)->doAction(QAccessibleActionInterface::pressAction());
        QCOMPARE(triggered.count(), 1);

        QQuickItem* combo = findNamed(window, QStringLiteral("combo"));
        auto* field = combo->property("contentItem").value<QQuickItem*>();
        QVERIFY(field);
        QAccessibleInterface* fieldIface = QAccessible::queryAccessibleInterface(field);
        QVERIFY(fieldIface);
        QCOMPARE(fieldIface->text(QAccessible::Name), QStringLiteral("Choice"));
    }

    void modelPickerOpensByPressAsANamedDialog()
    {
        TestSession test;
        QQmlApplicationEngine engine;
        engine.setInitialProperties({{QStringLiteral("session"), QVariant::fromValue(test.session.get())}});
        engine.load(QUrl(QStringLiteral("qrc:/qt/qml/Hearth/Main.qml")));
        QCOMPARE(engine.rootObjects().size(), 1);
        auto* window = qobject_cast<QQuickWindow*>(engine.rootObjects().constFirst());
        QVERIFY(QTest::qWaitForWindowExposed(window));
        QAccessibleInterface* tree = QAccessible::queryAccessibleInterface(window);
        QVERIFY(tree);
        QVERIFY(!findInTree(tree, QAccessible::Dialog, QStringLiteral("Models")));

        QQuickItem* button = findNamed(window, QStringLiteral("modelButton"));
        QVERIFY(button);
        actionsOf(button)->doAction(QAccessibleActionInterface::pressAction());
        QAccessibleInterface* dialog = nullptr;
        QTRY_VERIFY((dialog = findInTree(tree, QAccessible::Dialog, QStringLiteral("Models"))) != nullptr);
        QAccessibleInterface* close = findInTree(dialog, QAccessible::Button, QStringLiteral("Close"));
        QVERIFY(close);
        close->actionInterface()->doAction(QAccessibleActionInterface::pressAction());
        QTRY_VERIFY(!findInTree(tree, QAccessible::Dialog, QStringLiteral("Models")));

        // The settings drawer the same way, with its own Close.
        actionsOf(findNamed(window, QStringLiteral("settingsButton")))
            ->doAction(QAccessibleActionInterface::pressAction());
        QTRY_VERIFY((dialog = findInTree(tree, QAccessible::Dialog, QStringLiteral("Settings"))) != nullptr);
        close = findInTree(dialog, QAccessible::Button, QStringLiteral("Close"));
        QVERIFY(close);
        close->actionInterface()->doAction(QAccessibleActionInterface::pressAction());
        QTRY_VERIFY(!findInTree(tree, QAccessible::Dialog, QStringLiteral("Settings")));
    }
};

QTEST_MAIN(TestAccessibility)
#include "test_accessibility.moc"

// What screen readers need that QML cannot say itself: a Popup (the model
// picker, the settings drawer) is presented as a dialog by its internal
// item, which QML's Accessible attached property cannot reach; nameDialog()
// gives that item the popup's name. And Qt 6.4's buttons list a "Press"
// action that does nothing (its controls have no handler for it; later Qt
// versions have one), so a screen reader could not activate any of them:
// installActions() makes Press and Toggle do what a click does. GUI thread.
#pragma once

#include <QObject>
#include <QString>
#include <QtQml/qqmlregistration.h>

class Accessibility : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON

public:
    explicit Accessibility(QObject* parent = nullptr);

    // Names the dialog a screen reader sees for `popup` (a Popup, Drawer or
    // Dialog); false if it has no such item yet.
    Q_INVOKABLE static bool nameDialog(QObject* popup, const QString& name);

    // Names an item QML gives no Accessible attached property of its own: a
    // style's inner part, such as a ComboBox's text field (a screen reader
    // would meet it as an unnamed text). False if `item` is not an item.
    Q_INVOKABLE static bool nameItem(QObject* item, const QString& name);

    // From now on, every button, check box, menu item and delegate a screen
    // reader meets answers its Press and Toggle actions as a click does
    // (enabled only; its action triggered if it has one). Call once, before
    // the first QML engine loads: it must come ahead of Qt Quick's own
    // accessibility factory. Harmless where Qt handles them itself.
    static void installActions();
};

// What screen readers need that QML cannot say itself: a Popup (the model
// picker, the settings drawer) is presented as a dialog by its internal
// item, which QML's Accessible attached property cannot reach; name() gives
// that item the popup's name. GUI thread.
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
};

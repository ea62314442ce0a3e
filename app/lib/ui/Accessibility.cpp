#include "ui/Accessibility.h"

#include <QAccessible>
#include <QQmlContext>
#include <QQmlEngine>
#include <QQmlProperty>
#include <QQuickItem>

namespace {

// Does for one button what a click does, when a screen reader asks for its
// Press or Toggle action: the order of a mouse click (check state first,
// then the action or clicked()).
class ButtonActions : public QObject {
    Q_OBJECT

public:
    explicit ButtonActions(QQuickItem* button) : QObject(button), m_button(button) {}

public slots:
    void activate()
    {
        if (!m_button->isEnabled() || !m_button->isVisible())
            return;
        auto* action = m_button->property("action").value<QObject*>();
        if (action && action->property("enabled").toBool()) {
            QMetaObject::invokeMethod(action, "trigger", Q_ARG(QObject*, m_button));
            return;
        }
        if (m_button->property("checkable").toBool()) {
            const bool was = m_button->property("checked").toBool();
            QMetaObject::invokeMethod(m_button, "toggle"); // as a click, but it does not say so:
            if (m_button->property("checked").toBool() != was)
                QMetaObject::invokeMethod(m_button, "toggled");
        }
        QMetaObject::invokeMethod(m_button, "clicked");
    }

private:
    QQuickItem* m_button;
};

// The Accessible attached object of `item`, made if it has none yet.
QObject* accessibleAttached(QQuickItem* item)
{
    const auto find = [item]() -> QObject* {
        for (QObject* child : item->children())
            if (child->inherits("QQuickAccessibleAttached"))
                return child;
        return nullptr;
    };
    if (QObject* found = find())
        return found;
    if (QQmlContext* context = qmlContext(item))
        QQmlProperty(item, QStringLiteral("Accessible.role"), context).read(); // creates it
    return find();
}

// A factory consulted before Qt Quick's for every object that gets its first
// accessible interface: it makes none (Qt Quick's factory does), it only
// connects a button's Press and Toggle signals, which Qt's item interface
// emits when a screen reader asks for them and nobody else handles.
QAccessibleInterface* connectButtonActions(const QString&, QObject* object)
{
    // Asked once per class of the object, and again from inside when making
    // the attached object announces it: the mark, set first, makes it once.
    static const char* const mark = "_hearthAccessibleActions";
    auto* item = qobject_cast<QQuickItem*>(object);
    if (!item || !item->inherits("QQuickAbstractButton") || item->property(mark).isValid())
        return nullptr;
    item->setProperty(mark, true);
    QObject* attached = accessibleAttached(item);
    if (!attached)
        return nullptr;
    auto* actions = new ButtonActions(item);
    QObject::connect(attached, SIGNAL(pressAction()), actions, SLOT(activate()));
    if (item->property("checkable").toBool()) // else a screen reader would offer Toggle on a push button
        QObject::connect(attached, SIGNAL(toggleAction()), actions, SLOT(activate()));
    return nullptr;
}

} // namespace

Accessibility::Accessibility(QObject* parent) : QObject(parent)
{
}

void Accessibility::installActions()
{
    static bool installed = false;
    if (installed)
        return;
    installed = true;
    QAccessible::installFactory(connectButtonActions);
}

bool Accessibility::nameDialog(QObject* popup, const QString& name)
{
    if (!popup)
        return false;
    // The popup's own item is the parent of its contentItem.
    auto* content = popup->property("contentItem").value<QQuickItem*>();
    QQuickItem* item = content ? content->parentItem() : nullptr;
    QQmlContext* context = qmlContext(popup);
    if (!item || !context)
        return false;
    QQmlProperty(item, QStringLiteral("Accessible.role"), context).write(int(QAccessible::Dialog));
    return QQmlProperty(item, QStringLiteral("Accessible.name"), context).write(name);
}

bool Accessibility::nameItem(QObject* object, const QString& name)
{
    auto* item = qobject_cast<QQuickItem*>(object);
    // The context only resolves "Accessible": an item made in C++ (a
    // popup's) has none, the QML around it does.
    QQmlContext* context = nullptr;
    for (QObject* up = item; up && !context; up = up->parent())
        context = qmlContext(up);
    if (!context)
        return false;
    QQmlProperty label(item, QStringLiteral("Accessible.name"), context);
    return label.isValid() && label.write(name);
}

#include "Accessibility.moc"

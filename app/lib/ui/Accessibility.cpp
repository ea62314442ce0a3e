#include "ui/Accessibility.h"

#include <QAccessible>
#include <QQmlContext>
#include <QQmlEngine>
#include <QQmlProperty>
#include <QQuickItem>

Accessibility::Accessibility(QObject* parent) : QObject(parent)
{
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
    QQmlProperty role(item, QStringLiteral("Accessible.role"), context);
    QQmlProperty label(item, QStringLiteral("Accessible.name"), context);
    if (!label.isValid())
        return false;
    role.write(int(QAccessible::Dialog));
    return label.write(name);
}

#include "ui/ColorSchemePortal.h"

#ifdef HEARTH_HAVE_QTDBUS
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusVariant>

namespace {
const QString kService = QStringLiteral("org.freedesktop.portal.Desktop");
const QString kPath = QStringLiteral("/org/freedesktop/portal/desktop");
const QString kInterface = QStringLiteral("org.freedesktop.portal.Settings");
const QString kGroup = QStringLiteral("org.freedesktop.appearance");
const QString kKey = QStringLiteral("color-scheme");

// Read() wraps the value in one more variant than ReadOne() does.
uint unwrap(QVariant v)
{
    while (v.canConvert<QDBusVariant>() && v.userType() == qMetaTypeId<QDBusVariant>())
        v = v.value<QDBusVariant>().variant();
    return v.toUInt();
}
} // namespace

ColorSchemePortal::ColorSchemePortal(QObject* parent) : QObject(parent)
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected())
        return;
    bus.connect(kService, kPath, kInterface, QStringLiteral("SettingChanged"), this,
                SLOT(onSettingChanged(QString, QString, QDBusVariant)));
    QDBusMessage read = QDBusMessage::createMethodCall(kService, kPath, kInterface, QStringLiteral("Read"));
    read << kGroup << kKey;
    auto* watcher = new QDBusPendingCallWatcher(bus.asyncCall(read, 2000), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, watcher] {
        const QDBusPendingReply<QVariant> reply = *watcher;
        if (!reply.isError())
            set(unwrap(reply.value()));
        watcher->deleteLater();
    });
}

void ColorSchemePortal::onSettingChanged(const QString& group, const QString& key, const QDBusVariant& value)
{
    if (group == kGroup && key == kKey)
        set(unwrap(value.variant()));
}
#else
ColorSchemePortal::ColorSchemePortal(QObject* parent) : QObject(parent)
{
}

void ColorSchemePortal::onSettingChanged(const QString&, const QString&, const QDBusVariant&)
{
}
#endif

void ColorSchemePortal::set(uint value)
{
    const Preference p = value == 1 ? PreferDark : value == 2 ? PreferLight : None;
    if (p != m_preference) {
        m_preference = p;
        emit preferenceChanged();
    }
}

// The desktop's light/dark preference from the freedesktop settings portal
// (org.freedesktop.appearance color-scheme: 0 none, 1 prefer dark, 2 prefer
// light), which GNOME, KDE and others publish even when the toolkit palette
// does not follow it; Qt 6.4 does not read it yet. Asynchronous (the GUI
// never waits on D-Bus) and watched for changes. Linux with QtDBus only;
// elsewhere it never reports a preference.
#pragma once

#include <QObject>

class ColorSchemePortal : public QObject {
    Q_OBJECT

public:
    enum Preference {
        None,
        PreferDark,
        PreferLight
    };

    explicit ColorSchemePortal(QObject* parent = nullptr);
    Preference preference() const { return m_preference; }

signals:
    void preferenceChanged();

private slots:
    void onSettingChanged(const QString& group, const QString& key, const class QDBusVariant& value);

private:
    void set(uint value);
    Preference m_preference = None;
};

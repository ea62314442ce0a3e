#include "ui/Theme.h"

#include "ui/ColorSchemePortal.h"

#include <QEvent>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QPalette>
#include <QSettings>

Theme::Theme(QObject* parent) : QObject(parent)
{
    const QString forced = qEnvironmentVariable("HEARTH_THEME").toLower();
    if (forced == QLatin1String("dark"))
        m_mode = Dark;
    else if (forced == QLatin1String("light"))
        m_mode = Light;
    else
        m_mode = Mode(QSettings().value(QStringLiteral("appearance/theme"), int(System)).toInt());
    if (qApp)
        qApp->installEventFilter(this);
    m_portal = new ColorSchemePortal(this);
    connect(m_portal, &ColorSchemePortal::preferenceChanged, this, &Theme::update);
    update();
}

void Theme::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    QSettings().setValue(QStringLiteral("appearance/theme"), int(mode));
    update();
    emit changed();
}

bool Theme::systemIsDark()
{
    const QPalette palette = QGuiApplication::palette();
    return palette.color(QPalette::Window).lightness() < palette.color(QPalette::WindowText).lightness();
}

void Theme::update()
{
    bool system = systemIsDark();
    if (m_portal->preference() != ColorSchemePortal::None)
        system = m_portal->preference() == ColorSchemePortal::PreferDark;
    const bool dark = m_mode == Dark || (m_mode == System && system);
    if (dark != m_dark) {
        m_dark = dark;
        emit changed();
    }
}

bool Theme::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == qApp && event->type() == QEvent::ApplicationPaletteChange)
        update();
    return QObject::eventFilter(watched, event);
}

QString Theme::monospaceFamily() const
{
    return QFontDatabase::systemFont(QFontDatabase::FixedFont).family();
}

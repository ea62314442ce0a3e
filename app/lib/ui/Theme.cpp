#include "ui/Theme.h"

#include "ui/ColorSchemePortal.h"

#include <QEvent>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QPalette>
#include <QSettings>

#include <algorithm>
#include <cmath>

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

// WCAG 2.1 relative luminance of an sRGB colour.
static double luminance(const QColor& c)
{
    const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double Theme::contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

#include "ui/Theme.h"

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
    const bool dark = m_mode == Dark || (m_mode == System && systemIsDark());
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

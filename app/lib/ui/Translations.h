// Loads the user-interface translations for a language: Hearth's own
// (compiled into the binary under :/i18n) and Qt's, where installed.
#pragma once

#include <QLocale>
#include <QString>

class QCoreApplication;

namespace Translations {

// Installs translators for `locale` on `app`; returns true if Hearth has a
// translation for it (English needs none).
bool install(QCoreApplication& app, const QLocale& locale);

// The languages Hearth ships, as locale names ("en", "zh_CN").
QStringList available();

} // namespace Translations

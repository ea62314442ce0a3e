#include "ui/Translations.h"

#include "ui/BundlePaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QLibraryInfo>
#include <QTranslator>

namespace Translations {

bool install(QCoreApplication& app, const QLocale& locale)
{
    auto* own = new QTranslator(&app);
    const bool found = own->load(locale, QStringLiteral("hearth"), QStringLiteral("_"), QStringLiteral(":/i18n"));
    // English otherwise: it carries the plural forms ("1 token", "2 tokens").
    if (found || own->load(QStringLiteral(":/i18n/hearth_en.qm")))
        QCoreApplication::installTranslator(own);
    else
        delete own;
    // Qt's own (standard dialogs' buttons): shipped beside the executable
    // in a bundle, else where Qt is installed.
    QStringList qtDirs = BundlePaths::besideExecutable(QStringLiteral("translations"));
    qtDirs.append(QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    auto* qt = new QTranslator(&app);
    bool qtFound = false;
    for (const QString& dir : qtDirs)
        if ((qtFound = qt->load(locale, QStringLiteral("qt"), QStringLiteral("_"), dir)))
            break;
    if (qtFound)
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return found;
}

QStringList available()
{
    QStringList names;
    const QStringList files = QDir(QStringLiteral(":/i18n")).entryList({QStringLiteral("hearth_*.qm")});
    for (const QString& f : files)
        names.append(f.mid(7, f.size() - 10));
    return names;
}

} // namespace Translations

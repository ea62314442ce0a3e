#include "AppInfo.h"
#include "ModelPaths.h"
#include "ui/BundlePaths.h"
#include "ui/Translations.h"

#include <QDir>

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <QFile>

class TestAppInfo : public QObject {
    Q_OBJECT

private slots:
    void versionIsSemantic()
    {
        QVERIFY(QRegularExpression(QStringLiteral("^\\d+\\.\\d+\\.\\d+$")).match(AppInfo::version()).hasMatch());
        QCOMPARE(AppInfo::name(), QStringLiteral("Hearth"));
    }

    // The layouts windeployqt, macdeployqt and a relocated Linux tree make,
    // found from the executable's folder alone, most specific first.
    void bundlePathsFollowTheExecutable()
    {
        QTemporaryDir root;
        const QString exe = root.filePath(QStringLiteral("Hearth.app/Contents/MacOS"));
        QVERIFY(QDir().mkpath(exe));
        QVERIFY(BundlePaths::besideExecutable(exe, QStringLiteral("qml")).isEmpty());
        QVERIFY(QDir().mkpath(root.filePath(QStringLiteral("Hearth.app/Contents/Resources/qml"))));
        QCOMPARE(BundlePaths::besideExecutable(exe, QStringLiteral("qml")),
                 QStringList{root.filePath(QStringLiteral("Hearth.app/Contents/Resources/qml"))});
        QVERIFY(QDir().mkpath(exe + QStringLiteral("/qml")));
        QCOMPARE(BundlePaths::besideExecutable(exe, QStringLiteral("qml")).value(0), exe + QStringLiteral("/qml"));

        const QString bin = root.filePath(QStringLiteral("usr/bin"));
        QVERIFY(QDir().mkpath(bin));
        QVERIFY(QDir().mkpath(root.filePath(QStringLiteral("usr/share/hearth/translations"))));
        QCOMPARE(BundlePaths::besideExecutable(bin, QStringLiteral("translations")),
                 QStringList{root.filePath(QStringLiteral("usr/share/hearth/translations"))});
        QVERIFY(BundlePaths::besideExecutable(bin, QStringLiteral("qml")).isEmpty());
    }

    void modelsDirFollowsEnvironment()
    {
        QTemporaryDir dir;
        const QByteArray old = qgetenv("HEARTH_MODELS_DIR");
        qputenv("HEARTH_MODELS_DIR", dir.path().toUtf8());
        QCOMPARE(ModelPaths::defaultModelsDir(), dir.path());
        QVERIFY(ModelPaths::defaultModelPath().isEmpty());
        QFile f(dir.filePath(ModelPaths::defaultModelFileName()));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        QCOMPARE(ModelPaths::defaultModelPath(), f.fileName());
        if (old.isEmpty())
            qunsetenv("HEARTH_MODELS_DIR");
        else
            qputenv("HEARTH_MODELS_DIR", old);
    }

    // zh_CN gets Qt's own strings too (the OK and Cancel of dialogs, the file
    // dialog): qt6-translations-l10n, loaded with Hearth's.
    void qtsOwnStringsAreTranslated()
    {
        QVERIFY(Translations::install(*QCoreApplication::instance(), QLocale(QStringLiteral("zh_CN"))));
        QCOMPARE(QCoreApplication::translate("ModelPicker", "Models"), QStringLiteral("模型"));
        const QString cancel = QCoreApplication::translate("QPlatformTheme", "Cancel");
        QVERIFY2(cancel != QLatin1String("Cancel"),
                 "Qt's translations for zh_CN are not installed (Debian: qt6-translations-l10n)");
        QCOMPARE(cancel, QStringLiteral("取消"));
    }
};

QTEST_GUILESS_MAIN(TestAppInfo)
#include "test_app_info.moc"

#include "AppInfo.h"
#include "ModelPaths.h"

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
};

QTEST_GUILESS_MAIN(TestAppInfo)
#include "test_app_info.moc"

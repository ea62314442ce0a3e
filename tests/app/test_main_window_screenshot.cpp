// Renders the main window offscreen with a session and checks that it is
// not blank.

#include "AppTestSupport.h"
#include "WindowCapture.h"

#include <QQmlApplicationEngine>
#include <QQuickWindow>
#include <QTemporaryDir>
#include <QTest>
#include <QtQml/QQmlExtensionPlugin>

Q_IMPORT_QML_PLUGIN(HearthPlugin)

class TestMainWindowScreenshot : public QObject {
    Q_OBJECT

private slots:
    void mainWindowRendersContent()
    {
        TestSession test;
        QQmlApplicationEngine engine;
        engine.setInitialProperties({{QStringLiteral("session"), QVariant::fromValue(test.session.get())}});
        engine.load(QUrl(QStringLiteral("qrc:/qt/qml/Hearth/Main.qml"))); // loadFromModule() needs Qt 6.5
        QCOMPARE(engine.rootObjects().size(), 1);
        auto* window = qobject_cast<QQuickWindow*>(engine.rootObjects().constFirst());
        QVERIFY(window);
        QVERIFY(QTest::qWaitForWindowExposed(window));

        // Written into a directory of its own: a run from the source tree must leave no image there.
        const QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString file = dir.filePath(QStringLiteral("main-window.png"));
        bool done = false;
        bool saved = false;
        WindowCapture::saveAfterFirstFrames(window, file, [&](bool ok, const QString&) {
            saved = ok;
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(done, 10000);
        QVERIFY(saved);
        const QImage image(file);
        QCOMPARE(image.size(), window->size() * window->devicePixelRatio());
        QVERIFY2(WindowCapture::looksRendered(image), "the main window rendered blank");
    }

    void blankImageIsRecognised()
    {
        QImage blank(200, 100, QImage::Format_RGB32);
        blank.fill(Qt::white);
        QVERIFY(!WindowCapture::looksRendered(blank));
    }
};

QTEST_MAIN(TestMainWindowScreenshot)
#include "test_main_window_screenshot.moc"

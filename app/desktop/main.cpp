// The desktop executable: a QML window on the `Hearth` module.
//
//   Hearth [MODEL.gguf] [--quit-after MS] [--screenshot FILE]

#include "AppInfo.h"
#include "WindowCapture.h"

#include <QCommandLineParser>
#include <QGuiApplication>
#include <QQmlApplicationEngine>
#include <QQuickWindow>
#include <QTimer>
#include <QtQml/QQmlExtensionPlugin>

#include <cstdio>

Q_IMPORT_QML_PLUGIN(HearthPlugin)

int main(int argc, char* argv[])
{
    QGuiApplication app(argc, argv);
    QGuiApplication::setApplicationName(QStringLiteral("Hearth"));
    QGuiApplication::setOrganizationName(QStringLiteral("Hearth"));
    QGuiApplication::setApplicationVersion(AppInfo::version());

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Hearth: chat with local language models"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption quitAfter(QStringLiteral("quit-after"),
                                       QStringLiteral("Quit after MS milliseconds (tests)."), QStringLiteral("MS"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Save a PNG of the window to FILE once it has rendered."),
                                        QStringLiteral("FILE"));
    parser.addOption(quitAfter);
    parser.addOption(screenshot);
    parser.addPositionalArgument(QStringLiteral("model"), QStringLiteral("A GGUF model file to open."),
                                 QStringLiteral("[MODEL.gguf]"));
    parser.process(app);

    QQmlApplicationEngine engine;
    QObject::connect(
        &engine, &QQmlApplicationEngine::objectCreationFailed, &app, [] { QCoreApplication::exit(1); },
        Qt::QueuedConnection);
    engine.load(QUrl(QStringLiteral("qrc:/qt/qml/Hearth/Main.qml"))); // loadFromModule() needs Qt 6.5
    if (engine.rootObjects().isEmpty())
        return 1;
    auto* window = qobject_cast<QQuickWindow*>(engine.rootObjects().constFirst());
    if (!window)
        return 1;

    if (parser.isSet(screenshot)) {
        const QString file = parser.value(screenshot);
        WindowCapture::saveAfterFirstFrames(window, file, [](bool ok, const QString& message) {
            std::fprintf(ok ? stdout : stderr, "%s\n", qPrintable(message));
        });
    }
    if (parser.isSet(quitAfter)) {
        bool ok = false;
        const int ms = parser.value(quitAfter).toInt(&ok);
        if (!ok || ms < 0) {
            std::fprintf(stderr, "--quit-after needs a number of milliseconds\n");
            return 2;
        }
        QTimer::singleShot(ms, &app, &QCoreApplication::quit);
    }
    return app.exec();
}

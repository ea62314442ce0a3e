// The desktop executable: a QML window on the `Hearth` module.
//
//   Hearth [MODEL.gguf] [--data-dir DIR] [--engine fake|cpu] [--lang LOCALE]
//          [--theme light|dark] [--quit-after MS] [--screenshot FILE]
//          [--send TEXT [--new-chat]] [--quit-when-done] [--events] [--engines]
//          [--stop-stress N] [--size WxH] [--get-model QUERY] [--add-endpoint URL]
//          [--documents PATH]

#include "AppInfo.h"
#include "AppSession.h"
#include "Automation.h"
#include "StopStress.h"
#include "engine/EngineFactory.h"
#include "models/ModelLoader.h"
#include "ui/Accessibility.h"
#include "ui/BundlePaths.h"
#include "ui/RenderBackend.h"
#include "ui/Translations.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QIcon>
#include <QLoggingCategory>
#include <QQmlApplicationEngine>
#include <QQuickStyle>
#include <QQuickWindow>
#include <QTimer>
#include <QtQml/QQmlExtensionPlugin>

#include <algorithm>
#include <cstdio>
#include <memory>

Q_IMPORT_QML_PLUGIN(HearthPlugin)

namespace {

struct Cli {
    QCommandLineParser parser;
    QCommandLineOption dataDir{QStringLiteral("data-dir"), QStringLiteral("Keep conversations and settings in DIR."),
                               QStringLiteral("DIR")};
    QCommandLineOption engine{QStringLiteral("engine"), QStringLiteral("Engine to use (see --engines)."),
                              QStringLiteral("KIND")};
    QCommandLineOption engines{QStringLiteral("engines"), QStringLiteral("List the engines built in and exit.")};
    QCommandLineOption lang{QStringLiteral("lang"), QStringLiteral("User interface language (en, zh_CN)."),
                            QStringLiteral("LOCALE")};
    QCommandLineOption theme{QStringLiteral("theme"), QStringLiteral("light or dark instead of the system's."),
                             QStringLiteral("THEME")};
    QCommandLineOption quitAfter{QStringLiteral("quit-after"), QStringLiteral("Quit after MS milliseconds (tests)."),
                                 QStringLiteral("MS")};
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QStringLiteral("Save a PNG of the window to FILE (after the reply with --send)."),
                                  QStringLiteral("FILE")};
    QCommandLineOption send{QStringLiteral("send"),
                            QStringLiteral("Type TEXT into the message box and press Enter once a model is loaded."),
                            QStringLiteral("TEXT")};
    QCommandLineOption quitWhenDone{QStringLiteral("quit-when-done"),
                                    QStringLiteral("Quit once the reply (--send) or the screenshot is done.")};
    QCommandLineOption events{QStringLiteral("events"), QStringLiteral("Print what happens as JSON lines.")};
    QCommandLineOption newChat{QStringLiteral("new-chat"), QStringLiteral("With --send: in a new conversation.")};
    QCommandLineOption size{QStringLiteral("size"), QStringLiteral("Open the window at WIDTHxHEIGHT (screenshots)."),
                            QStringLiteral("WxH")};
    QCommandLineOption getModel{QStringLiteral("get-model"),
                                QStringLiteral("On the Get models page: search QUERY, download the first "
                                               "repository's recommended file and load it (tests)."),
                                QStringLiteral("QUERY")};
    QCommandLineOption addEndpoint{QStringLiteral("add-endpoint"),
                                   QStringLiteral("In Settings → Engines: add the OpenAI-compatible server at URL "
                                                  "(its API key from $HEARTH_ENDPOINT_KEY), then load its first "
                                                  "model or --remote-model's (tests)."),
                                   QStringLiteral("URL")};
    QCommandLineOption remoteModel{QStringLiteral("remote-model"),
                                   QStringLiteral("With --add-endpoint: the endpoint's model to load."),
                                   QStringLiteral("NAME")};
    QCommandLineOption documents{
        QStringLiteral("documents"),
        QStringLiteral("In the Documents panel: add PATH (a folder or file), wait for it to be "
                       "indexed, then --send; after the reply open its first source (tests)."),
        QStringLiteral("PATH")};
    QCommandLineOption stopStress{QStringLiteral("stop-stress"),
                                  QStringLiteral("Once a model is loaded, send and stop N replies at random moments, "
                                                 "then quit (tests)."),
                                  QStringLiteral("N")};

    void process(QCoreApplication& app)
    {
        parser.setApplicationDescription(QStringLiteral("Hearth: chat with local language models"));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({dataDir, engine, engines, lang, theme, quitAfter, screenshot, send, newChat, quitWhenDone,
                           events, stopStress, size, getModel, addEndpoint, remoteModel, documents});
        parser.addPositionalArgument(QStringLiteral("model"), QStringLiteral("A GGUF model file to open."),
                                     QStringLiteral("[MODEL.gguf]"));
        parser.process(app);
    }
};

} // namespace

int main(int argc, char* argv[])
{
    // Answered before any window system is needed (scripts ask it headless).
    for (int i = 1; i < argc; ++i)
        if (qstrcmp(argv[i], "--engines") == 0) {
            std::printf("%s\n", qPrintable(EngineFactory::availableKinds().join(QLatin1Char('\n'))));
            return 0;
        }
    // --help and --version print and exit: answer them without a display.
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "-h" || arg == "-?" || arg == "--help" || arg == "--help-all" || arg == "-v" || arg == "--version") {
            QCoreApplication app(argc, argv);
            QCoreApplication::setApplicationName(QStringLiteral("Hearth"));
            QCoreApplication::setApplicationVersion(AppInfo::version());
            Cli cli;
            cli.process(app); // exits
            return 0;
        }
    }
    // Prism's minified components trip the JavaScript compiler's "used
    // before its declaration" notes (harmless hoisting) on every start;
    // the QML's own diagnostics come from qmllint at build time.
    QLoggingCategory::setFilterRules(QStringLiteral("qt.qml.compiler.warning=false"));
    QGuiApplication app(argc, argv);
    QGuiApplication::setApplicationName(QStringLiteral("Hearth"));
    QGuiApplication::setOrganizationName(QStringLiteral("Hearth"));
    QGuiApplication::setApplicationVersion(AppInfo::version());
    QGuiApplication::setDesktopFileName(QStringLiteral("org.hearth.Hearth"));
    QGuiApplication::setWindowIcon(QIcon(QStringLiteral(":/hearth/icons/hearth.svg")));
    QQuickStyle::setStyle(QStringLiteral("Fusion"));
    // Hinted glyphs from the platform's rasterizer: crisper at desktop sizes
    // and cheaper to draw than distance fields (on software GL, much cheaper).
    QQuickWindow::setTextRenderType(QQuickWindow::NativeTextRendering);

    Cli cli;
    cli.process(app);
    if (cli.parser.isSet(cli.theme))
        qputenv("HEARTH_THEME", cli.parser.value(cli.theme).toUtf8());
    Translations::install(app, cli.parser.isSet(cli.lang) ? QLocale(cli.parser.value(cli.lang)) : QLocale());
    const QString renderer = RenderBackend::chooseForThisMachine();
    if (cli.parser.isSet(cli.events))
        std::printf("{\"event\":\"renderer\",\"renderer\":\"%s\"}\n", qPrintable(renderer));

    AppSession::Options options;
    options.dataDir = cli.parser.value(cli.dataDir);
    if (cli.parser.isSet(cli.engine)) {
        options.engine = EngineFactory::create(cli.parser.value(cli.engine));
        if (!options.engine) {
            std::fprintf(stderr, "unknown engine %s (built in: %s)\n", qPrintable(cli.parser.value(cli.engine)),
                         qPrintable(EngineFactory::availableKinds().join(QStringLiteral(", "))));
            return 2;
        }
    }
    AppSession session(options);

    Accessibility::installActions(); // ahead of Qt Quick's accessibility factory
    QQmlApplicationEngine engine;
    // Qt's QML modules as a deployed bundle carries them (the Hearth module
    // itself is compiled in), ahead of Qt's installed ones.
    const QStringList bundled = BundlePaths::besideExecutable(QStringLiteral("qml"));
    for (auto it = bundled.crbegin(); it != bundled.crend(); ++it)
        engine.addImportPath(*it);
    QObject::connect(
        &engine, &QQmlApplicationEngine::objectCreationFailed, &app, [] { QCoreApplication::exit(1); },
        Qt::QueuedConnection);
    engine.setInitialProperties({{QStringLiteral("session"), QVariant::fromValue(&session)}});
    engine.load(QUrl(QStringLiteral("qrc:/qt/qml/Hearth/Main.qml"))); // loadFromModule() needs Qt 6.5
    if (engine.rootObjects().isEmpty())
        return 1;
    auto* window = qobject_cast<QQuickWindow*>(engine.rootObjects().constFirst());
    if (!window)
        return 1;

    Automation automation(&session, window,
                          {cli.parser.value(cli.send), cli.parser.isSet(cli.newChat), cli.parser.value(cli.screenshot),
                           cli.parser.isSet(cli.quitWhenDone), cli.parser.isSet(cli.events),
                           cli.parser.value(cli.getModel), cli.parser.value(cli.addEndpoint),
                           qEnvironmentVariable("HEARTH_ENDPOINT_KEY"), cli.parser.value(cli.remoteModel),
                           cli.parser.value(cli.documents)});
    if (cli.parser.isSet(cli.size)) {
        const QStringList wh = cli.parser.value(cli.size).split(QLatin1Char('x'));
        bool okW = false;
        bool okH = false;
        const int w = wh.value(0).toInt(&okW);
        const int h = wh.value(1).toInt(&okH);
        if (wh.size() != 2 || !okW || !okH || w <= 0 || h <= 0) {
            std::fprintf(stderr, "--size needs WIDTHxHEIGHT, e.g. 800x600\n");
            return 2;
        }
        window->resize(std::max(w, window->minimumWidth()), std::max(h, window->minimumHeight()));
    }
    std::unique_ptr<StopStress> stress;
    if (cli.parser.isSet(cli.stopStress)) {
        bool ok = false;
        const int tries = cli.parser.value(cli.stopStress).toInt(&ok);
        if (!ok || tries < 1) {
            std::fprintf(stderr, "--stop-stress needs a number of tries (1 or more)\n");
            return 2;
        }
        stress = std::make_unique<StopStress>(&session, window, tries);
        QObject::connect(session.loader(), &ModelLoader::statusChanged, stress.get(), [&session, &stress] {
            if (session.loader()->status() == ModelLoader::Loaded)
                stress->start();
            else if (session.loader()->status() == ModelLoader::Failed)
                QCoreApplication::exit(3);
        });
    }
    session.restore(cli.parser.positionalArguments().value(0));
    automation.start();

    if (cli.parser.isSet(cli.quitAfter)) {
        bool ok = false;
        const int ms = cli.parser.value(cli.quitAfter).toInt(&ok);
        if (!ok || ms < 0) {
            std::fprintf(stderr, "--quit-after needs a number of milliseconds\n");
            return 2;
        }
        QTimer::singleShot(ms, &app, &QCoreApplication::quit);
    }
    return app.exec();
}

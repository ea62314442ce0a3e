// The chat view's cost while a long reply streams: the fake engine writes
// 2,000 tokens of Markdown (paragraphs, lists, tables, code in several
// languages) at 200 tokens/s into the real main window, through the real
// path (worker thread, batching, database, list models, QML, highlighting).
//
// Measured on the GUI thread:
//   frame   afterAnimating -> frameSwapped of every frame (the basic render
//           loop does polish, sync and render there, the worst case)
//   batch   ChatController::lastBatchNanoseconds(): CPU time of the store,
//           the models and the views' synchronous updates for one batch
//   stall   lateness of a 5 ms timer (anything blocking the event loop)
// and reported per window of the reply (by token index), so a cost that
// grew with the reply would show as a rising column.
//
//   bench_chat_frames [--tokens N] [--rate TOKENS_PER_S] [--every N] [--json FILE]
// Run under Xvfb for GL (xvfb-run -a ...), or QT_QPA_PLATFORM=offscreen.

#include "AppTestSupport.h"
#include "chat/ChatController.h"
#include "engine/InferenceService.h"
#include "settings/SettingsStore.h"
#include "ui/RenderBackend.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QQmlApplicationEngine>
#include <QQuickStyle>
#include <QQuickWindow>
#include <QTimer>
#include <QtQml/QQmlExtensionPlugin>

#include <algorithm>
#include <array>
#include <cstdio>

Q_IMPORT_QML_PLUGIN(HearthPlugin)

namespace {

struct Sample {
    int token;  // tokens streamed when it was taken
    double ms;  // the measured duration
    int tokens; // batches: tokens in the batch
};

struct Stats {
    double mean = 0, p99 = 0, max = 0;
    int count = 0;
};

Stats stats(QList<double> v)
{
    Stats s;
    if (v.isEmpty())
        return s;
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (double x : v)
        sum += x;
    s.count = int(v.size());
    s.mean = sum / double(v.size());
    s.p99 = v[std::min<qsizetype>(v.size() - 1, qsizetype(double(v.size()) * 0.99))];
    s.max = v.last();
    return s;
}

QList<double> inRange(const QList<Sample>& samples, int from, int to, bool perToken)
{
    QList<double> out;
    for (const Sample& s : samples)
        if (s.token >= from && s.token < to)
            out.append(perToken ? s.ms / std::max(1, s.tokens) : s.ms);
    return out;
}

} // namespace

int main(int argc, char* argv[])
{
    qputenv("QSG_RENDER_LOOP", "basic"); // everything on the GUI thread: the worst case
    QGuiApplication app(argc, argv);
    QQuickStyle::setStyle(QStringLiteral("Fusion"));
    QQuickWindow::setTextRenderType(QQuickWindow::NativeTextRendering); // as the app does
    const QString renderer = RenderBackend::chooseForThisMachine();     // as the app does
    QCommandLineParser cli;
    cli.addOptions(
        {{QStringLiteral("tokens"), QStringLiteral("Tokens to stream."), QStringLiteral("N"), "2000"},
         {QStringLiteral("rate"), QStringLiteral("Tokens per second."), QStringLiteral("R"), "200"},
         {QStringLiteral("every"), QStringLiteral("A row every N tokens."), QStringLiteral("N")},
         {QStringLiteral("json"), QStringLiteral("Also write the figures as JSON."), QStringLiteral("FILE")}});
    cli.process(app);
    const int tokens = cli.value(QStringLiteral("tokens")).toInt();

    FakeEngine::Options engine;
    engine.tokensPerSecond = cli.value(QStringLiteral("rate")).toDouble();
    engine.loadMs = 10;
    engine.fillToMaxTokens = true;
    TestSession test(engine, /*highlight=*/true);
    test.session->settingsStore().setGlobalValue(QStringLiteral("maxTokens"), tokens);
    test.session->settingsStore().setGlobalValue(QStringLiteral("seed"), 2024);

    QQmlApplicationEngine qml;
    qml.setInitialProperties({{QStringLiteral("session"), QVariant::fromValue(test.session.get())}});
    qml.load(QUrl(QStringLiteral("qrc:/qt/qml/Hearth/Main.qml")));
    auto* window = qobject_cast<QQuickWindow*>(qml.rootObjects().value(0));
    if (!window || !test.loadModel())
        return 1;

    ChatController* chat = test.session->chat();
    int streamed = 0; // tokens so far, as the engine reports them
    int lastTokens = 0;
    QList<Sample> frames, batches, stalls;
    QElapsedTimer frameClock;
    QObject::connect(window, &QQuickWindow::afterAnimating, window, [&] { frameClock.start(); });
    // Where a frame's time goes: polish (layouts, text layout), sync (scene
    // graph update), render + swap.
    double polishEnd = 0, syncEnd = 0;
    QList<Sample> polish, sync, render;
    QObject::connect(
        window, &QQuickWindow::beforeSynchronizing, window, [&] { polishEnd = frameClock.nsecsElapsed() / 1e6; },
        Qt::DirectConnection);
    QObject::connect(
        window, &QQuickWindow::afterSynchronizing, window, [&] { syncEnd = frameClock.nsecsElapsed() / 1e6; },
        Qt::DirectConnection);
    QObject::connect(window, &QQuickWindow::frameSwapped, window, [&] {
        if (!frameClock.isValid() || !chat->generating())
            return;
        const double total = frameClock.nsecsElapsed() / 1e6;
        frames.append({streamed, total, 0});
        polish.append({streamed, polishEnd, 0});
        sync.append({streamed, syncEnd - polishEnd, 0});
        render.append({streamed, total - syncEnd, 0});
    });
    QObject::connect(chat, &ChatController::textShown, [&](qint64, int) {
        batches.append({streamed, chat->lastBatchNanoseconds() / 1e6, streamed - lastTokens});
        lastTokens = streamed;
    });
    QElapsedTimer tick;
    QTimer stallTimer;
    stallTimer.setTimerType(Qt::PreciseTimer);
    stallTimer.setInterval(5);
    QObject::connect(&stallTimer, &QTimer::timeout, [&] {
        if (tick.isValid() && chat->generating())
            stalls.append({streamed, std::max(0.0, tick.nsecsElapsed() / 1e6 - 5.0), 0});
        tick.start();
    });
    stallTimer.start();

    // Every piece is a token; count them where they reach the GUI thread
    // (the reply object, a child of the inference service).
    QObject::connect(chat, &ChatController::replyStarted, [&](qint64) {
        for (GenerationReply* r : test.session->inference().findChildren<GenerationReply*>())
            QObject::connect(r, &GenerationReply::pieceReceived, [&](const QString&) { ++streamed; });
    });

    QElapsedTimer wall;
    wall.start();
    chat->send(QStringLiteral("Write a long technical answer with code, lists and tables."));
    while (chat->generating())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    const double seconds = wall.elapsed() / 1000.0;

    std::printf("bench_chat_frames: %d tokens at %.0f tokens/s, %s, renderer %s, render loop basic\n", streamed,
                engine.tokensPerSecond, qPrintable(QGuiApplication::platformName()), qPrintable(renderer));
    std::printf("streamed in %.1f s, %lld frames, %lld batches (%.1f batches/s)\n\n", seconds, qlonglong(frames.size()),
                qlonglong(batches.size()), double(batches.size()) / seconds);
    std::printf("%-16s %10s %10s %10s %12s %12s %10s\n", "tokens", "frame avg", "frame p99", "frame max",
                "us/token avg", "batch max", "stall max");
    QJsonArray rows;
    QList<std::array<int, 2>> windows{{50, 150}, {450, 550}, {950, 1050}, {1450, 1550}, {1900, 2000}};
    if (cli.isSet(QStringLiteral("every"))) {
        windows.clear();
        const int step = cli.value(QStringLiteral("every")).toInt();
        for (int from = 0; from < streamed; from += step)
            windows.append({from, from + step});
    }
    windows.append({0, 1 << 30});
    for (const auto& w : std::as_const(windows)) {
        if (w[0] >= streamed)
            continue;
        const Stats f = stats(inRange(frames, w[0], w[1], false));
        const Stats b = stats(inRange(batches, w[0], w[1], false));
        const Stats t = stats(inRange(batches, w[0], w[1], true));
        const Stats s = stats(inRange(stalls, w[0], w[1], false));
        const QString label = w[1] > streamed * 2 ? QStringLiteral("all") : QStringLiteral("%1-%2").arg(w[0]).arg(w[1]);
        std::printf("%-16s %8.2fms %8.2fms %8.2fms %12.1f %10.2fms %8.2fms\n", qPrintable(label), f.mean, f.p99, f.max,
                    t.mean * 1000, b.max, s.max);
        rows.append(QJsonObject{{"tokens", label},
                                {"frame_avg_ms", f.mean},
                                {"frame_p99_ms", f.p99},
                                {"frame_max_ms", f.max},
                                {"frames", f.count},
                                {"us_per_token", t.mean * 1000},
                                {"batch_max_ms", b.max},
                                {"stall_max_ms", s.max}});
    }
    const Stats all = stats(inRange(frames, 0, 1 << 30, false));
    const Stats p = stats(inRange(polish, 0, 1 << 30, false)), y = stats(inRange(sync, 0, 1 << 30, false)),
                r = stats(inRange(render, 0, 1 << 30, false));
    std::printf("\nframe parts (avg / max): polish %.2f / %.2f ms, sync %.2f / %.2f ms, render+swap %.2f / %.2f ms\n",
                p.mean, p.max, y.mean, y.max, r.mean, r.max);
    std::printf("\nevery frame under 33 ms: %s (max %.2f ms)\n", all.max < 33 ? "yes" : "NO", all.max);
    if (cli.isSet(QStringLiteral("json"))) {
        QFile f(cli.value(QStringLiteral("json")));
        if (f.open(QIODevice::WriteOnly))
            f.write(QJsonDocument(QJsonObject{{"windows", rows}, {"tokens", streamed}, {"seconds", seconds}}).toJson());
    }
    return all.max < 33 ? 0 : 1;
}

// hearth serve -m FILE | --models-dir DIR [--host H] [--port P]
//              [--api-key KEY]... [--api-key-file FILE] [-c N] [-np N]
//              [-t N] [-ngl N] [--alias NAME] [--models-max N] ...
// An OpenAI-compatible HTTP server (docs/server.md), with llama-server's
// flag names. Prints "listening on http://HOST:PORT" on stderr once bound
// (--port 0 picks a free port), loads the model, and serves until SIGINT
// or SIGTERM.

#include "CliIo.h"
#include "Commands.h"
#include "EngineOptions.h"

#include "ApiServer.h"
#include "ModelRouter.h"

#include "runtime/gpu_layers.h"
#include "util/error.h"

#include <QFile>
#include <QFileInfo>

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

using namespace hearth;
using namespace hearth::server;

namespace {

std::atomic<bool> g_stop{false};

extern "C" void onStopSignal(int)
{
    g_stop.store(true);
}

bool readInt(const QCommandLineParser& p, const QCommandLineOption& o, int64_t lo, int64_t hi, int64_t& v)
{
    if (!p.isSet(o))
        return true;
    bool ok = false;
    const qlonglong n = p.value(o).toLongLong(&ok);
    if (!ok || n < lo || n > hi) {
        cli::errLine(QStringLiteral("hearth serve: --%1 needs a whole number from %2 to %3, not '%4'")
                         .arg(o.names().last())
                         .arg(lo)
                         .arg(hi)
                         .arg(p.value(o)));
        return false;
    }
    v = n;
    return true;
}

QStringList splitList(const QStringList& values)
{
    QStringList out;
    for (const QString& v : values)
        for (const QString& part : v.split(QLatin1Char(','), Qt::SkipEmptyParts))
            out << part.trimmed();
    return out;
}

} // namespace

int runServe(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Serve models over an OpenAI-compatible HTTP API (docs/server.md)."));
    cli::EngineOptions eo;
    eo.add(p);
    const QCommandLineOption modelsDir{
        QStringLiteral("models-dir"), QStringLiteral("Router mode: serve the models of this folder, loaded on demand."),
        QStringLiteral("DIR")};
    const QCommandLineOption modelsMax{QStringLiteral("models-max"),
                                       QStringLiteral("Router mode: models loaded at once, 0 = no limit (default 4)."),
                                       QStringLiteral("N")};
    const QCommandLineOption host{QStringLiteral("host"),
                                  QStringLiteral("Address to listen on (default 127.0.0.1). Beyond loopback an API "
                                                 "key is required."),
                                  QStringLiteral("HOST"), QStringLiteral("127.0.0.1")};
    const QCommandLineOption port{QStringLiteral("port"), QStringLiteral("Port (default 8080; 0 = any free port)."),
                                  QStringLiteral("PORT")};
    const QCommandLineOption apiKey{QStringLiteral("api-key"),
                                    QStringLiteral("API key clients must send (repeatable, or comma-separated)."),
                                    QStringLiteral("KEY")};
    const QCommandLineOption apiKeyFile{QStringLiteral("api-key-file"),
                                        QStringLiteral("File with API keys, one per line."), QStringLiteral("FILE")};
    const QCommandLineOption parallel{{QStringLiteral("np"), QStringLiteral("parallel")},
                                      QStringLiteral("Slots: requests decoded together (default 4). Each gets "
                                                     "ctx-size / N tokens."),
                                      QStringLiteral("N")};
    const QCommandLineOption alias{{QStringLiteral("a"), QStringLiteral("alias")},
                                   QStringLiteral("The model's id in the API (default: the file name)."),
                                   QStringLiteral("NAME")};
    const QCommandLineOption batch{{QStringLiteral("b"), QStringLiteral("batch-size")},
                                   QStringLiteral("Tokens per forward pass (default 512)."),
                                   QStringLiteral("N")};
    const QCommandLineOption maxQueue{QStringLiteral("max-queue"),
                                      QStringLiteral("Requests waiting for a slot before 503 (default 64)."),
                                      QStringLiteral("N")};
    const QCommandLineOption cors{QStringLiteral("cors-origins"),
                                  QStringLiteral("Browser origins allowed besides localhost ones (comma-separated; "
                                                 "'*' = any)."),
                                  QStringLiteral("LIST")};
    const QCommandLineOption maxBody{QStringLiteral("max-body-size"),
                                     QStringLiteral("Largest request body in bytes (default 8388608)."),
                                     QStringLiteral("BYTES")};
    const QCommandLineOption timeout{{QStringLiteral("to"), QStringLiteral("timeout")},
                                     QStringLiteral("Seconds a read may stall before the connection closes "
                                                    "(default 10)."),
                                     QStringLiteral("S")};
    const QCommandLineOption httpThreads{QStringLiteral("threads-http"),
                                         QStringLiteral("Connections handled at once (default 160)."),
                                         QStringLiteral("N")};
    // llama-server flags for what is always so here; accepted so its command
    // lines work unchanged.
    const QCommandLineOption compat{{QStringLiteral("metrics"), QStringLiteral("jinja"), QStringLiteral("cb"),
                                     QStringLiteral("cont-batching"), QStringLiteral("no-webui")},
                                    QStringLiteral("Accepted for llama-server compatibility: /metrics, Jinja "
                                                   "templates and continuous batching are always on; there is no "
                                                   "web UI.")};
    for (const auto* o : {&modelsDir, &modelsMax, &host, &port, &apiKey, &apiKeyFile, &parallel, &alias, &batch,
                          &maxQueue, &cors, &maxBody, &timeout, &httpThreads, &compat})
        p.addOption(*o);
    int exitCode = 0;
    if (!cli::parseArgs(p, args, exitCode))
        return exitCode;

    const bool router = p.isSet(modelsDir);
    if (router == p.isSet(eo.model)) {
        cli::errLine(QStringLiteral("hearth serve: give either -m FILE or --models-dir DIR"));
        return 2;
    }
    ServerOptions so;
    so.host = p.value(host).toStdString();
    int64_t v = 8080;
    if (!readInt(p, port, 0, 65535, v))
        return 2;
    so.port = static_cast<int>(v);
    for (const QString& k : splitList(p.values(apiKey)))
        so.apiKeys.push_back(k.toStdString());
    if (p.isSet(apiKeyFile)) {
        QFile f(p.value(apiKeyFile));
        if (!f.open(QIODevice::ReadOnly)) {
            cli::errLine(QStringLiteral("hearth serve: cannot read the API key file %1").arg(p.value(apiKeyFile)));
            return 1;
        }
        for (const QByteArray& line : f.readAll().split('\n'))
            if (const QByteArray k = line.trimmed(); !k.isEmpty() && !k.startsWith('#'))
                so.apiKeys.push_back(k.toStdString());
    }
    for (const QString& o : splitList(p.values(cors)))
        so.corsOrigins.push_back(o.toStdString());
    v = static_cast<int64_t>(so.maxBodyBytes);
    if (!readInt(p, maxBody, 1024, int64_t{1} << 32, v))
        return 2;
    so.maxBodyBytes = static_cast<size_t>(v);
    v = so.readTimeoutSeconds;
    if (!readInt(p, timeout, 1, 86400, v))
        return 2;
    so.readTimeoutSeconds = static_cast<int>(v);
    v = 0;
    if (!readInt(p, httpThreads, 0, 4096, v))
        return 2;
    so.httpThreads = static_cast<int>(v);

    LoadConfig lc;
    int64_t threads = 0, slotCount = 4, ctx = 0, nBatch = 512, queue = 64, maxModels = 4;
    if (!readInt(p, eo.threads, 0, 1024, threads) || !readInt(p, parallel, 1, kMaxSequences, slotCount) ||
        !readInt(p, eo.ctx, 0, int64_t{1} << 24, ctx) || !readInt(p, batch, 1, 1 << 16, nBatch) ||
        !readInt(p, maxQueue, 0, 100000, queue) || !readInt(p, modelsMax, 0, 1000, maxModels))
        return 2;
    int gpuLayers = 0;
    if (!eo.gpu.read(p, gpuLayers) || !eo.kv.read(p, lc.engine.context.kvType))
        return 2;
    lc.threads = static_cast<int>(threads);
    lc.gpuLayers = gpuLayers;
    lc.engine.slotCount = static_cast<int>(slotCount);
    lc.engine.maxQueue = static_cast<int>(queue);
    lc.engine.context.nCtx = ctx;
    lc.engine.context.nBatch = nBatch;
    if (gpuLayers != 0)
        lc.openDevice = [&p, &eo, gpuLayers] {
            int n = gpuLayers;
            return eo.gpu.open(p, n);
        };

    std::vector<ModelFile> models;
    try {
        if (router) {
            models = scanModelsDir(p.value(modelsDir).toStdString());
            if (models.empty())
                cli::errLine(QStringLiteral("hearth serve: warning: no models in %1").arg(p.value(modelsDir)));
        } else {
            const QString file = p.value(eo.model);
            if (!QFileInfo(file).isFile()) {
                cli::errLine(QStringLiteral("hearth serve: no model file %1").arg(file));
                return 1;
            }
            QString id = p.isSet(alias) ? p.value(alias) : QFileInfo(file).fileName();
            if (!p.isSet(alias) && id.endsWith(QLatin1String(".gguf")))
                id.chop(5);
            models.push_back(ModelFile{id.toStdString(), file.toStdString()});
        }
    } catch (const std::exception& e) {
        cli::errLine(QStringLiteral("hearth serve: ") + QString::fromUtf8(e.what()));
        return 1;
    }

    ModelRouter models_(std::move(models), lc, router ? static_cast<int>(maxModels) : 0, router);
    ApiServer server(so, models_);
    try {
        server.bind();
    } catch (const std::exception& e) {
        cli::errLine(QStringLiteral("hearth serve: ") + QString::fromUtf8(e.what()));
        return 1;
    }
    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);
    const QString shownHost = QString::fromStdString(so.host).contains(QLatin1Char(':'))
                                  ? QStringLiteral("[%1]").arg(QString::fromStdString(so.host))
                                  : QString::fromStdString(so.host);
    cli::errLine(QStringLiteral("hearth serve: listening on http://%1:%2").arg(shownHost).arg(server.port()));
    std::thread http([&] { server.run(); });
    if (!router)
        models_.startLoading(0);
    bool reported = router;
    int rc = 0;
    while (!g_stop.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (reported)
            continue;
        const ModelState st = models_.list().front();
        if (st.status == ModelStatus::Loaded && st.slotCount == 0) {
            cli::errLine(QStringLiteral("hearth serve: embedding model '%1' loaded (inputs of up to %2 tokens)")
                             .arg(QString::fromStdString(st.id))
                             .arg(st.contextSize));
            reported = true;
        } else if (st.status == ModelStatus::Loaded) {
            cli::errLine(QStringLiteral("hearth serve: model '%1' loaded (%2 slots of %3 tokens)")
                             .arg(QString::fromStdString(st.id))
                             .arg(st.slotCount)
                             .arg(st.slotContext));
            reported = true;
        } else if (st.status == ModelStatus::Failed) {
            cli::errLine(QStringLiteral("hearth serve: cannot load the model: ") + QString::fromStdString(st.error));
            rc = 1;
            break;
        }
    }
    server.stop();
    http.join();
    cli::errLine(QStringLiteral("hearth serve: stopped"));
    return rc;
}

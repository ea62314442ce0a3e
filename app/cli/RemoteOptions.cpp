#include "RemoteOptions.h"

#include "CliIo.h"

#include "runtime/session.h"

#include <QFile>
#include <QRandomGenerator>

namespace cli {

void RemoteOptions::add(QCommandLineParser& p) const
{
    for (const auto* o : {&endpoint, &keyEnv, &cacert, &timeout})
        p.addOption(*o);
}

std::unique_ptr<RemoteEngine> RemoteOptions::open(const QCommandLineParser& p, const QString& modelId) const
{
    RemoteEndpoint e;
    e.id = QStringLiteral("cli");
    e.baseUrl = QUrl::fromUserInput(p.value(endpoint));
    if (const QString why = RemoteEndpoint::validateBaseUrl(e.baseUrl); !why.isEmpty()) {
        errLine(QStringLiteral("hearth: --endpoint: ") + why);
        return nullptr;
    }
    if (modelId.isEmpty()) {
        errLine(QStringLiteral("hearth: -m MODEL_ID is required with --endpoint (`curl URL/v1/models` lists them)"));
        return nullptr;
    }
    if (p.isSet(keyEnv)) {
        const QByteArray name = p.value(keyEnv).toLocal8Bit();
        if (!qEnvironmentVariableIsSet(name.constData())) {
            errLine(QStringLiteral("hearth: --api-key-env: the variable %1 is not set").arg(p.value(keyEnv)));
            return nullptr;
        }
        e.apiKey = qEnvironmentVariable(name.constData());
    }
    if (p.isSet(cacert)) {
        QFile f(p.value(cacert));
        if (!f.open(QIODevice::ReadOnly)) {
            errLine(QStringLiteral("hearth: --cacert: cannot read %1").arg(p.value(cacert)));
            return nullptr;
        }
        e.caCertificates = f.readAll();
    }
    if (p.isSet(timeout)) {
        bool ok = false;
        const double s = p.value(timeout).toDouble(&ok);
        if (!ok || s <= 0) {
            errLine(QStringLiteral("hearth: --timeout must be a positive number of seconds"));
            return nullptr;
        }
        e.timeoutMs = int(std::min(s, 86400.0) * 1000);
    }
    auto engine = std::make_unique<RemoteEngine>([e](const QUrl&, QString&) { return e; });
    try {
        const std::atomic<bool> cancel{false};
        engine->load(e.modelUrl(modelId).toString(), {}, {}, cancel);
    } catch (const std::exception& ex) {
        errLine(QStringLiteral("hearth: ") + QString::fromUtf8(ex.what()));
        return nullptr;
    }
    return engine;
}

SamplerSettings samplerFrom(const hearth::GenerationParams& g)
{
    SamplerSettings s;
    s.temperature = g.sampling.temperature;
    s.topK = g.sampling.topK;
    s.topP = g.sampling.topP;
    s.minP = g.sampling.minP;
    s.repeatPenalty = g.sampling.repeatPenalty;
    s.maxTokens = g.maxTokens;
    s.seed = g.sampling.seed == 0xFFFFFFFFu ? QRandomGenerator::global()->bounded(0x7fffffff) : g.sampling.seed;
    return s;
}

QString remoteStatsLine(const GenerationStats& s)
{
    return QStringLiteral("prompt: %1 tokens; first token after %2 ms; generated: %3 tokens (%4 t/s); context "
                          "%5/%6; stop: %7 (token counts are the server's)")
        .arg(s.promptTokens)
        .arg(s.timeToFirstTokenMs, 0, 'f', 0)
        .arg(s.generatedTokens)
        .arg(s.tokensPerSecond(), 0, 'f', 1)
        .arg(s.contextUsed)
        .arg(s.contextSize)
        .arg(stopReasonName(s.stopReason));
}

} // namespace cli

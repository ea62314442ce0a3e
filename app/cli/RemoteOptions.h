// `hearth run` and `hearth chat` against an OpenAI-compatible server
// instead of a local file: --endpoint URL, -m the server's model id, the
// key from the environment variable named by --api-key-env (never the key
// itself on the command line), --cacert for a server whose certificate the
// system does not trust, --timeout for a slow one.
#pragma once

#include "remote/RemoteEngine.h"

#include <QCommandLineParser>

#include <memory>

namespace hearth {
struct GenerationParams;
}

namespace cli {

struct RemoteOptions {
    QCommandLineOption endpoint{QStringLiteral("endpoint"),
                                QStringLiteral("An OpenAI-compatible server (http://host:port[/v1]); -m is then "
                                               "the server's model id."),
                                QStringLiteral("URL")};
    QCommandLineOption keyEnv{QStringLiteral("api-key-env"),
                              QStringLiteral("With --endpoint: the environment variable that holds the API key."),
                              QStringLiteral("VAR")};
    QCommandLineOption cacert{QStringLiteral("cacert"),
                              QStringLiteral("With --endpoint: also trust the certificate(s) in this PEM file."),
                              QStringLiteral("FILE")};
    QCommandLineOption timeout{QStringLiteral("timeout"),
                               QStringLiteral("With --endpoint: give up when the server sends nothing for this "
                                              "many seconds (default 120)."),
                               QStringLiteral("SECONDS")};
    void add(QCommandLineParser& p) const;
    bool isSet(const QCommandLineParser& p) const { return p.isSet(endpoint); }

    // Connects to the endpoint and "loads" `modelId` (the server lists it).
    // Null after printing why.
    std::unique_ptr<RemoteEngine> open(const QCommandLineParser& p, const QString& modelId) const;
};

// The app's sampler settings for the CLI's sampling options; a random seed
// is drawn here so that it can be reported.
SamplerSettings samplerFrom(const hearth::GenerationParams& g);

// "prompt: N tokens; first token after X ms; generated: M tokens (T t/s); ..." for stderr.
QString remoteStatsLine(const GenerationStats& s);

} // namespace cli

namespace cli {

// `hearth run --endpoint`: the raw prompt to /v1/completions (or, with
// chat, one user message to /v1/chat/completions); the reply on stdout,
// statistics on stderr. Returns the exit code.
int runRemote(const QCommandLineParser& p, const RemoteOptions& o, const QString& modelId, const QString& prompt,
              bool chat, const SamplerSettings& sampler);
// `hearth chat --endpoint`: the conversation is kept here and sent whole
// each turn (the server applies the template).
int chatRemote(const QCommandLineParser& p, const RemoteOptions& o, const QString& modelId, const QString& system,
               const SamplerSettings& sampler);

} // namespace cli

// One OpenAI-compatible server (vLLM, SGLang, TGI, llama.cpp's llama-server,
// Ollama, LocalAI, another Hearth, ...) as the app talks to it: where it is,
// how to authenticate, which extra certificate to trust. Plain data, cheap to
// copy; the API key travels in memory only (it is kept in the OS keychain,
// never in settings).
//
// URLs: `baseUrl` is what the user typed ("http://gpu-box:8000" or
// "https://host/openai/v1"); apiUrl() appends "/v1" unless the path already
// ends in it, then the route ("/models", "/chat/completions", ...). A model
// is named by modelUrl(): base + "/models/" + the id (percent-encoded), the
// OpenAI route that describes it; that URL is the model's "path" in the app
// and in each reply's provenance.
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

class QNetworkRequest;

struct RemoteEndpoint {
    QString id;   // stable key (settings group, keychain entry)
    QString name; // what the user calls it
    QUrl baseUrl;
    QString apiKey;                               // "" = no Authorization header
    QList<QPair<QByteArray, QByteArray>> headers; // extra request headers
    QByteArray caCertificates;                    // PEM: trusted in addition to the system's
    int timeoutMs = 120000;                       // nothing received for this long = the server stalled
    bool extendedSampling = true;                 // also send top_k, min_p, repeat_penalty

    QUrl apiUrl(const QString& route) const;
    QUrl modelUrl(const QString& modelId) const;
    // The model id in `url` when it is a model URL of this endpoint, else "".
    QString modelIdOf(const QUrl& url) const;
    // "name (host:port)" for messages and provenance.
    QString label() const;

    // A request to `route` with the key, the extra headers, JSON content and
    // TLS verification on (system CAs plus caCertificates).
    QNetworkRequest request(const QString& route) const;

    // "" or why `baseUrl` cannot be used (not http/https, no host, ...).
    static QString validateBaseUrl(const QUrl& url);
    // Parses "Name: value" lines; "" or why a line is not a header.
    static QString parseHeaders(const QString& text, QList<QPair<QByteArray, QByteArray>>& out);
    static QString headersText(const QList<QPair<QByteArray, QByteArray>>& headers);
};

// Whether `path` names a remote model (http or https) rather than a file.
bool isRemoteModelPath(const QString& path);

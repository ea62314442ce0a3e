// A client for the Hugging Face Hub's HTTP API (QtNetwork): model search,
// a repository's files with their LFS SHA-256, and a model file's GGUF
// header read with HTTP range requests before any weights are downloaded.
//
// Endpoint: $HF_ENDPOINT, else https://huggingface.co, as huggingface_hub
// reads it. Token: setToken(), else $HF_TOKEN; it goes out as
// "Authorization: Bearer ..." to the hub (never into a log or a message).
//
// Every call is asynchronous and reports once through its callback on the
// client's thread (which must run an event loop). Failures are sentences
// for the user: "... is gated or private ...", "... not found ...", "... sent
// nothing for 30 s", naming the repository, file and host.
//
// Thread-safety: use from the thread that created it.
#pragma once

#include "HubTypes.h"
#include "engine/EngineTypes.h"
#include "runtime/fit_plan.h"

#include <QObject>
#include <QUrl>

#include <functional>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

namespace hearth::gguf {
struct ModelInfo;
class File;
} // namespace hearth::gguf

// What went wrong, for callers that react differently (ask for a token).
enum class HubErrorKind {
    None,
    Network,  // DNS, refused, reset, TLS
    Timeout,  // the server stopped sending
    Auth,     // 401 / 403: gated, private, or a bad token
    NotFound, // 404: repository, revision or file
    Invalid,  // an answer that is not what the API promises (or not a GGUF)
    Disk,     // no space, cannot write
    Cancelled,
};

struct HubError {
    HubErrorKind kind = HubErrorKind::None;
    QString message;
    bool ok() const { return kind == HubErrorKind::None; }
};

template <typename T>
struct HubResult {
    T value{};
    HubError error;
    bool ok() const { return error.ok(); }
};

// The header of a model file read from the hub, and what it means here.
struct HeaderProbe {
    ModelFacts facts;     // architecture, quant, parameters, trained context, chat template
    FitEstimate fit;      // at the trained context (capped at 8192) on this machine, GPU included
    qint64 bytesRead = 0; // header bytes fetched
};

class HubClient : public QObject {
    Q_OBJECT

public:
    enum class Sort {
        Downloads,
        Likes,
        Updated
    };

    explicit HubClient(QObject* parent = nullptr);

    QUrl endpoint() const { return m_endpoint; }
    void setEndpoint(const QUrl& endpoint) { m_endpoint = endpoint; }
    // The token sent to the hub; empty: none (anonymous).
    QString token() const { return m_token; }
    void setToken(const QString& token) { m_token = token; }
    // A request that receives nothing for this long fails (default 30 s).
    int stallTimeoutMs() const { return m_stallTimeoutMs; }
    void setStallTimeoutMs(int ms) { m_stallTimeoutMs = ms; }

    QNetworkAccessManager* network() const { return m_network; }

    // The -ngl setting the fit estimate assumes (default 0, the app's).
    int fitGpuLayers() const { return m_fitGpuLayers; }
    void setFitGpuLayers(int layers) { m_fitGpuLayers = layers; }
    // The GPU the fit estimate counts; unset: this machine's
    // (FitEstimator::deviceFor). Tests set a synthetic one.
    void setFitDevice(std::optional<hearth::DeviceBudget> device) { m_fitDevice = device; }

    void search(const QString& query, Sort sort, int limit,
                std::function<void(const HubResult<QList<HubModel>>&)> done);
    void listFiles(const QString& repo, const QString& revision, std::function<void(const HubResult<RepoFiles>&)> done);
    // Reads each part's header with range requests, growing the range until
    // it parses (at most 64 MiB a part): a split set's parts each list their
    // own tensors, and the fit estimate (FitEstimator) counts them all.
    void probeHeader(const QString& repo, const QString& revision, const ModelFileChoice& choice,
                     std::function<void(const HubResult<HeaderProbe>&)> done);

    // https://huggingface.co/{repo}/resolve/{revision}/{path}
    QUrl resolveUrl(const QString& repo, const QString& revision, const QString& path) const;
    // A GET request with the user agent, and the token when `url` is on the
    // hub's own host.
    QNetworkRequest request(const QUrl& url) const;
    // Sends `request` as a GET whose reply is aborted (a Timeout error) when
    // nothing arrives for stallTimeoutMs(). It goes out as a custom verb so
    // that QtNetwork reports a dropped connection instead of silently sending
    // the request again from the start: a resumed download must see every
    // drop to ask for the bytes after it.
    QNetworkReply* get(const QNetworkRequest& request);
    // The user's sentence for a finished reply that failed (HTTP status or
    // network error), naming `what` ("repository x", "file y of x").
    HubError errorOf(QNetworkReply* reply, const QString& what) const;

    // $HF_ENDPOINT or https://huggingface.co.
    static QUrl defaultEndpoint();

private:
    struct Probe;
    void probeStep(const std::shared_ptr<Probe>& probe, const QUrl& url, int redirects);
    FitEstimate fitOf(const hearth::gguf::File& file, const hearth::gguf::ModelInfo& info, int contextSize) const;

    QNetworkAccessManager* m_network;
    QUrl m_endpoint;
    QString m_token;
    int m_stallTimeoutMs = 30000;
    int m_fitGpuLayers = 0;
    std::optional<hearth::DeviceBudget> m_fitDevice;
};

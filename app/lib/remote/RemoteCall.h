// One HTTP exchange with an OpenAI-compatible server: a GET or a JSON POST,
// its answer read whole (JSON) or as a server-sent event stream (each
// event's data parsed as JSON and handed over as it arrives). It classifies
// every way the exchange can fail into one sentence a person can act on:
// connection refused, unknown host, TLS (an untrusted certificate says how to
// trust it), wrong key (401/403), a prompt over the server's context (400),
// a stall (nothing received for the endpoint's timeout), a connection lost
// mid-stream, an error event inside the stream.
//
// Lives on the thread that created it; that thread runs an event loop (or
// waitForFinished(), which runs one). abort() closes the connection at once,
// so the server sees the client go away.
#pragma once

#include "remote/RemoteEndpoint.h"
#include "remote/SseParser.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <atomic>
#include <functional>

class QNetworkAccessManager;
class QNetworkReply;

struct RemoteFailure {
    enum class Kind {
        None,
        Connection,  // refused, unknown host, network down
        Tls,         // certificate not trusted, handshake failed
        Auth,        // 401 / 403
        ContextFull, // 400 (or 413) because the prompt is over the server's context
        Rejected,    // another 4xx
        Server,      // 5xx
        Timeout,     // nothing received for the endpoint's timeout
        Lost,        // the connection closed before the reply was complete
        Protocol,    // not the OpenAI API's answer (bad JSON, not an event stream)
        Cancelled,   // abort() was called
    };
    Kind kind = Kind::None;
    int httpStatus = 0;
    QString message; // one sentence (or two) for the user
    bool failed() const { return kind != Kind::None; }
};

class RemoteCall : public QObject {
    Q_OBJECT

public:
    using EventSink = std::function<void(const QJsonObject& data)>;

    // GET `route` (body empty) or POST `body` as JSON. With `stream`, the
    // answer is an event stream and every data event goes to `sink`
    // ("[DONE]" ends it). Starts at once.
    RemoteCall(QNetworkAccessManager* network, const RemoteEndpoint& endpoint, const QString& route,
               const QJsonObject& body, bool stream, EventSink sink = {}, QObject* parent = nullptr);
    ~RemoteCall() override;

    bool isFinished() const { return m_finished; }
    const RemoteFailure& failure() const { return m_failure; }
    const QJsonDocument& json() const { return m_json; } // the whole answer (not streaming)
    bool sawDone() const { return m_done; }              // the stream's "[DONE]" arrived
    qint64 elapsedMs() const { return m_clock.elapsed(); }

    void abort();
    // Runs an event loop until finished; aborts when `stop` becomes true
    // (checked every 20 ms). Returns failure().
    const RemoteFailure& waitForFinished(const std::atomic<bool>* stop = nullptr);

signals:
    void finished();

private:
    void onReadyRead();
    void onFinished();
    void onStalled();
    void fail(RemoteFailure::Kind kind, const QString& message, int status = 0);
    void dispatch(const QList<SseEvent>& events);
    RemoteFailure httpFailure(int status, const QByteArray& body) const;

    RemoteEndpoint m_endpoint;
    bool m_stream;
    EventSink m_sink;
    QPointer<QNetworkReply> m_reply;
    QTimer m_stall;
    QElapsedTimer m_clock;
    SseParser m_sse;
    QByteArray m_body;
    QJsonDocument m_json;
    RemoteFailure m_failure;
    bool m_finished = false;
    bool m_done = false;
    bool m_aborted = false;
    bool m_timedOut = false;
};

// The server's own error text in an OpenAI error body ({"error": {"message":
// ...}} or {"error": "..."} or {"detail": ...}), "" when there is none.
QString serverErrorMessage(const QJsonObject& body);
// Whether a server's 400 message says the prompt is over its context.
bool looksLikeContextOverflow(const QString& message);

#include "remote/RemoteCall.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSslError>

RemoteCall::RemoteCall(QNetworkAccessManager* network, const RemoteEndpoint& endpoint, const QString& route,
                       const QJsonObject& body, bool stream, EventSink sink, QObject* parent)
    : QObject(parent), m_endpoint(endpoint), m_stream(stream), m_sink(std::move(sink))
{
    m_clock.start();
    const QNetworkRequest request = m_endpoint.request(route);
    m_reply = body.isEmpty() ? network->get(request)
                             : network->post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
    connect(m_reply, &QNetworkReply::readyRead, this, &RemoteCall::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &RemoteCall::onFinished);
    connect(m_reply, &QNetworkReply::uploadProgress, this, [this] { m_stall.start(); });
    connect(m_reply, &QNetworkReply::sslErrors, this, [this](const QList<QSslError>& errors) {
        // Never ignored: the reply fails; the message says how to trust the server.
        QStringList why;
        for (const QSslError& e : errors)
            why.append(e.errorString());
        why.removeDuplicates();
        fail(RemoteFailure::Kind::Tls,
             QStringLiteral("The TLS certificate of %1 is not trusted (%2). If you trust this server, add its "
                            "certificate to the endpoint (Settings → Engines).")
                 .arg(m_endpoint.label(), why.join(QStringLiteral("; "))));
    });
    m_stall.setSingleShot(true);
    m_stall.setInterval(std::max(1, m_endpoint.timeoutMs));
    connect(&m_stall, &QTimer::timeout, this, &RemoteCall::onStalled);
    m_stall.start();
}

RemoteCall::~RemoteCall()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
}

void RemoteCall::abort()
{
    if (m_finished || !m_reply)
        return;
    m_aborted = true;
    m_reply->abort(); // closes the socket; finished() follows
}

const RemoteFailure& RemoteCall::waitForFinished(const std::atomic<bool>* stop)
{
    if (m_finished)
        return m_failure;
    QEventLoop loop;
    connect(this, &RemoteCall::finished, &loop, &QEventLoop::quit);
    QTimer poll;
    if (stop) {
        connect(&poll, &QTimer::timeout, this, [this, stop] {
            if (stop->load())
                abort();
        });
        poll.start(20);
    }
    if (!m_finished)
        loop.exec();
    return m_failure;
}

void RemoteCall::onStalled()
{
    m_timedOut = true;
    if (m_reply)
        m_reply->abort();
}

void RemoteCall::fail(RemoteFailure::Kind kind, const QString& message, int status)
{
    if (m_failure.failed())
        return;
    m_failure = {kind, status, message};
    if (m_reply && !m_finished)
        m_reply->abort();
}

void RemoteCall::onReadyRead()
{
    m_stall.start();
    const QByteArray bytes = m_reply->readAll();
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const bool eventStream =
        m_reply->header(QNetworkRequest::ContentTypeHeader).toString().startsWith(QLatin1String("text/event-stream"));
    if (!m_stream || status >= 300 || !eventStream) {
        if (m_body.size() + bytes.size() > 64 * 1024 * 1024)
            fail(RemoteFailure::Kind::Protocol,
                 QStringLiteral("%1 sent an answer over 64 MiB.").arg(m_endpoint.label()));
        else
            m_body += bytes;
        return;
    }
    dispatch(m_sse.feed(bytes));
    if (!m_sse.error().isEmpty())
        fail(RemoteFailure::Kind::Protocol, QStringLiteral("%1 sent a broken event stream: %2.")
                                                .arg(m_endpoint.label(), QString::fromUtf8(m_sse.error())));
}

void RemoteCall::dispatch(const QList<SseEvent>& events)
{
    for (const SseEvent& e : events) {
        if (m_failure.failed() || m_done)
            return;
        const QByteArray data = e.data.trimmed();
        if (data == "[DONE]") {
            m_done = true;
            continue;
        }
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(data, &error);
        if (!doc.isObject()) {
            if (e.type == "error")
                fail(RemoteFailure::Kind::Server, QStringLiteral("%1 reported an error mid-reply: %2")
                                                      .arg(m_endpoint.label(), QString::fromUtf8(data.left(500))));
            else
                fail(RemoteFailure::Kind::Protocol, QStringLiteral("%1 sent an event that is not JSON (%2).")
                                                        .arg(m_endpoint.label(), error.errorString()));
            return;
        }
        const QJsonObject o = doc.object();
        if (e.type == "error" || o.contains(QLatin1String("error"))) {
            const QString message = serverErrorMessage(o);
            const bool context = looksLikeContextOverflow(message);
            fail(context ? RemoteFailure::Kind::ContextFull : RemoteFailure::Kind::Server,
                 context ? QStringLiteral("The conversation is longer than the model's context on %1: %2")
                               .arg(m_endpoint.label(), message)
                         : QStringLiteral("%1 reported an error mid-reply: %2").arg(m_endpoint.label(), message));
            return;
        }
        if (m_sink)
            m_sink(o);
    }
}

RemoteFailure RemoteCall::httpFailure(int status, const QByteArray& body) const
{
    QString message = serverErrorMessage(QJsonDocument::fromJson(body).object());
    if (message.isEmpty())
        message = QString::fromUtf8(body.left(300)).simplified();
    const QString where = m_endpoint.label();
    const QString said = message.isEmpty() ? QString() : QStringLiteral(" The server said: %1").arg(message);
    if (status == 401 || status == 403)
        return {RemoteFailure::Kind::Auth, status,
                QStringLiteral("%1 refused the API key (HTTP %2): check the key of this endpoint in Settings → "
                               "Engines.%3")
                    .arg(where)
                    .arg(status)
                    .arg(said)};
    if ((status == 400 || status == 413 || status == 422) && looksLikeContextOverflow(message))
        return {RemoteFailure::Kind::ContextFull, status,
                QStringLiteral("The conversation is longer than the model's context on %1 (HTTP %2): start a new "
                               "conversation or shorten it.%3")
                    .arg(where)
                    .arg(status)
                    .arg(said)};
    if (status == 404)
        return {RemoteFailure::Kind::Rejected, status,
                QStringLiteral("%1 has no such model or route (HTTP 404): is the base URL right?%2").arg(where, said)};
    if (status >= 500)
        return {RemoteFailure::Kind::Server, status,
                QStringLiteral("%1 failed (HTTP %2).%3").arg(where).arg(status).arg(said)};
    return {RemoteFailure::Kind::Rejected, status,
            QStringLiteral("%1 rejected the request (HTTP %2).%3").arg(where).arg(status).arg(said)};
}

void RemoteCall::onFinished()
{
    m_stall.stop();
    if (m_reply->bytesAvailable() > 0)
        onReadyRead();
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QNetworkReply::NetworkError error = m_reply->error();
    const QString where = m_endpoint.label();
    const QString host = m_reply->url().host();
    if (m_failure.failed()) {
        // set while reading (TLS, error event, broken stream)
    } else if (m_timedOut) {
        fail(RemoteFailure::Kind::Timeout,
             QStringLiteral("%1 sent nothing for %2 s: the server stalled or is overloaded.")
                 .arg(where)
                 .arg(m_endpoint.timeoutMs / 1000.0));
    } else if (m_aborted) {
        m_failure = {RemoteFailure::Kind::Cancelled, status, QStringLiteral("Cancelled.")};
    } else if (status >= 300) {
        m_failure = httpFailure(status, m_body);
    } else if (error != QNetworkReply::NoError) {
        switch (error) {
        case QNetworkReply::ConnectionRefusedError:
            fail(RemoteFailure::Kind::Connection,
                 QStringLiteral("Cannot connect to %1: the connection was refused. Is the server running, on "
                                "this port?")
                     .arg(where));
            break;
        case QNetworkReply::HostNotFoundError:
            fail(RemoteFailure::Kind::Connection, QStringLiteral("Cannot find the host %1.").arg(host));
            break;
        case QNetworkReply::SslHandshakeFailedError:
            fail(RemoteFailure::Kind::Tls,
                 QStringLiteral("The TLS handshake with %1 failed: %2").arg(where, m_reply->errorString()));
            break;
        case QNetworkReply::RemoteHostClosedError:
        case QNetworkReply::UnknownNetworkError:
        case QNetworkReply::TemporaryNetworkFailureError:
        case QNetworkReply::NetworkSessionFailedError:
        case QNetworkReply::ProtocolFailure:
            if (status > 0)
                fail(RemoteFailure::Kind::Lost,
                     QStringLiteral("The connection to %1 was lost before the reply was complete (%2).")
                         .arg(where, m_reply->errorString()));
            else
                fail(RemoteFailure::Kind::Connection,
                     QStringLiteral("Cannot talk to %1: %2").arg(where, m_reply->errorString()));
            break;
        default: fail(RemoteFailure::Kind::Connection, QStringLiteral("%1: %2").arg(where, m_reply->errorString()));
        }
    } else if (!m_stream || !m_body.isEmpty()) {
        QJsonParseError parse;
        m_json = QJsonDocument::fromJson(m_body, &parse);
        if (m_json.isNull())
            fail(RemoteFailure::Kind::Protocol,
                 QStringLiteral("%1 did not answer with JSON (%2): is this an OpenAI-compatible server?")
                     .arg(where, parse.errorString()));
        else if (m_stream && m_sink && m_json.isObject()) // asked to stream, answered whole
            m_sink(m_json.object());
    }
    m_finished = true;
    m_reply->deleteLater();
    m_reply = nullptr;
    emit finished();
}

QString serverErrorMessage(const QJsonObject& body)
{
    const QJsonValue error = body.value(QLatin1String("error"));
    if (error.isObject()) {
        const QString m = error.toObject().value(QLatin1String("message")).toString();
        if (!m.isEmpty())
            return m;
    }
    if (error.isString())
        return error.toString();
    for (const char* key : {"message", "detail"}) {
        const QJsonValue v = body.value(QLatin1String(key));
        if (v.isString())
            return v.toString();
        if (v.isArray() || v.isObject()) // FastAPI's validation details
            return QString::fromUtf8(v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                                                 : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    }
    return {};
}

bool looksLikeContextOverflow(const QString& message)
{
    const QString m = message.toLower();
    for (const char* phrase : {"context length", "context window", "maximum context", "context size", "n_ctx",
                               "too many tokens", "prompt is too long", "input is too long", "exceeds the context",
                               "exceed context", "context_length_exceeded", "max_model_len"})
        if (m.contains(QLatin1String(phrase)))
            return true;
    return false;
}

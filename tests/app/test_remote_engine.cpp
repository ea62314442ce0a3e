// The remote engine against a fake OpenAI-compatible server on loopback
// (tests/app/remote/fake_openai_server.py): the event-stream parser on
// every split of a stream, endpoint URLs, listing models, streaming a chat
// and a raw completion with the server's usage, cancelling (the server sees
// the client go away), a wrong key, an over-long prompt, a refused
// connection, a stalled server, a server killed mid-reply, an error event,
// and TLS with a self-signed certificate (refused until it is added).
#include "remote/FakeOpenAiServer.h"
#include "remote/RemoteEngine.h"
#include "remote/SseParser.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Collected {
    QString text;
    int pieces = 0;
    InferenceEngine::PieceSink sink()
    {
        return [this](const QString& piece, const GenerationStats&) {
            text += piece;
            ++pieces;
        };
    }
};

// A remote engine whose lookup returns `endpoint` for any URL under it.
std::unique_ptr<RemoteEngine> engineFor(const RemoteEndpoint& endpoint)
{
    return std::make_unique<RemoteEngine>([endpoint](const QUrl&, QString&) { return endpoint; });
}

RemoteEndpoint endpointAt(const QString& url, const QString& key = {})
{
    RemoteEndpoint e;
    e.id = QStringLiteral("test");
    e.name = QStringLiteral("Fake");
    e.baseUrl = QUrl(url);
    e.apiKey = key;
    e.timeoutMs = 10000;
    return e;
}

QString loadError(RemoteEngine& engine, const QString& path)
{
    const std::atomic<bool> cancel{false};
    try {
        engine.load(path, {}, {}, cancel);
    } catch (const EngineError& e) {
        return e.message();
    }
    return {};
}

QString generateError(RemoteEngine& engine, const QString& text, Collected& got, const SamplerSettings& s = {})
{
    const std::atomic<bool> stop{false};
    try {
        engine.generate({{ChatTurn::Role::User, text}}, s, got.sink(), stop);
    } catch (const EngineError& e) {
        return e.message();
    }
    return {};
}

QList<SseEvent> parseAll(QByteArrayView stream, qsizetype split)
{
    SseParser p;
    QList<SseEvent> out = p.feed(stream.first(split));
    out += p.feed(stream.sliced(split));
    return out;
}

} // namespace

class TestRemoteEngine : public QObject {
    Q_OBJECT

private:
    FakeOpenAiServer m_server;
    RemoteEndpoint m_endpoint;

private slots:
    void initTestCase()
    {
        const QString error = m_server.start({QStringLiteral("--api-key"), QStringLiteral("sesame")});
        if (!error.isEmpty())
            QSKIP(qPrintable(error));
        m_endpoint = endpointAt(m_server.url(), QStringLiteral("sesame"));
        m_endpoint.headers = {{"X-Hearth-Test", "yes"}};
    }

    void sseEveryLineEndingAndSplit()
    {
        const QByteArray stream = "\xEF\xBB\xBF: comment\r\n"
                                  "data: one\n\n"
                                  "event: error\r"
                                  "data: {\"a\":\r\n"
                                  "data:1}\r\r"
                                  "id: 7\n"
                                  "data:  spaced\n"
                                  "retry: 10\n"
                                  "unknown\n"
                                  "\n"
                                  "event: empty\n\n" // no data: nothing dispatched
                                  "data\n\n"         // a field without a colon: empty data
                                  "data: unfinished";
        for (qsizetype split = 0; split <= stream.size(); ++split) {
            const QList<SseEvent> events = parseAll(stream, split);
            QCOMPARE(events.size(), 4);
            QCOMPARE(events[0].data, QByteArray("one"));
            QCOMPARE(events[0].type, QByteArray("message"));
            QCOMPARE(events[1].type, QByteArray("error"));
            QCOMPARE(events[1].data, QByteArray("{\"a\":\n1}"));
            QCOMPARE(events[2].data, QByteArray(" spaced"));
            QCOMPARE(events[2].id, QByteArray("7"));
            QCOMPARE(events[2].type, QByteArray("message"));
            QCOMPARE(events[3].data, QByteArray(""));
        }
        // Byte by byte, too.
        SseParser p;
        QList<SseEvent> events;
        for (char c : stream)
            events += p.feed(QByteArrayView(&c, 1));
        QCOMPARE(events.size(), 4);
        QCOMPARE(events[1].data, QByteArray("{\"a\":\n1}"));
    }

    void sseRefusesEndlessLine()
    {
        SseParser p;
        const QByteArray block(1024 * 1024, 'x');
        p.feed("data: ");
        for (int i = 0; i < 17; ++i)
            p.feed(block);
        QVERIFY(!p.error().isEmpty());
        QVERIFY(p.feed("\n\n").isEmpty());
    }

    void endpointUrls()
    {
        RemoteEndpoint e = endpointAt(QStringLiteral("http://gpu-box:8000"));
        QCOMPARE(e.apiUrl(QStringLiteral("/models")).toString(), QStringLiteral("http://gpu-box:8000/v1/models"));
        e.baseUrl = QUrl(QStringLiteral("https://api.example.com/openai/v1/"));
        QCOMPARE(e.apiUrl(QStringLiteral("/chat/completions")).toString(),
                 QStringLiteral("https://api.example.com/openai/v1/chat/completions"));
        const QUrl model = e.modelUrl(QStringLiteral("meta-llama/Llama-3.1-8B-Instruct"));
        QCOMPARE(model.toString(QUrl::FullyEncoded),
                 QStringLiteral("https://api.example.com/openai/v1/models/meta-llama%2FLlama-3.1-8B-Instruct"));
        QCOMPARE(e.modelIdOf(QUrl(model.toString(QUrl::FullyEncoded))),
                 QStringLiteral("meta-llama/Llama-3.1-8B-Instruct"));
        QCOMPARE(e.modelIdOf(QUrl(QStringLiteral("https://other.example.com/openai/v1/models/x"))), QString());
        QCOMPARE(e.label(), QStringLiteral("Fake (api.example.com)"));
        QVERIFY(!RemoteEndpoint::validateBaseUrl(QUrl(QStringLiteral("ftp://x"))).isEmpty());
        QVERIFY(!RemoteEndpoint::validateBaseUrl(QUrl(QStringLiteral("http://user:key@host"))).isEmpty());
        QVERIFY(RemoteEndpoint::validateBaseUrl(QUrl(QStringLiteral("http://127.0.0.1:8080"))).isEmpty());
        QList<QPair<QByteArray, QByteArray>> headers;
        QVERIFY(RemoteEndpoint::parseHeaders(QStringLiteral("X-A: 1\n\n  X-B:two words "), headers).isEmpty());
        QCOMPARE(headers.size(), 2);
        QCOMPARE(headers[1].second, QByteArray("two words"));
        QCOMPARE(RemoteEndpoint::headersText(headers), QStringLiteral("X-A: 1\nX-B: two words"));
        QVERIFY(RemoteEndpoint::parseHeaders(QStringLiteral("no colon"), headers).contains(QLatin1String("line 1")));
        QVERIFY(!RemoteEndpoint::parseHeaders(QStringLiteral("Authorization: Bearer x"), headers).isEmpty());
    }

    void listsModels()
    {
        const QList<RemoteModel> models = RemoteEngine::listModels(m_endpoint);
        QCOMPARE(models.size(), 6);
        QCOMPARE(models[0].id, QStringLiteral("echo"));
        QCOMPARE(models[0].contextSize, 64);
        QCOMPARE(models[0].ownedBy, QStringLiteral("fake"));
    }

    void streamsChatWithUsage()
    {
        auto engine = engineFor(m_endpoint);
        const QString path = m_endpoint.modelUrl(QStringLiteral("echo")).toString();
        const std::atomic<bool> cancel{false};
        const ModelFacts facts = engine->load(path, {}, {}, cancel);
        QCOMPARE(facts.name, QStringLiteral("echo"));
        QCOMPARE(facts.engine, QStringLiteral("remote"));
        QCOMPARE(facts.contextSize, 64);
        QVERIFY(facts.endpoint.startsWith(QLatin1String("Fake (127.0.0.1:")));
        QVERIFY(engine->isLoaded());

        Collected got;
        SamplerSettings s;
        s.temperature = 0;
        s.seed = 1234;
        s.maxTokens = 50;
        const std::atomic<bool> stop{false};
        const GenerationStats stats = engine->generate({{ChatTurn::Role::System, QStringLiteral("Be brief.")},
                                                        {ChatTurn::Role::User, QStringLiteral("hello there, friend")}},
                                                       s, got.sink(), stop);
        QCOMPARE(got.text, QStringLiteral("You said: hello there, friend"));
        QCOMPARE(got.pieces, 4);
        QCOMPARE(stats.stopReason, StopReason::EndOfGeneration);
        QCOMPARE(stats.promptTokens, 5);    // the server's count (words of every message)
        QCOMPARE(stats.generatedTokens, 4); // the server's usage
        QCOMPARE(stats.contextUsed, 9);
        QCOMPARE(stats.contextSize, 64);
        QVERIFY(stats.timeToFirstTokenMs >= 0);
        QVERIFY(stats.generationMs >= 0);

        // What went over the wire.
        const QJsonObject last = m_server.control(QStringLiteral("/_last"));
        const QJsonObject body = last.value(QLatin1String("body")).toObject();
        QCOMPARE(last.value(QLatin1String("path")).toString(), QStringLiteral("/v1/chat/completions"));
        QCOMPARE(body.value(QLatin1String("model")).toString(), QStringLiteral("echo"));
        QCOMPARE(body.value(QLatin1String("stream")).toBool(), true);
        QCOMPARE(body.value(QLatin1String("seed")).toInteger(), 1234);
        QCOMPARE(body.value(QLatin1String("temperature")).toDouble(), 0.0);
        QCOMPARE(body.value(QLatin1String("max_tokens")).toInt(), 50);
        QCOMPARE(body.value(QLatin1String("top_k")).toInt(), 40);
        QCOMPARE(body.value(QLatin1String("messages")).toArray().size(), 2);
        const QJsonObject headers = last.value(QLatin1String("headers")).toObject();
        QCOMPARE(headers.value(QLatin1String("X-Hearth-Test")).toString(), QStringLiteral("yes"));
        QCOMPARE(headers.value(QLatin1String("Authorization")).toString(), QStringLiteral("Bearer sesame"));

        // While the next reply streams, the meter starts from the server's last count.
        int firstLive = -1;
        engine->generate(
            {{ChatTurn::Role::User, QStringLiteral("again")}}, s,
            [&](const QString&, const GenerationStats& soFar) {
                if (firstLive < 0)
                    firstLive = soFar.contextUsed;
            },
            stop);
        QCOMPARE(firstLive, 10);
    }

    void standardFieldsOnly()
    {
        RemoteEndpoint e = m_endpoint;
        e.extendedSampling = false;
        auto engine = engineFor(e);
        QCOMPARE(loadError(*engine, e.modelUrl(QStringLiteral("echo")).toString()), QString());
        Collected got;
        QCOMPARE(generateError(*engine, QStringLiteral("hi"), got), QString());
        const QJsonObject body = m_server.control(QStringLiteral("/_last")).value(QLatin1String("body")).toObject();
        QVERIFY(!body.contains(QLatin1String("top_k")));
        QVERIFY(!body.contains(QLatin1String("min_p")));
        QVERIFY(body.contains(QLatin1String("top_p")));
    }

    void rawCompletion()
    {
        auto engine = engineFor(m_endpoint);
        QCOMPARE(loadError(*engine, m_endpoint.modelUrl(QStringLiteral("echo")).toString()), QString());
        Collected got;
        const std::atomic<bool> stop{false};
        SamplerSettings s;
        s.maxTokens = 3; // the fake says "length" when it sent max_tokens pieces
        const GenerationStats stats = engine->complete(QStringLiteral("<|im_start|>raw text"), s, got.sink(), stop);
        QCOMPARE(got.text, QStringLiteral("You said: <|im_start|>raw text"));
        QCOMPARE(stats.stopReason, StopReason::MaxTokens);
        const QJsonObject last = m_server.control(QStringLiteral("/_last"));
        QCOMPARE(last.value(QLatin1String("path")).toString(), QStringLiteral("/v1/completions"));
        QCOMPARE(last.value(QLatin1String("body")).toObject().value(QLatin1String("prompt")).toString(),
                 QStringLiteral("<|im_start|>raw text"));
    }

    void answerNotStreamed()
    {
        auto engine = engineFor(m_endpoint);
        QCOMPARE(loadError(*engine, m_endpoint.modelUrl(QStringLiteral("whole")).toString()), QString());
        Collected got;
        QCOMPARE(generateError(*engine, QStringLiteral("hi"), got), QString());
        QCOMPARE(got.text, QStringLiteral("All at once."));
    }

    void cancelClosesTheStream()
    {
        auto engine = engineFor(m_endpoint);
        QCOMPARE(loadError(*engine, m_endpoint.modelUrl(QStringLiteral("slow")).toString()), QString());
        std::atomic<bool> stop{false};
        QString text;
        QElapsedTimer clock;
        clock.start();
        const GenerationStats stats = engine->generate(
            {{ChatTurn::Role::User, QStringLiteral("go")}}, {},
            [&](const QString& piece, const GenerationStats&) {
                text += piece;
                if (text.count(QLatin1Char('w')) == 5)
                    stop = true;
            },
            stop);
        QCOMPARE(stats.stopReason, StopReason::Stopped);
        QVERIFY2(clock.elapsed() < 3000, "stop took too long");
        QVERIFY(text.startsWith(QLatin1String("w0 w1 w2 w3 w4")));
        QVERIFY(text.count(QLatin1Char('w')) < 50);
        QVERIFY2(m_server.waitForEvent(QStringLiteral("disconnected slow")), "the server did not see the disconnect");
    }

    void wrongKey()
    {
        RemoteEndpoint e = m_endpoint;
        e.apiKey = QStringLiteral("wrong");
        auto engine = engineFor(e);
        const QString error = loadError(*engine, e.modelUrl(QStringLiteral("echo")).toString());
        QVERIFY2(error.contains(QLatin1String("refused the API key (HTTP 401)")), qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("Invalid API Key")), qPrintable(error));
        QVERIFY(!engine->isLoaded());
    }

    void unknownModel()
    {
        auto engine = engineFor(m_endpoint);
        const QString error = loadError(*engine, m_endpoint.modelUrl(QStringLiteral("gpt-9")).toString());
        QVERIFY2(error.contains(QLatin1String("does not serve the model 'gpt-9'")), qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("echo, slow")), qPrintable(error));
    }

    void promptOverTheServersContext()
    {
        auto engine = engineFor(m_endpoint);
        QCOMPARE(loadError(*engine, m_endpoint.modelUrl(QStringLiteral("echo")).toString()), QString());
        Collected got;
        const QString error = generateError(*engine, QStringLiteral("word ").repeated(100), got);
        QVERIFY2(error.contains(QLatin1String("longer than the model's context")), qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("HTTP 400")), qPrintable(error));
        QVERIFY(got.text.isEmpty());
    }

    void connectionRefused()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const quint16 port = probe.serverPort();
        probe.close(); // nothing listens there now
        const RemoteEndpoint e = endpointAt(QStringLiteral("http://127.0.0.1:%1").arg(port));
        auto engine = engineFor(e);
        const QString error = loadError(*engine, e.modelUrl(QStringLiteral("echo")).toString());
        QVERIFY2(error.contains(QLatin1String("connection was refused")), qPrintable(error));
    }

    void stalledServerTimesOut()
    {
        RemoteEndpoint e = m_endpoint;
        e.timeoutMs = 700;
        auto engine = engineFor(e);
        QCOMPARE(loadError(*engine, e.modelUrl(QStringLiteral("stall")).toString()), QString());
        Collected got;
        QElapsedTimer clock;
        clock.start();
        const QString error = generateError(*engine, QStringLiteral("hi"), got);
        QVERIFY2(error.contains(QLatin1String("sent nothing for 0.7 s")), qPrintable(error));
        QVERIFY2(error.contains(QLatin1String("is kept")), qPrintable(error));
        QCOMPARE(got.text, QStringLiteral("first"));
        QVERIFY(clock.elapsed() < 5000);
    }

    void errorEventMidStream()
    {
        auto engine = engineFor(m_endpoint);
        QCOMPARE(loadError(*engine, m_endpoint.modelUrl(QStringLiteral("error-event")).toString()), QString());
        Collected got;
        const QString error = generateError(*engine, QStringLiteral("hi"), got);
        QVERIFY2(error.contains(QLatin1String("the model ran out of memory")), qPrintable(error));
        QCOMPARE(got.text, QStringLiteral("one two"));
    }

    void serverKilledMidReply()
    {
        FakeOpenAiServer doomed;
        const QString started = doomed.start();
        QVERIFY2(started.isEmpty(), qPrintable(started));
        const RemoteEndpoint e = endpointAt(doomed.url());
        auto engine = engineFor(e);
        QCOMPARE(loadError(*engine, e.modelUrl(QStringLiteral("kill")).toString()), QString());
        Collected got;
        const QString error = generateError(*engine, QStringLiteral("hi"), got);
        QCOMPARE(got.text, QStringLiteral("one two three")); // what arrived is kept
        QVERIFY2(error.contains(QLatin1String("before the reply was complete")), qPrintable(error));
        QVERIFY(doomed.process().state() == QProcess::NotRunning || doomed.process().waitForFinished(5000));
        QCOMPARE(doomed.process().exitCode(), 3);
    }

    void tlsSelfSignedRefusedUntilAdded()
    {
        const QString openssl = QStandardPaths::findExecutable(QStringLiteral("openssl"));
        if (openssl.isEmpty())
            QSKIP("openssl not found");
        QTemporaryDir dir;
        const QString cert = dir.filePath(QStringLiteral("cert.pem")), key = dir.filePath(QStringLiteral("key.pem"));
        QProcess make;
        make.start(openssl, {QStringLiteral("req"), QStringLiteral("-x509"), QStringLiteral("-newkey"),
                             QStringLiteral("ec"), QStringLiteral("-pkeyopt"),
                             QStringLiteral("ec_paramgen_curve:prime256v1"), QStringLiteral("-nodes"),
                             QStringLiteral("-keyout"), key, QStringLiteral("-out"), cert, QStringLiteral("-days"),
                             QStringLiteral("2"), QStringLiteral("-subj"), QStringLiteral("/CN=127.0.0.1"),
                             QStringLiteral("-addext"), QStringLiteral("subjectAltName=IP:127.0.0.1,DNS:localhost")});
        QVERIFY(make.waitForFinished(30000));
        QCOMPARE(make.exitCode(), 0);
        FakeOpenAiServer tls;
        const QString started = tls.start({QStringLiteral("--cert"), cert, QStringLiteral("--key"), key});
        QVERIFY2(started.isEmpty(), qPrintable(started));

        RemoteEndpoint e = endpointAt(tls.url(QStringLiteral("https")));
        {
            auto engine = engineFor(e);
            const QString error = loadError(*engine, e.modelUrl(QStringLiteral("echo")).toString());
            QVERIFY2(error.contains(QLatin1String("is not trusted")), qPrintable(error));
            QVERIFY2(error.contains(QLatin1String("add its certificate")), qPrintable(error));
        }
        QFile pem(cert);
        QVERIFY(pem.open(QIODevice::ReadOnly));
        e.caCertificates = pem.readAll();
        auto engine = engineFor(e);
        QCOMPARE(loadError(*engine, e.modelUrl(QStringLiteral("echo")).toString()), QString());
        Collected got;
        QCOMPARE(generateError(*engine, QStringLiteral("over tls"), got), QString());
        QCOMPARE(got.text, QStringLiteral("You said: over tls"));
    }
};

QTEST_GUILESS_MAIN(TestRemoteEngine)
#include "test_remote_engine.moc"

// The adapter over the real engine (CoreEngine) on SmolLM2, through the
// inference worker as the app uses it: load with progress, a greedy reply
// that is the same twice, a second turn that evaluates only its new tokens,
// stop within one token, memory figures and the fit estimate. Built only
// with core/runtime; skips without the real model.

#include "engine/CoreEngine.h"
#include "engine/InferenceService.h"
#include "test_support.h"

#include <QSignalSpy>
#include <QTest>

class TestCoreEngine : public QObject {
    Q_OBJECT

    struct Reply {
        QString text;
        GenerationStats stats;
    };

    static Reply ask(InferenceService& service, const QList<ChatTurn>& turns, const SamplerSettings& sampler)
    {
        Reply r;
        GenerationReply* reply = service.generate(turns, sampler);
        QObject::connect(reply, &GenerationReply::pieceReceived, reply, [&](const QString& p) { r.text += p; });
        QSignalSpy finished(reply, &GenerationReply::finished);
        [&] { QVERIFY(finished.wait(120000)); }();
        if (!finished.isEmpty())
            r.stats = finished.first().first().value<GenerationStats>();
        return r;
    }

private slots:
    void chatsThroughTheWorker()
    {
        HEARTH_REQUIRE_MODEL(path, smolLm2Path);
        auto engine = std::make_shared<CoreEngine>();
        InferenceService service(engine);
        QCOMPARE(engine->kind(), QStringLiteral("cpu"));
        const FitEstimate fit = engine->estimate(QString::fromStdString(path), {1024, 2, 0});
        QVERIFY(fit.requiredBytes > 60'000'000); // the Q4_1 weights alone are ~90 MB

        LoadReply* load = service.load(QString::fromStdString(path), {1024, 2, 0});
        QSignalSpy progress(load, &LoadReply::progress);
        QSignalSpy loaded(load, &LoadReply::finished);
        QVERIFY(loaded.wait(120000));
        QVERIFY(!progress.isEmpty());
        const ModelFacts facts = loaded.first().first().value<ModelFacts>();
        QCOMPARE(facts.architecture, QStringLiteral("llama"));
        QCOMPARE(facts.quant, QStringLiteral("Q4_1"));
        QCOMPARE(facts.contextSize, 1024);
        QVERIFY(engine->memory().weightsMapped > 60'000'000);
        QVERIFY(engine->memory().kvCache > 0);

        SamplerSettings greedy;
        greedy.temperature = 0;
        greedy.maxTokens = 16;
        QList<ChatTurn> turns{{ChatTurn::Role::User, QStringLiteral("What is the capital of France?")}};
        const Reply first = ask(service, turns, greedy);
        QVERIFY(!first.text.isEmpty());
        QVERIFY(first.stats.generatedTokens > 0 && first.stats.generatedTokens <= 16);
        QVERIFY(first.stats.promptTokens > 5);

        // The same conversation again: the same reply, and (cache reuse)
        // the second request evaluates only what the cache lacks.
        const Reply again = ask(service, turns, greedy);
        QCOMPARE(again.text, first.text);
        QVERIFY2(again.stats.promptTokens < first.stats.promptTokens,
                 qPrintable(QStringLiteral("%1 then %2").arg(first.stats.promptTokens).arg(again.stats.promptTokens)));

        // Stop within one token.
        SamplerSettings longer = greedy;
        longer.maxTokens = 400;
        turns.append({ChatTurn::Role::Assistant, first.text});
        turns.append({ChatTurn::Role::User, QStringLiteral("Tell me a long story about it.")});
        GenerationReply* reply = service.generate(turns, longer);
        QSignalSpy pieces(reply, &GenerationReply::pieceReceived);
        QSignalSpy finished(reply, &GenerationReply::finished);
        QVERIFY(pieces.wait(120000));
        reply->stop();
        const int atStop = int(pieces.size());
        QVERIFY(finished.wait(60000));
        QVERIFY(pieces.size() <= atStop + 2);
        QCOMPARE(finished.first().first().value<GenerationStats>().stopReason, StopReason::Stopped);
    }
};

QTEST_GUILESS_MAIN(TestCoreEngine)
#include "test_core_engine.moc"

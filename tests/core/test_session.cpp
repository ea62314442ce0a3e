// Sessions on a small synthetic model: the second turn of a chat evaluates
// only its new tokens and continues exactly as a fresh evaluation would;
// generation past the end of the context shifts it, says so, and goes on;
// shifted keys are re-rotated to their new positions.

#include "test_support.h"

#include "cpu/cpu_backend.h"
#include "gguf/gguf.h"
#include "model/model.h"
#include "runtime/chat_session.h"
#include "runtime/session.h"
#include "util/half.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <vector>

using namespace hearth;

class TestSession : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<cpu::CpuBackend> m_backend;
    std::shared_ptr<const Model> m_model;

    static GenerationParams greedy(int32_t maxTokens)
    {
        GenerationParams p;
        p.maxTokens = maxTokens;
        p.sampling.temperature = 0.0f;
        return p;
    }

    static std::vector<TokenId> run(Session& s, std::span<const TokenId> prompt, const GenerationParams& p,
                                    GenerationStats* stats = nullptr, int* shifts = nullptr)
    {
        std::vector<TokenId> out;
        GenerationCallbacks cb;
        cb.onToken = [&](TokenId t) {
            out.push_back(t);
            return true;
        };
        cb.onContextShift = [&](const ContextShiftEvent&) {
            if (shifts)
                ++*shifts;
        };
        const GenerationStats st = s.generate(prompt, p, cb);
        if (stats)
            *stats = st;
        return out;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        const std::string why = testsupport::makeSyntheticModels(m_dir.path().toStdString(), {"llama-f32"});
        if (!why.empty())
            QSKIP(qPrintable(QString::fromStdString(std::string(testsupport::kPythonMissing) + ": " + why)));
        m_backend = std::make_unique<cpu::CpuBackend>(2);
        m_model =
            Model::create(std::make_shared<gguf::File>(m_dir.path().toStdString() + "/llama-f32.gguf"), *m_backend);
    }

    void secondTurnEvaluatesOnlyNewTokens()
    {
        Context ctx(m_model, *m_backend, ContextParams{128, 32, GgmlType::F16});
        Session chat(ctx);
        std::vector<TokenId> turn1 = {1, 10, 11, 12, 13, 14, 15, 16, 17, 18};
        GenerationStats st;
        const std::vector<TokenId> reply = run(chat, turn1, greedy(6), &st);
        QCOMPARE(st.promptEvaluated, int64_t(10));
        QCOMPARE(reply.size(), size_t(6));

        // Turn 2: the conversation so far, the reply, and a new user message.
        std::vector<TokenId> turn2 = turn1;
        turn2.insert(turn2.end(), reply.begin(), reply.end());
        const std::vector<TokenId> user2 = {20, 21, 22, 23, 24};
        turn2.insert(turn2.end(), user2.begin(), user2.end());
        const size_t cached = chat.history().size();
        QCOMPARE(cached, turn1.size() + reply.size() - 1); // the last reply token was never evaluated
        const std::vector<TokenId> reply2 = run(chat, turn2, greedy(8), &st);
        QCOMPARE(st.promptEvaluated, int64_t(turn2.size() - cached));
        QCOMPARE(st.promptTokens, int64_t(turn2.size()));

        // A fresh context continues the same way.
        Context fresh(m_model, *m_backend, ContextParams{128, 32, GgmlType::F16});
        Session s2(fresh);
        GenerationStats st2;
        QCOMPARE(run(s2, turn2, greedy(8), &st2), reply2);
        QCOMPARE(st2.promptEvaluated, int64_t(turn2.size()));
    }

    // The same with text, SmolLM2's chat template and tokenizer: turn 2
    // evaluates exactly the tokens after what turn 1 left in the cache.
    void chatSecondTurnOnRealModel()
    {
        HEARTH_REQUIRE_MODEL(path, smolLm2Path);
        cpu::CpuBackend backend(2);
        LoadOptions o;
        o.touchWeights = false;
        std::shared_ptr<LoadedModel> model = LoadedModel::load(path, backend, o);
        Context ctx(model->modelShared(), backend, ContextParams{512, 128, GgmlType::F16});
        ChatSession chat(model, ctx);
        ChatParams p;
        p.generation.maxTokens = 12;
        p.generation.sampling.temperature = 0.0f;
        std::string streamed;
        TextCallbacks cb;
        cb.onText = [&](std::string_view piece) {
            streamed += piece;
            return true;
        };
        const TextResult first = chat.reply("Hi! What is 2+2?", p, cb);
        QCOMPARE(first.stats.promptEvaluated, first.stats.promptTokens);
        QCOMPARE(streamed, first.text);
        const auto cached = static_cast<int64_t>(chat.session().history().size());
        const TextResult second = chat.reply("Thanks. And 3+3?", p, cb);
        QCOMPARE(second.stats.promptEvaluated, second.stats.promptTokens - cached);
        QVERIFY(second.stats.promptEvaluated < 30);
        QCOMPARE(chat.messages().size(), size_t(4));
    }

    void overflowShiftsAndGoesOn()
    {
        Context ctx(m_model, *m_backend, ContextParams{32, 16, GgmlType::F16});
        Session s(ctx);
        const std::vector<TokenId> prompt = {1, 40, 41, 42, 43, 44, 45, 46, 47, 48};
        GenerationParams p = greedy(80);
        p.nKeep = 4;
        GenerationStats st;
        int shifts = 0;
        const std::vector<TokenId> out = run(s, prompt, p, &st, &shifts);
        QCOMPARE(out.size(), size_t(80));
        QCOMPARE(st.stop, StopReason::MaxTokens);
        QVERIFY(st.contextShifts >= 2);
        QCOMPARE(shifts, st.contextShifts);
        QVERIFY(st.contextUsed <= 32);
        for (size_t i = 0; i < 4; ++i)
            QCOMPARE(s.history()[i], prompt[i]);

        p.contextShift = false;
        Context small(m_model, *m_backend, ContextParams{32, 16, GgmlType::F16});
        Session s2(small);
        const std::vector<TokenId> out2 = run(s2, prompt, p, &st);
        QCOMPARE(st.stop, StopReason::ContextFull);
        QCOMPARE(out2.size(), size_t(32 - prompt.size() + 1));
    }

    // Layer 0's keys depend only on the token and its position, so after a
    // shift they must equal the keys a fresh evaluation writes at the new
    // positions (up to f16 rounding of the rotated values).
    void shiftReRotatesKeys()
    {
        Context ctx(m_model, *m_backend, ContextParams{64, 64, GgmlType::F16});
        std::vector<TokenId> seq;
        for (int i = 0; i < 40; ++i)
            seq.push_back(6 + (i * 7) % 100);
        QVERIFY(ctx.decode(seq, 0, 0, false));
        ctx.kv().removeSequence(0, 4, 20);
        ctx.kv().shiftSequence(0, 20, -1, -16);
        QVERIFY(ctx.kv().hasPendingShift());
        ctx.applyShift();
        QVERIFY(!ctx.kv().hasPendingShift());

        Context fresh(m_model, *m_backend, ContextParams{64, 64, GgmlType::F16});
        QVERIFY(fresh.decode(std::span<const TokenId>(seq).subspan(20), 4, 0, false));
        const Tensor a = ctx.kv().k(0), b = fresh.kv().k(0);
        double diff = 0, scale = 0;
        for (int64_t c = 0; c < 20; ++c) {
            const auto* x = reinterpret_cast<const uint16_t*>(a.row(20 + c));
            const auto* y = reinterpret_cast<const uint16_t*>(b.row(c));
            for (int64_t e = 0; e < a.ne[0]; ++e) {
                diff = std::max(diff, std::abs(double(f16ToF32(x[e])) - f16ToF32(y[e])));
                scale = std::max(scale, std::abs(double(f16ToF32(y[e]))));
            }
        }
        qInfo("re-rotated keys vs fresh: max |diff| %.3g of %.3g", diff, scale);
        QVERIFY(diff <= 2e-3 * scale);
    }

    // Dropping the newest cells needs no rotation: logits equal a fresh run.
    void removingTailMatchesFresh()
    {
        Context ctx(m_model, *m_backend, ContextParams{64, 64, GgmlType::F16});
        std::vector<TokenId> seq;
        for (int i = 0; i < 40; ++i)
            seq.push_back(6 + (i * 7) % 100);
        QVERIFY(ctx.decode(seq, 0, 0, false));
        ctx.kv().removeSequence(0, 30, -1);
        QCOMPARE(ctx.kv().usedCells(), int64_t(30));
        const TokenId next = 77;
        QVERIFY(ctx.decode(std::span<const TokenId>(&next, 1), 30, 0, false));
        std::vector<TokenId> kept(seq.begin(), seq.begin() + 30);
        kept.push_back(next);
        Context fresh(m_model, *m_backend, ContextParams{64, 64, GgmlType::F16});
        QVERIFY(fresh.decode(kept, 0, 0, false));
        for (size_t i = 0; i < static_cast<size_t>(fresh.vocabSize()); ++i)
            QCOMPARE(ctx.logits(0)[i], fresh.logits(0)[i]);
    }

    void cancelStopsWithinOneToken()
    {
        Context ctx(m_model, *m_backend, ContextParams{64, 16, GgmlType::F16});
        Session s(ctx);
        std::atomic<bool> cancel{false};
        GenerationCallbacks cb;
        int n = 0;
        cb.onToken = [&](TokenId) {
            if (++n == 3)
                cancel = true;
            return true;
        };
        const std::vector<TokenId> prompt = {1, 5, 6, 7};
        const GenerationStats st = s.generate(prompt, greedy(50), cb, &cancel);
        QCOMPARE(st.stop, StopReason::Cancelled);
        QCOMPARE(n, 3);
    }
};

QTEST_GUILESS_MAIN(TestSession)
#include "test_session.moc"

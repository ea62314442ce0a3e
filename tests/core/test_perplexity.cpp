// Perplexity of the real models over a public-domain text (the US
// Constitution, tests/data/engine/constitution.txt) within 0.5% of
// llama.cpp's, computed the same way (chunks of 128 tokens, second halves
// scored; references and token ids from scripts/refs/perplexity_golden.py).
// A short slice keeps the test to seconds; the full text at n_ctx 512 is
// checked by hand with `hearth perplexity` (docs/cli.md). The q8_0 KV cache
// (-ctk q8_0) must stay within 0.5% of the f16 cache's perplexity over the
// whole text at n_ctx 512 (the golden's "full" figure, which f16 must match
// too): the 128-token slice is too short to tell 0.5% (llama.cpp's own
// AVX2 and AVX-512 builds differ by 2.6% on Gemma's).

#include "test_support.h"

#include "cpu/cpu_backend.h"
#include "gguf/gguf.h"
#include "model/model.h"
#include "runtime/perplexity.h"
#include "util/error.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <vector>

using namespace hearth;

class TestPerplexity : public QObject {
    Q_OBJECT

private:
    // Perplexity of the golden file's "slice" or "full" text (into *out);
    // compared with llama.cpp's when the cache is f16 (its reference's).
    static void check(const std::string& modelPath, const char* golden, GgmlType kvType = GgmlType::F16,
                      double* out = nullptr, const char* part = "slice")
    {
        QFile f(QString::fromStdString(testsupport::dataDir("engine") + "/" + golden));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        std::vector<TokenId> tokens;
        for (const auto& t : doc[QStringLiteral("tokens")].toArray())
            tokens.push_back(t.toInt());
        const QJsonObject slice = doc[QLatin1String(part)].toObject();
        const int64_t nCtx = slice[QStringLiteral("n_ctx")].toInt();
        const int64_t chunks = slice[QStringLiteral("chunks")].toInt();
        const double want = slice[QStringLiteral("perplexity")].toDouble();

        cpu::CpuBackend backend(2);
        std::shared_ptr<const Model> model = Model::create(std::make_shared<gguf::File>(modelPath), backend);
        Context ctx(model, backend, ContextParams{nCtx, nCtx, kvType});
        const PerplexityResult r = computePerplexity(ctx, tokens, nCtx, doc[QStringLiteral("bos")].toInt(), chunks);
        if (out)
            *out = r.perplexity;
        QCOMPARE(r.chunks, chunks);
        QCOMPARE(r.scoredTokens, chunks * (nCtx - 1 - nCtx / 2));
        if (kvType != GgmlType::F16)
            return;
        qInfo("perplexity %.6f, llama.cpp %.6f (%+.4f%%)", r.perplexity, want, 100.0 * (r.perplexity / want - 1.0));
        QVERIFY(std::abs(r.perplexity / want - 1.0) <= 0.005);
    }

    static void checkQ8Cache(const std::string& modelPath, const char* golden)
    {
        double f16 = 0, q8 = 0;
        check(modelPath, golden, GgmlType::F16, &f16, "full");
        check(modelPath, golden, GgmlType::Q8_0, &q8, "full");
        QVERIFY(f16 > 0 && q8 > 0);
        qInfo("q8_0 KV cache: perplexity %.6f, f16 cache %.6f (%+.4f%%)", q8, f16, 100.0 * (q8 / f16 - 1.0));
        QVERIFY(std::abs(q8 / f16 - 1.0) <= 0.005);
    }

private slots:
    void smolLm2()
    {
        HEARTH_REQUIRE_MODEL(path, smolLm2Path);
        check(path, "perplexity_smollm2.json");
    }

    void gemma3()
    {
        HEARTH_REQUIRE_MODEL(path, gemma3Path);
        check(path, "perplexity_gemma3.json");
    }

    void smolLm2Q8Cache()
    {
        HEARTH_REQUIRE_MODEL(path, smolLm2Path);
        checkQ8Cache(path, "perplexity_smollm2.json");
    }

    void gemma3Q8Cache()
    {
        HEARTH_REQUIRE_MODEL(path, gemma3Path);
        checkQ8Cache(path, "perplexity_gemma3.json");
    }

    void refusesShortText()
    {
        HEARTH_REQUIRE_MODEL(path, smolLm2Path);
        cpu::CpuBackend backend(1);
        std::shared_ptr<const Model> model = Model::create(std::make_shared<gguf::File>(path), backend);
        Context ctx(model, backend, ContextParams{64, 64, GgmlType::F16});
        std::vector<TokenId> few(100, 5);
        QVERIFY_THROWS_EXCEPTION(hearth::Error, computePerplexity(ctx, few, 64, -1));
    }
};

int main(int argc, char** argv)
{
    qputenv("QTEST_FUNCTION_TIMEOUT", "1800000"); // slow on a busy two-core machine
    QCoreApplication app(argc, argv);
    TestPerplexity test;
    return QTest::qExec(&test, argc, argv);
}
#include "test_perplexity.moc"

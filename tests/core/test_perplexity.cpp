// Perplexity of the real models over a public-domain text (the US
// Constitution, tests/data/engine/constitution.txt) within 0.5% of
// llama.cpp's, computed the same way (chunks of 128 tokens, second halves
// scored; references and token ids from scripts/refs/perplexity_golden.py).
// A short slice keeps the test to seconds; the full text at n_ctx 512 is
// checked by hand with `hearth perplexity` (docs/cli.md).

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
    static void check(const std::string& modelPath, const char* golden)
    {
        QFile f(QString::fromStdString(testsupport::dataDir("engine") + "/" + golden));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        std::vector<TokenId> tokens;
        for (const auto& t : doc[QStringLiteral("tokens")].toArray())
            tokens.push_back(t.toInt());
        const QJsonObject slice = doc[QStringLiteral("slice")].toObject();
        const int64_t nCtx = slice[QStringLiteral("n_ctx")].toInt();
        const int64_t chunks = slice[QStringLiteral("chunks")].toInt();
        const double want = slice[QStringLiteral("perplexity")].toDouble();

        cpu::CpuBackend backend(2);
        std::shared_ptr<const Model> model = Model::create(std::make_shared<gguf::File>(modelPath), backend);
        Context ctx(model, backend, ContextParams{nCtx, nCtx, GgmlType::F16});
        const PerplexityResult r = computePerplexity(ctx, tokens, nCtx, doc[QStringLiteral("bos")].toInt(), chunks);
        QCOMPARE(r.chunks, chunks);
        QCOMPARE(r.scoredTokens, chunks * (nCtx - 1 - nCtx / 2));
        qInfo("perplexity %.6f, llama.cpp %.6f (%+.4f%%)", r.perplexity, want, 100.0 * (r.perplexity / want - 1.0));
        QVERIFY(std::abs(r.perplexity / want - 1.0) <= 0.005);
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

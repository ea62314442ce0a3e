// Sentence embeddings by the engine (core/runtime/embedder.h, the bert model
// of core/model) on the converted all-MiniLM-L6-v2 (F16, the default that
// scripts/convert-models writes): token ids equal to
// Hugging Face's tokenizer, vectors within cosine 0.999 of a numpy float64
// forward pass over the original safetensors (tests/data/engine/embeddings,
// scripts/refs/make_embedding_refs.py) for 50 English and Chinese sentences,
// and batching that changes nothing: one text per pass, all texts in one pass
// and small passes give the same vectors (to float rounding: the matmul
// kernels sum in an order that depends on a token's place in the batch).

#include "test_support.h"

#include "cpu/cpu_backend.h"
#include "runtime/embedder.h"
#include "util/error.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <array>
#include <cmath>

using namespace hearth;

namespace {

struct Golden {
    std::string text;
    std::vector<TokenId> ids;
    std::vector<float> vector;
};

std::vector<Golden> loadGolden()
{
    QFile f(QString::fromStdString(testsupport::dataDir("engine") + "/embeddings/minilm.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QJsonArray items = QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("items")).toArray();
    std::vector<Golden> out;
    for (const QJsonValue& v : items) {
        const QJsonObject o = v.toObject();
        Golden g;
        g.text = o.value(QStringLiteral("text")).toString().toStdString();
        for (const QJsonValue& id : o.value(QStringLiteral("ids")).toArray())
            g.ids.push_back(id.toInt());
        for (const QJsonValue& x : o.value(QStringLiteral("vector")).toArray())
            g.vector.push_back(static_cast<float>(x.toDouble()));
        out.push_back(std::move(g));
    }
    return out;
}

double cosine(const float* a, const float* b, size_t n)
{
    double ab = 0, aa = 0, bb = 0;
    for (size_t i = 0; i < n; ++i) {
        ab += double(a[i]) * b[i];
        aa += double(a[i]) * a[i];
        bb += double(b[i]) * b[i];
    }
    return ab / std::sqrt(aa * bb);
}

double maxAbsDiff(const std::vector<float>& a, const std::vector<float>& b)
{
    double m = 0;
    for (size_t i = 0; i < a.size(); ++i)
        m = std::max(m, std::abs(double(a[i]) - b[i]));
    return m;
}

} // namespace

class TestEmbedder : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<cpu::CpuBackend> m_backend;
    std::unique_ptr<Embedder> m_embedder;
    std::vector<Golden> m_golden;
    std::vector<std::string> m_texts;

private slots:
    void initTestCase()
    {
        m_golden = loadGolden();
        QCOMPARE(m_golden.size(), size_t{50});
        for (const Golden& g : m_golden)
            m_texts.push_back(g.text);
        const std::string path = testsupport::findModel("all-MiniLM-L6-v2.F16.gguf");
        if (path.empty())
            QSKIP("all-MiniLM-L6-v2.F16.gguf not found: run scripts/setup and scripts/convert-models");
        m_backend = std::make_unique<cpu::CpuBackend>();
        m_embedder = Embedder::open(path, *m_backend);
    }

    void describesTheModel()
    {
        QCOMPARE(m_embedder->dimension(), 384);
        QCOMPARE(m_embedder->maxTokens(), 512);
        QVERIFY(m_embedder->pooling() == Pooling::Mean);
    }

    void tokenizesAsHuggingFace()
    {
        for (const Golden& g : m_golden) {
            const std::vector<TokenId> ids = m_embedder->tokenize(g.text);
            if (ids != g.ids)
                QFAIL(qPrintable(QStringLiteral("token ids differ for: ") + QString::fromStdString(g.text)));
        }
    }

    void matchesTheReference()
    {
        const std::vector<float> v = m_embedder->embed(m_texts);
        const auto dim = static_cast<size_t>(m_embedder->dimension());
        QCOMPARE(v.size(), m_texts.size() * dim);
        double worst = 1.0, sum = 0.0;
        for (size_t i = 0; i < m_golden.size(); ++i) {
            const double c = cosine(v.data() + i * dim, m_golden[i].vector.data(), dim);
            worst = std::min(worst, c);
            sum += c;
            double norm = 0;
            for (size_t d = 0; d < dim; ++d)
                norm += double(v[i * dim + d]) * v[i * dim + d];
            QVERIFY2(std::abs(norm - 1.0) < 1e-5, "vectors have unit length");
            if (c < 0.999)
                QFAIL(qPrintable(QStringLiteral("cosine %1 < 0.999 for: %2")
                                     .arg(c, 0, 'f', 6)
                                     .arg(QString::fromStdString(m_golden[i].text))));
        }
        qInfo("cosine to the float64 reference over 50 sentences: min %.7f, mean %.7f", worst,
              sum / double(m_golden.size()));
    }

    void batchingChangesNothing()
    {
        const std::vector<float> all = m_embedder->embed(m_texts);
        std::vector<float> single;
        for (const std::string& t : m_texts) {
            const std::vector<float> v = m_embedder->embed(std::span<const std::string>(&t, 1));
            single.insert(single.end(), v.begin(), v.end());
        }
        Embedder small(m_embedder->modelShared(), *m_backend, EmbedderParams{40});
        const std::vector<float> passes = small.embed(m_texts);
        const auto dim = static_cast<size_t>(m_embedder->dimension());
        double worst = 1.0;
        int identical = 0;
        for (size_t i = 0; i < m_texts.size(); ++i) {
            for (const std::vector<float>* other : std::array<const std::vector<float>*, 2>{&single, &passes}) {
                worst = std::min(worst, cosine(all.data() + i * dim, other->data() + i * dim, dim));
                identical += std::equal(all.begin() + long(i * dim), all.begin() + long((i + 1) * dim),
                                        other->begin() + long(i * dim));
            }
        }
        qInfo("one pass vs one text per pass vs passes of <= 40 tokens: largest difference %.3g, lowest cosine "
              "%.9f, %d of %zu vectors bit-identical",
              std::max(maxAbsDiff(all, single), maxAbsDiff(all, passes)), worst, identical, 2 * m_texts.size());
        // Each token's row is computed alone in every op but attention,
        // which sees only its own text.
        QVERIFY(worst >= 0.999999);
    }

    void cutsLongTexts()
    {
        std::string text;
        for (int i = 0; i < 400; ++i)
            text += "alpha beta ";
        const std::vector<TokenId> ids = m_embedder->tokenize(text);
        QCOMPARE(static_cast<int64_t>(ids.size()), m_embedder->maxTokens());
        QCOMPARE(ids.front(), m_golden[0].ids.front()); // [CLS]
        QCOMPARE(ids.back(), m_golden[0].ids.back());   // [SEP]
        const std::vector<float> v = m_embedder->embed(std::span<const std::string>(&text, 1));
        QCOMPARE(v.size(), size_t(384));
        QVERIFY(std::isfinite(v[0]));
        QCOMPARE(m_embedder->countTokens("This is an example sentence"), int64_t{5});
    }

    void refusesBadInput()
    {
        const std::vector<std::vector<TokenId>> empty{{}};
        QVERIFY_THROWS_EXCEPTION(Error, m_embedder->embedTokens(empty));
        const std::vector<std::vector<TokenId>> outside{{101, 999999, 102}};
        QVERIFY_THROWS_EXCEPTION(Error, m_embedder->embedTokens(outside));
    }
};

QTEST_GUILESS_MAIN(TestEmbedder)
#include "test_embedder.moc"

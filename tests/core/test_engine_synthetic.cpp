// Logits of small synthetic models (random weights, every supported family,
// F32 and Q8_0) against llama.cpp's on the same files
// (scripts/refs/synthetic_logits.py wrote the references). The models are
// regenerated here by scripts/refs/make_synthetic_models.py.
//
// Tolerance: max |ours - llama.cpp| <= 1e-3 · max |logit| for F32 weights;
// 1e-2 · max |logit| for Q8_0, where the activations are quantized to Q8_0
// blocks on both sides and a rounding tie can go either way.

#include "test_support.h"

#include "cpu/cpu_backend.h"
#include "gguf/gguf.h"
#include "model/model.h"
#include "runtime/context.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <vector>

using namespace hearth;

class TestEngineSynthetic : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::vector<int32_t> m_tokens;
    int64_t m_vocab = 0;
    QStringList m_names;

    std::vector<float> reference(const QString& name)
    {
        std::ifstream f(testsupport::dataDir("engine/synthetic") + "/" + name.toStdString() + ".logits",
                        std::ios::binary);
        std::vector<float> v(m_tokens.size() * static_cast<size_t>(m_vocab));
        f.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(float)));
        return f ? v : std::vector<float>{};
    }

    // Largest |ours - ref| over every logit, with max |ref| in `scale`.
    static double compare(const std::vector<float>& ours, const std::vector<float>& ref, double& scale)
    {
        double diff = 0.0;
        scale = 0.0;
        for (size_t i = 0; i < ref.size(); ++i) {
            diff = std::max(diff, std::abs(static_cast<double>(ours[i]) - ref[i]));
            scale = std::max(scale, std::abs(static_cast<double>(ref[i])));
        }
        return diff;
    }

    static double tolerance(const QString& name) { return name.endsWith(QLatin1String("f32")) ? 1e-3 : 1e-2; }

private slots:
    void initTestCase()
    {
        QFile manifest(QString::fromStdString(testsupport::dataDir("engine/synthetic") + "/manifest.json"));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        const QJsonObject m = QJsonDocument::fromJson(manifest.readAll()).object();
        for (const auto& t : m[QStringLiteral("tokens")].toArray())
            m_tokens.push_back(t.toInt());
        m_vocab = m[QStringLiteral("vocab")].toInt();
        for (const auto& e : m[QStringLiteral("models")].toArray())
            m_names << e.toObject()[QStringLiteral("name")].toString();
        QVERIFY(m_dir.isValid());
        const std::string why = testsupport::makeSyntheticModels(m_dir.path().toStdString());
        if (!why.empty())
            QSKIP(qPrintable(QString::fromStdString(std::string(testsupport::kPythonMissing) + ": " + why)));
    }

    void logits_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("threads");
        QTest::addColumn<bool>("split");
        for (const QString& n : m_names) {
            QTest::newRow(qPrintable(n + "/batch")) << n << 2 << false;
            QTest::newRow(qPrintable(n + "/batch+decode")) << n << 1 << true;
            // Two threads share a single query's heads (GQA groups split).
            QTest::newRow(qPrintable(n + "/batch+decode/2 threads")) << n << 2 << true;
        }
    }

    // All 16 positions in one batch, or 10 in a batch and 6 one at a time
    // (the decode path): the same logits either way.
    void logits()
    {
        QFETCH(QString, name);
        QFETCH(int, threads);
        QFETCH(bool, split);
        const std::vector<float> ref = reference(name);
        QVERIFY2(!ref.empty(), "reference logits missing");

        cpu::CpuBackend backend(threads);
        auto file = std::make_shared<gguf::File>(m_dir.path().toStdString() + "/" + name.toStdString() + ".gguf");
        std::shared_ptr<const Model> model = Model::create(file, backend);
        QCOMPARE(model->params().nVocab, m_vocab);
        Context ctx(model, backend, ContextParams{64, 16, GgmlType::F16});

        std::vector<float> ours;
        const auto collect = [&] {
            for (int64_t i = 0; i < ctx.outputCount(); ++i) {
                const auto row = ctx.logits(i);
                ours.insert(ours.end(), row.begin(), row.end());
            }
        };
        const std::span<const int32_t> all(m_tokens);
        const size_t first = split ? 10 : all.size();
        QVERIFY(ctx.decode(all.first(first), 0, 0, /*allLogits=*/true));
        collect();
        for (size_t i = first; i < all.size(); ++i) {
            QVERIFY(ctx.decode(all.subspan(i, 1), static_cast<int32_t>(i), 0, true));
            collect();
        }
        QCOMPARE(ours.size(), ref.size());
        double scale = 0.0;
        const double diff = compare(ours, ref, scale);
        qInfo("%s: max |diff| %.3g, max |logit| %.3g, ratio %.3g", qPrintable(name), diff, scale, diff / scale);
        QVERIFY2(diff <= tolerance(name) * scale,
                 qPrintable(QStringLiteral("max diff %1 over %2 x %3").arg(diff).arg(tolerance(name)).arg(scale)));
    }

    void microBatches_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("nBatch");
        for (const QString& n : m_names) {
            QTest::newRow(qPrintable(n + "/4")) << n << 4;
            QTest::newRow(qPrintable(n + "/5")) << n << 5;
        }
    }

    // A batch longer than the micro-batch with one row of logits wanted:
    // the micro-batches that want none must write none (they once wrote a
    // whole batch of logits into room for none), and the wanted rows come
    // out as the reference's, whichever micro-batch holds them.
    void microBatches()
    {
        QFETCH(QString, name);
        QFETCH(int, nBatch);
        const std::vector<float> ref = reference(name);
        QVERIFY2(!ref.empty(), "reference logits missing");
        cpu::CpuBackend backend(1);
        auto file = std::make_shared<gguf::File>(m_dir.path().toStdString() + "/" + name.toStdString() + ".gguf");
        std::shared_ptr<const Model> model = Model::create(file, backend);
        const auto v = static_cast<size_t>(m_vocab);
        const auto check = [&](Context& ctx, int64_t output, size_t pos) {
            const auto row = ctx.logits(output);
            const std::vector<float> ours(row.begin(), row.end());
            const std::vector<float> want(ref.begin() + static_cast<std::ptrdiff_t>(pos * v),
                                          ref.begin() + static_cast<std::ptrdiff_t>((pos + 1) * v));
            double scale = 0.0;
            const double diff = compare(ours, want, scale);
            QVERIFY2(diff <= tolerance(name) * scale, qPrintable(QStringLiteral("position %1: max diff %2 over %3 x %4")
                                                                     .arg(pos)
                                                                     .arg(diff)
                                                                     .arg(tolerance(name))
                                                                     .arg(scale)));
        };
        // The prompt path: logits of the last token only.
        {
            Context ctx(model, backend, ContextParams{64, nBatch, GgmlType::F16});
            QVERIFY(ctx.decode(std::span<const int32_t>(m_tokens), 0, 0, /*allLogits=*/false));
            QCOMPARE(ctx.outputCount(), int64_t{1});
            check(ctx, 0, m_tokens.size() - 1);
        }
        // Rows wanted in the middle of the batch (micro-batches before,
        // between and after them want none).
        {
            Context ctx(model, backend, ContextParams{64, nBatch, GgmlType::F16});
            std::vector<BatchToken> batch(m_tokens.size());
            const std::vector<size_t> wanted = {1, 6};
            for (size_t i = 0; i < batch.size(); ++i)
                batch[i] = BatchToken{m_tokens[i], static_cast<int32_t>(i), 0,
                                      std::find(wanted.begin(), wanted.end(), i) != wanted.end()};
            QVERIFY(ctx.decode(batch));
            QCOMPARE(ctx.outputCount(), static_cast<int64_t>(wanted.size()));
            for (size_t j = 0; j < wanted.size(); ++j)
                check(ctx, static_cast<int64_t>(j), wanted[j]);
        }
    }

    // Prompt attention works on blocks of consecutive tokens (as many as the
    // threads leave: ops_attention.cpp), each token masked to its own cells.
    // Two sequences interleaved in one batch, so a block's tokens see
    // different cells (and, with a window, different ranges): every thread
    // count — blocks of up to 8 tokens down to one token each — must give
    // the same bits.
    void promptBlocksAreExact()
    {
        for (const QString& name : m_names) {
            auto file = std::make_shared<gguf::File>(m_dir.path().toStdString() + "/" + name.toStdString() + ".gguf");
            std::vector<BatchToken> batch;
            for (size_t i = 0; i < m_tokens.size(); ++i)
                for (int seq = 0; seq < 2; ++seq)
                    batch.push_back(BatchToken{m_tokens[(i + static_cast<size_t>(seq) * 5) % m_tokens.size()],
                                               static_cast<int32_t>(i), seq, true});
            std::vector<float> first;
            for (const int threads : {1, 3, static_cast<int>(batch.size())}) {
                cpu::CpuBackend backend(threads);
                std::shared_ptr<const Model> model = Model::create(file, backend);
                Context ctx(model, backend, ContextParams{64, static_cast<int>(batch.size()), GgmlType::F16});
                QVERIFY(ctx.decode(batch));
                std::vector<float> ours;
                for (int64_t i = 0; i < ctx.outputCount(); ++i) {
                    const auto row = ctx.logits(i);
                    ours.insert(ours.end(), row.begin(), row.end());
                }
                if (first.empty())
                    first = ours;
                QVERIFY2(ours.size() == first.size() &&
                             std::memcmp(ours.data(), first.data(), ours.size() * sizeof(float)) == 0,
                         qPrintable(QStringLiteral("%1: %2 threads differ from 1").arg(name).arg(threads)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestEngineSynthetic)
#include "test_engine_synthetic.moc"

// Greedy continuations of the real models equal llama.cpp's token for token
// (tests/data/engine/greedy_*.json, written by scripts/refs/greedy_golden.py
// with llama-cpp-python on the same files). Prompts are given as token ids,
// so this needs no tokenizer.

#include "test_support.h"

#include "cpu/cpu_backend.h"
#include "gguf/gguf.h"
#include "model/model.h"
#include "runtime/context.h"
#include "runtime/loaded_model.h"

#include <QCoreApplication>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

using namespace hearth;

namespace {

std::vector<int32_t> ids(const QJsonValue& v)
{
    std::vector<int32_t> out;
    for (const auto& x : v.toArray())
        out.push_back(x.toInt());
    return out;
}

int32_t argmax(std::span<const float> logits)
{
    return static_cast<int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
}

} // namespace

Q_DECLARE_METATYPE(std::vector<int32_t>)

class TestEngineGreedy : public QObject {
    Q_OBJECT

private:
    struct Loaded {
        std::unique_ptr<cpu::CpuBackend> backend;
        std::shared_ptr<const Model> model;
        std::unique_ptr<Context> ctx;
    };
    std::map<QString, Loaded> m_models;

    Context* context(const QString& key, const std::string& path)
    {
        Loaded& l = m_models[key];
        if (!l.ctx) {
            l.backend = std::make_unique<cpu::CpuBackend>(2);
            l.model = Model::create(std::make_shared<gguf::File>(path), *l.backend);
            l.ctx = std::make_unique<Context>(l.model, *l.backend, ContextParams{1024, 512, GgmlType::F16});
        }
        return l.ctx.get();
    }

    static void addRows(const char* key, const char* golden)
    {
        QFile f(QString::fromStdString(testsupport::dataDir("engine") + "/" + golden));
        if (!f.open(QIODevice::ReadOnly))
            return;
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        for (const auto& entry : doc[QStringLiteral("prompts")].toArray()) {
            const QJsonObject e = entry.toObject();
            const QString tag = QString::fromLatin1(key) + "/" + e[QStringLiteral("name")].toString();
            m_texts.insert(tag, e[QStringLiteral("text")].toString());
            QTest::newRow(qPrintable(tag)) << QString::fromLatin1(key) << ids(e[QStringLiteral("prompt_ids")])
                                           << ids(e[QStringLiteral("output_ids")]);
        }
    }

private slots:
    void greedy_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<std::vector<int32_t>>("prompt");
        QTest::addColumn<std::vector<int32_t>>("want");
        addRows("smollm2", "greedy_smollm2.json");
        addRows("gemma3", "greedy_gemma3.json");
    }

    // Each prompt from an empty cache, then greedy decoding one token at a
    // time, exactly as the reference script ran llama.cpp.
    void greedy()
    {
        QFETCH(QString, model);
        QFETCH(std::vector<int32_t>, prompt);
        QFETCH(std::vector<int32_t>, want);
        const std::string path =
            model == QLatin1String("smollm2") ? testsupport::smolLm2Path() : testsupport::gemma3Path();
        if (path.empty())
            QSKIP(testsupport::kModelsMissing);
        Context* ctx = context(model, path);
        ctx->kv().clear();
        QVERIFY(ctx->decode(prompt, 0, 0, false));
        std::vector<int32_t> got;
        auto pos = static_cast<int32_t>(prompt.size());
        while (got.size() < want.size()) {
            const int32_t t = argmax(ctx->logits(0));
            got.push_back(t);
            if (got.size() == want.size() || t != want[got.size() - 1])
                break; // done, or diverged (no need to go on)
            QVERIFY(ctx->decode(std::span<const int32_t>(&t, 1), pos++, 0, false));
        }
        size_t same = 0;
        while (same < got.size() && got[same] == want[same])
            ++same;
        if (same != want.size())
            qWarning("first difference at generated token %zu of %zu", same, want.size());
        QCOMPARE(got, want);
    }

    // The text prompts through Hearth's tokenizer give llama.cpp's ids, so
    // the whole path text → tokens → engine matches.
    void tokenizedPrompts_data() { greedy_data(); }

    void tokenizedPrompts()
    {
        QFETCH(QString, model);
        QFETCH(std::vector<int32_t>, prompt);
        const std::string path =
            model == QLatin1String("smollm2") ? testsupport::smolLm2Path() : testsupport::gemma3Path();
        if (path.empty())
            QSKIP(testsupport::kModelsMissing);
        auto& loaded = m_loaded[model];
        if (!loaded) {
            cpu::CpuBackend backend(1);
            LoadOptions o;
            o.touchWeights = false;
            loaded = LoadedModel::load(path, backend, o);
        }
        const QString text = m_texts.value(QString::fromLatin1(QTest::currentDataTag()));
        QCOMPARE(loaded->tokenizePrompt(text.toStdString()), prompt);
    }

private:
    std::map<QString, std::shared_ptr<LoadedModel>> m_loaded;
    static inline QHash<QString, QString> m_texts;
};

// Many rows of long generations: lift Qt's per-function watchdog (ctest's
// TIMEOUT still applies).
int main(int argc, char** argv)
{
    qputenv("QTEST_FUNCTION_TIMEOUT", "3600000");
    QCoreApplication app(argc, argv);
    TestEngineGreedy test;
    return QTest::qExec(&test, argc, argv);
}
#include "test_engine_greedy.moc"

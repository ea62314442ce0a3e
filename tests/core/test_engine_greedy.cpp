// Greedy continuations of the real models equal llama.cpp's token for token
// (tests/data/engine/greedy_*.json, written by scripts/refs/greedy_golden.py
// with llama-cpp-python on the same files). Prompts are given as token ids,
// so this needs no tokenizer.

#include "test_support.h"

#include "cpu/cpu_backend.h"
#include "gguf/gguf.h"
#include "model/model.h"
#include "runtime/context.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
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

class TestEngineGreedy : public QObject {
    Q_OBJECT

private:
    void run(const std::string& path, const char* golden)
    {
        QFile f(QString::fromStdString(testsupport::dataDir("engine") + "/" + golden));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();

        cpu::CpuBackend backend(2);
        std::shared_ptr<const Model> model = Model::create(std::make_shared<gguf::File>(path), backend);
        Context ctx(model, backend, ContextParams{1024, 512, GgmlType::F16});
        int mismatches = 0;
        for (const auto& entry : doc[QStringLiteral("prompts")].toArray()) {
            const QJsonObject e = entry.toObject();
            const std::vector<int32_t> prompt = ids(e[QStringLiteral("prompt_ids")]);
            const std::vector<int32_t> want = ids(e[QStringLiteral("output_ids")]);
            ctx.kv().clear();
            QVERIFY(ctx.decode(prompt, 0, 0, false));
            std::vector<int32_t> got;
            auto pos = static_cast<int32_t>(prompt.size());
            while (got.size() < want.size()) {
                const int32_t t = argmax(ctx.logits(0));
                got.push_back(t);
                if (got.size() == want.size())
                    break;
                QVERIFY(ctx.decode(std::span<const int32_t>(&t, 1), pos++, 0, false));
            }
            if (got != want) {
                ++mismatches;
                size_t at = 0;
                while (at < got.size() && got[at] == want[at])
                    ++at;
                qWarning("%s: first difference at generated token %zu",
                         qPrintable(e[QStringLiteral("name")].toString()), at);
            }
        }
        QCOMPARE(mismatches, 0);
    }

private slots:
    void smolLm2()
    {
        HEARTH_REQUIRE_MODEL(path, smolLm2Path);
        run(path, "greedy_smollm2.json");
    }

    void gemma3()
    {
        HEARTH_REQUIRE_MODEL(path, gemma3Path);
        run(path, "greedy_gemma3.json");
    }
};

QTEST_GUILESS_MAIN(TestEngineGreedy)
#include "test_engine_greedy.moc"

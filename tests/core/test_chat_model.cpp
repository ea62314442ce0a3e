// ChatTemplate::forModel and the built-in fallbacks: the real models, and
// small synthetic GGUF files (a broken template, no template, vocabularies
// with the turn markers of different families).

#include "test_support.h"

#include "chat/chat_template.h"
#include "gguf/gguf.h"
#include "gguf/gguf_writer.h"

#include <QTemporaryDir>
#include <QTest>

#include <clocale>
#include <span>
#include <thread>

using namespace hearth;
using namespace hearth::chat;

namespace {

// A metadata-only GGUF file written with gguf::Writer.
std::string writeGguf(const QTemporaryDir& dir, const char* name, std::string_view arch,
                      const std::vector<std::string>& tokens, std::string_view chatTemplate = {})
{
    gguf::Writer w;
    w.addString("general.architecture", arch);
    if (!tokens.empty())
        w.addStringArray("tokenizer.ggml.tokens", std::span<const std::string>(tokens));
    if (!chatTemplate.empty())
        w.addString("tokenizer.chat_template", chatTemplate);
    const std::string path = dir.filePath(QString::fromLatin1(name)).toStdString();
    w.write(path);
    return path;
}

Value conversation()
{
    return Value::fromJson(R"([{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}])");
}

} // namespace

class TestChatModel : public QObject {
    Q_OBJECT

private slots:
    void smolLm2UsesItsOwnTemplate()
    {
        HEARTH_REQUIRE_MODEL(path, smolLm2Path);
        const gguf::File file(path);
        std::string warning = "stale";
        const ChatTemplate t = ChatTemplate::forModel(file, &warning);
        QCOMPARE(t.name(), std::string_view("file"));
        QVERIFY(warning.empty());
        RenderOptions o;
        QCOMPARE(QString::fromStdString(t.render(conversation(), o)),
                 QStringLiteral("<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n"
                                "<|im_start|>assistant\n"));
    }

    void gemma3WithoutTemplateFallsBackToGemma()
    {
        HEARTH_REQUIRE_MODEL(path, gemma3Path);
        const gguf::File file(path);
        QVERIFY(!file.find("tokenizer.chat_template"));
        std::string warning;
        const ChatTemplate t = ChatTemplate::forModel(file, &warning);
        QCOMPARE(t.name(), std::string_view("gemma"));
        QVERIFY(QByteArray::fromStdString(warning).contains("no chat template"));
        RenderOptions o;
        o.bosToken = "<bos>";
        QCOMPARE(QString::fromStdString(t.render(conversation(), o)),
                 QStringLiteral("<bos><start_of_turn>user\nBe brief.\n\nHi<end_of_turn>\n<start_of_turn>model\n"));
    }

    void brokenTemplateFallsBackWithItsError()
    {
        QTemporaryDir dir;
        const std::string path = writeGguf(dir, "broken.gguf", "qwen2", {}, "{% for m in messages %}{{ m.content ");
        std::string warning;
        const ChatTemplate t = ChatTemplate::forModel(gguf::File(path), &warning);
        QCOMPARE(t.name(), std::string_view("chatml"));
        QVERIFY2(QByteArray::fromStdString(warning).contains("line 1, column"), warning.c_str());
    }

    void detectsTheFamilyFromTheVocabulary_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<QStringList>("tokens");
        QTest::addColumn<QString>("expected");
        const auto row = [](const char* name, const char* arch, QStringList tokens, const char* expected) {
            QTest::newRow(name) << QString::fromLatin1(arch) << tokens << QString::fromLatin1(expected);
        };
        row("llama3 markers", "llama", {"<|begin_of_text|>", "<|start_header_id|>", "<|eot_id|>"}, "llama3");
        row("chatml markers on llama", "llama", {"<s>", "<|im_start|>", "<|im_end|>"}, "chatml");
        row("gemma markers", "gemma3", {"<bos>", "<start_of_turn>", "<end_of_turn>"}, "gemma");
        row("gemma by architecture", "gemma2", {"<bos>", "hello"}, "gemma");
        row("phi3 markers", "phi3", {"<|user|>", "<|assistant|>", "<|end|>"}, "phi3");
        row("command-r markers", "command-r", {"<|START_OF_TURN_TOKEN|>", "<|CHATBOT_TOKEN|>"}, "command-r");
        row("deepseek markers", "deepseek2", {QStringLiteral("<｜User｜>"), QStringLiteral("<｜Assistant｜>")},
            "deepseek");
        row("mistral markers", "llama", {"<s>", "[INST]", "[/INST]"}, "mistral");
        row("plain llama", "llama", {"<s>", "</s>", "hello"}, "llama2");
        row("unknown family", "rwkv7", {"a", "b"}, "chatml");
    }

    void detectsTheFamilyFromTheVocabulary()
    {
        QFETCH(QString, arch);
        QFETCH(QStringList, tokens);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        std::vector<std::string> vocab;
        for (const QString& t : tokens)
            vocab.push_back(t.toStdString());
        const std::string path = writeGguf(dir, "vocab.gguf", arch.toStdString(), vocab);
        const gguf::File file(path);
        QCOMPARE(QString::fromLatin1(ChatTemplate::detectBuiltin(file)), expected);
        std::string warning;
        QCOMPARE(QString::fromLatin1(ChatTemplate::forModel(file, &warning).name()), expected);
        QVERIFY(!warning.empty());
    }

    void everyBuiltinParsesAndRenders()
    {
        const std::vector<std::string_view> names = ChatTemplate::builtinNames();
        QVERIFY(names.size() >= 9);
        for (const std::string_view name : names) {
            const ChatTemplate t = ChatTemplate::builtin(name);
            QCOMPARE(t.name(), name);
            QVERIFY(!t.render(conversation(), RenderOptions{}).empty());
        }
        QVERIFY_THROWS_EXCEPTION(Error, ChatTemplate::builtin("no-such-format"));
    }

    void renderPassesTheHuggingFaceVariables()
    {
        const ChatTemplate t = ChatTemplate::parse(
            "{{ bos_token }}|{{ eos_token }}|{{ add_generation_prompt }}|{{ tools }}|{{ documents }}|"
            "{{ enable_thinking is defined }}|{{ messages|length }}|{{ custom }}|{{ tools is none }}");
        RenderOptions o;
        o.bosToken = "<s>";
        o.eosToken = "</s>";
        o.extra = {{"custom", Value::fromJson("{\"k\": [1]}")}};
        QCOMPARE(QString::fromStdString(t.render(conversation(), o)),
                 QStringLiteral("<s>|</s>|True|None|None|False|2|{'k': [1]}|True"));
        o.enableThinking = false;
        o.addGenerationPrompt = false;
        o.tools = Value::fromJson("[{\"name\": \"f\"}]");
        QCOMPARE(QString::fromStdString(t.render(conversation(), o)),
                 QStringLiteral("<s>|</s>|False|[{'name': 'f'}]|None|True|2|{'k': [1]}|False"));
    }

    // A Qt application runs in the user's locale; renders must not change
    // (decimal commas, translated month names).
    void rendersTheSameInAnyLocale()
    {
        const ChatTemplate t = ChatTemplate::parse(
            "{{ 2.5 }} {{ '%.2f'|format(3.14159) }} {{ '{:.1f}'.format(0.25) }} {{ 1.25|round(1) }} "
            "{{ 1500000|filesizeformat }} {{ strftime_now('%A %d %B %Y') }}");
        RenderOptions o;
        o.now = calendarTime(2025, 3, 5);
        const QString expected = QStringLiteral("2.5 3.14 0.2 1.2 1.5 MB Wednesday 05 March 2025");
        QCOMPARE(QString::fromStdString(t.render(Value::array(), o)), expected);
        const std::string old = std::setlocale(LC_ALL, nullptr);
        const char* locales[] = {"de_DE.UTF-8", "fr_FR.UTF-8", "de_DE", "fr_FR", "German", "French"};
        const char* used = nullptr;
        for (const char* l : locales)
            if ((used = std::setlocale(LC_ALL, l)))
                break;
        if (!used)
            QSKIP("no German or French locale installed here");
        const std::string got = t.render(Value::array(), o);
        std::setlocale(LC_ALL, old.c_str());
        QCOMPARE(QString::fromStdString(got), expected);
    }

    void rendersConcurrently()
    {
        const ChatTemplate t = ChatTemplate::builtin("llama3");
        const std::string expected = t.render(conversation(), RenderOptions{});
        std::vector<std::string> results(8);
        std::vector<std::thread> threads;
        for (size_t i = 0; i < results.size(); ++i)
            threads.emplace_back([&, i] {
                for (int k = 0; k < 50; ++k)
                    results[i] = t.render(conversation(), RenderOptions{});
            });
        for (std::thread& th : threads)
            th.join();
        for (const std::string& r : results)
            QCOMPARE(r, expected);
    }
};

QTEST_GUILESS_MAIN(TestChatModel)
#include "test_chat_model.moc"

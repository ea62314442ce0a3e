// Chat templates rendered by Hearth, compared byte for byte with Python's
// jinja2 in the Hugging Face configuration: every template of
// ../shared/testdata/chat-templates, SmolLM2's embedded template and every
// built-in, each with the conversations of tests/data/chat/conversations.json,
// plus the engine-semantics snippets of tests/data/chat/snippets.json.
// Expected outputs: tests/data/chat/expected/, written by
// scripts/refs/chat_templates.py. Where jinja2 raised, Hearth must raise.

#include "test_support.h"

#include "chat/chat_template.h"
#include "gguf/gguf.h"

#include <QCryptographicHash>
#include <QDir>
#include <QTest>

#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

using namespace hearth;
using namespace hearth::chat;

namespace {

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string dataDir()
{
    return testsupport::sourceDir() + "/tests/data/chat";
}

const Value& conversations()
{
    static const Value v = Value::fromJson(readFile(dataDir() + "/conversations.json"));
    return v;
}

std::string sha256(const std::string& s)
{
    return QCryptographicHash::hash(QByteArray::fromStdString(s), QCryptographicHash::Sha256).toHex().toStdString();
}

RenderOptions optionsFor(const Value& conv, const Value& c)
{
    RenderOptions o;
    o.addGenerationPrompt = c.get("add_generation_prompt").truthy();
    o.bosToken = conv.get("bos_token").asString();
    o.eosToken = conv.get("eos_token").asString();
    if (const Value* tools = c.find("tools"))
        o.tools = conv.get("tools").get(tools->asString());
    if (const Value* thinking = c.find("enable_thinking"))
        o.enableThinking = thinking->asBool();
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
    std::sscanf(conv.get("now").asString().c_str(), "%d-%d-%d %d:%d:%d", &y, &mo, &d, &h, &mi, &s);
    o.now = calendarTime(y, mo, d, h, mi, s);
    return o;
}

// The source a golden file was made from: "testdata:chat-templates/X.jinja",
// "model:FILE.gguf" or "builtin:NAME". Empty (with `skip` set) when absent here.
std::string sourceOf(const std::string& origin, std::string& skip)
{
    if (origin.rfind("testdata:", 0) == 0) {
        const std::string dir = testsupport::testdataDir();
        if (dir.empty()) {
            skip = testsupport::kTestdataMissing;
            return {};
        }
        return readFile(dir + "/" + origin.substr(9));
    }
    if (origin.rfind("model:", 0) == 0) {
        const std::string path = testsupport::findModel(origin.substr(6));
        if (path.empty()) {
            skip = testsupport::kModelsMissing;
            return {};
        }
        return std::string(*gguf::File(path).findString("tokenizer.chat_template"));
    }
    return ChatTemplate::builtin(origin.substr(8)).source();
}

struct Expected {
    bool raises = false;
    std::string output;
    std::string errorType;
    std::string message;
};

Expected expectedOf(const Value& r)
{
    Expected e;
    if (const Value* err = r.find("error")) {
        e.raises = true;
        e.errorType = err->asString();
        e.message = r.get("message").asString();
    } else {
        e.output = r.get("output").asString();
    }
    return e;
}

// Renders and compares; a raise_exception() message must match too.
void check(const std::function<std::string()>& render, const Expected& want)
{
    std::string got;
    try {
        got = render();
    } catch (const TemplateError& e) {
        if (!want.raises)
            QFAIL(
                qPrintable(QStringLiteral("jinja2 renders this, Hearth raised: %1").arg(QString::fromUtf8(e.what()))));
        if (want.errorType == "TemplateError") {
            QCOMPARE(e.kind(), TemplateError::Kind::Raised);
            QCOMPARE(QString::fromStdString(e.detail()), QString::fromStdString(want.message));
        }
        return;
    }
    if (want.raises)
        QFAIL(qPrintable(QStringLiteral("jinja2 raised %1 (%2), Hearth rendered:\n%3")
                             .arg(QString::fromStdString(want.errorType), QString::fromStdString(want.message),
                                  QString::fromStdString(got))));
    QCOMPARE(QString::fromStdString(got), QString::fromStdString(want.output));
}

} // namespace

class TestChatGolden : public QObject {
    Q_OBJECT

private slots:
    void templates_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("index");
        const QDir dir(QString::fromStdString(dataDir() + "/expected"));
        const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY(files.size() > 10);
        const Value cases = conversations().get("cases");
        for (const QString& f : files) {
            if (f == QLatin1String("snippets.json"))
                continue;
            for (size_t i = 0; i < cases.size(); ++i) {
                const std::string name = cases.items()[i].get("name").asString();
                QTest::newRow(qPrintable(f.chopped(5) + QLatin1Char('/') + QString::fromStdString(name)))
                    << dir.filePath(f) << static_cast<int>(i);
            }
        }
    }

    void templates()
    {
        QFETCH(QString, file);
        QFETCH(int, index);
        static std::map<QString, Value> docs;
        if (!docs.count(file))
            docs[file] = Value::fromJson(readFile(file.toStdString()));
        const Value& doc = docs[file];
        std::string skip;
        const std::string source = sourceOf(doc.get("origin").asString(), skip);
        if (!skip.empty())
            QSKIP(skip.c_str());
        if (sha256(source) != doc.get("sha256").asString())
            QFAIL("the template changed since its expected outputs were made: run scripts/refs/chat_templates.py");
        const Value cases = conversations().get("cases");
        const Value results = doc.get("results");
        const Value& c = cases.items()[static_cast<size_t>(index)];
        const Value& result = results.items()[static_cast<size_t>(index)];
        QCOMPARE(result.get("case").asString(), c.get("name").asString());
        check(
            [&] {
                // Parsing counts: jinja2 refuses some templates when compiling.
                return ChatTemplate::parse(source).render(c.get("messages"), optionsFor(conversations(), c));
            },
            expectedOf(result));
    }

    void snippets_data()
    {
        QTest::addColumn<int>("index");
        const Value doc = Value::fromJson(readFile(dataDir() + "/snippets.json"));
        const Value cases = doc.get("cases");
        for (size_t i = 0; i < cases.size(); ++i)
            QTest::newRow(cases.items()[i].get("name").asString().c_str()) << static_cast<int>(i);
    }

    void snippets()
    {
        QFETCH(int, index);
        static const Value doc = Value::fromJson(readFile(dataDir() + "/snippets.json"));
        static const Value expected = Value::fromJson(readFile(dataDir() + "/expected/snippets.json"));
        const Value cases = doc.get("cases");
        const Value results = expected.get("results");
        const Value& c = cases.items()[static_cast<size_t>(index)];
        const Value& result = results.items()[static_cast<size_t>(index)];
        QCOMPARE(result.get("name").asString(), c.get("name").asString());
        RenderOptions o = optionsFor(conversations(), Value::object());
        for (const auto& [k, v] : doc.get("context").asObject().entries())
            o.extra.emplace_back(k.asString(), v);
        if (const Value* vars = c.find("vars"))
            for (const auto& [k, v] : vars->asObject().entries())
                o.extra.emplace_back(k.asString(), v);
        check([&] { return ChatTemplate::parse(c.get("template").asString()).render(Value::array(), o); },
              expectedOf(result));
    }
};

QTEST_GUILESS_MAIN(TestChatGolden)
#include "test_chat_golden.moc"

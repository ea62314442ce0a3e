// hearth template (--template FILE.jinja | --model FILE.gguf) --messages FILE.json
//     [--tools FILE.json] [--add-generation-prompt] [--bos TEXT] [--eos TEXT]
//     [--var NAME=JSON]... [--now "YYYY-MM-DD HH:MM:SS"]
// Prints the rendered prompt exactly (no newline added) to stdout; every
// error goes to stderr with exit code 1. Documented in docs/cli.md.

#include "CliIo.h"
#include "Commands.h"

#include "chat/chat_template.h"
#include "gguf/gguf.h"
#include "util/error.h"

#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

using namespace hearth;

namespace {

std::string readFile(const QString& path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    if (!in)
        throw Error("cannot read " + path.toStdString());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

chat::Value readJson(const QString& path, const char* what)
{
    try {
        return chat::Value::fromJson(readFile(path));
    } catch (const Error& e) {
        throw Error(std::string(what) + " " + path.toStdString() + ": " + e.what());
    }
}

// The text of token `key` (e.g. tokenizer.ggml.bos_token_id) in the vocabulary.
std::string specialToken(const gguf::File& file, std::string_view key)
{
    const std::optional<int64_t> id = file.findInt(key);
    const gguf::Value* tokens = file.findArray("tokenizer.ggml.tokens");
    if (!id || !tokens || tokens->elementType() != gguf::ValueType::String || *id < 0 ||
        static_cast<uint64_t>(*id) >= tokens->size())
        return {};
    return std::string(tokens->stringAt(static_cast<uint64_t>(*id)));
}

std::tm parseNow(const QString& text)
{
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
    const std::string t = text.toStdString();
    const int n = std::sscanf(t.c_str(), "%d-%d-%d%*[ T]%d:%d:%d", &y, &mo, &d, &h, &mi, &s);
    if ((n != 3 && n != 6) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
        throw Error("--now expects \"YYYY-MM-DD\" or \"YYYY-MM-DD HH:MM:SS\", got '" + t + "'");
    return chat::calendarTime(y, mo, d, h, mi, s);
}

void addVar(chat::RenderOptions& options, const QString& spec)
{
    const qsizetype eq = spec.indexOf(QLatin1Char('='));
    const std::string name = spec.left(eq).toStdString();
    if (eq <= 0 ||
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != std::string::npos)
        throw Error("--var expects NAME=JSON, got '" + spec.toStdString() + "'");
    try {
        options.extra.emplace_back(name, chat::Value::fromJson(spec.mid(eq + 1).toStdString()));
    } catch (const Error& e) {
        throw Error("--var " + name + ": the value must be JSON (quote strings: " + name + "='\"text\"'): " + e.what());
    }
}

} // namespace

int runTemplate(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Render a chat template (a .jinja file, or a model's own) with a conversation, exactly as Hugging Face's "
        "apply_chat_template would, and print the prompt text."));
    const QCommandLineOption templ(QStringLiteral("template"), QStringLiteral("A Jinja chat template file."),
                                   QStringLiteral("FILE.jinja"));
    const QCommandLineOption model(QStringLiteral("model"),
                                   QStringLiteral("A GGUF model: its template, or the built-in fallback."),
                                   QStringLiteral("FILE.gguf"));
    const QCommandLineOption messages(QStringLiteral("messages"), QStringLiteral("The conversation: a JSON array."),
                                      QStringLiteral("FILE.json"));
    const QCommandLineOption tools(QStringLiteral("tools"), QStringLiteral("Tool definitions: a JSON array."),
                                   QStringLiteral("FILE.json"));
    const QCommandLineOption genPrompt(QStringLiteral("add-generation-prompt"),
                                       QStringLiteral("End with the header of the assistant's turn."));
    const QCommandLineOption bos(QStringLiteral("bos"), QStringLiteral("bos_token (default: the model's)."),
                                 QStringLiteral("TEXT"));
    const QCommandLineOption eos(QStringLiteral("eos"), QStringLiteral("eos_token (default: the model's)."),
                                 QStringLiteral("TEXT"));
    const QCommandLineOption var(QStringLiteral("var"), QStringLiteral("An extra template variable (repeatable)."),
                                 QStringLiteral("NAME=JSON"));
    const QCommandLineOption now(QStringLiteral("now"), QStringLiteral("The time strftime_now() sees."),
                                 QStringLiteral("YYYY-MM-DD HH:MM:SS"));
    parser.addOptions({templ, model, messages, tools, genPrompt, bos, eos, var, now});
    int code = 0;
    if (!cli::parseArgs(parser, args, code))
        return code == 0 ? 0 : 1;
    if (parser.isSet(templ) == parser.isSet(model) || !parser.isSet(messages) ||
        !parser.positionalArguments().isEmpty()) {
        cli::errLine(QStringLiteral("%1: give --messages and one of --template or --model (see --help)").arg(args[0]));
        return 1;
    }
#ifdef _WIN32
    _setmode(_fileno(stdout), _O_BINARY); // the prompt's bytes, not CRLF
#endif
    try {
        chat::RenderOptions options;
        options.addGenerationPrompt = parser.isSet(genPrompt);
        std::optional<chat::ChatTemplate> chatTemplate;
        if (parser.isSet(model)) {
            const gguf::File file(parser.value(model).toStdString());
            std::string warning;
            chatTemplate = chat::ChatTemplate::forModel(file, &warning);
            if (!warning.empty())
                cli::errLine(QStringLiteral("hearth template: ") + QString::fromStdString(warning));
            options.bosToken = specialToken(file, "tokenizer.ggml.bos_token_id");
            options.eosToken = specialToken(file, "tokenizer.ggml.eos_token_id");
        } else {
            chatTemplate = chat::ChatTemplate::parse(readFile(parser.value(templ)));
        }
        if (parser.isSet(bos))
            options.bosToken = parser.value(bos).toStdString();
        if (parser.isSet(eos))
            options.eosToken = parser.value(eos).toStdString();
        if (parser.isSet(tools))
            options.tools = readJson(parser.value(tools), "--tools");
        if (parser.isSet(now))
            options.now = parseNow(parser.value(now));
        for (const QString& v : parser.values(var))
            addVar(options, v);
        const chat::Value conversation = readJson(parser.value(messages), "--messages");
        cli::outBytes(chatTemplate->render(conversation, options));
    } catch (const Error& e) {
        cli::errLine(QStringLiteral("hearth template: ") + QString::fromUtf8(e.what()));
        return 1;
    }
    return 0;
}

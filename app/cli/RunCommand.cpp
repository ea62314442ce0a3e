// hearth run -m FILE [-p TEXT | -f FILE] [-n N] [sampling] [-c CTX] [-t N]
//            [--chat] [--output text|ids]
// hearth run --endpoint URL -m MODEL_ID [--api-key-env VAR] [-p TEXT | -f FILE] ...
// Generates a continuation (or, with --chat, an assistant reply) and prints
// only the generated part on stdout; statistics go to stderr. With
// --endpoint an OpenAI-compatible server generates it (/v1/completions with
// the raw prompt, as the local run uses no template).

#include "CliIo.h"
#include "Commands.h"
#include "EngineOptions.h"
#include "RemoteOptions.h"

#include "runtime/chat_session.h"
#include "util/error.h"

#include <QFile>

#include <cstdio>

using namespace hearth;

int runRun(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Generate text from a prompt."));
    cli::EngineOptions eo;
    cli::SamplingOptions so;
    cli::RemoteOptions ro;
    eo.add(p);
    so.add(p);
    ro.add(p);
    const QCommandLineOption prompt{{QStringLiteral("p"), QStringLiteral("prompt")},
                                    QStringLiteral("The prompt (special tokens are parsed)."),
                                    QStringLiteral("TEXT")};
    const QCommandLineOption file{{QStringLiteral("f"), QStringLiteral("file")},
                                  QStringLiteral("Read the prompt from a file."),
                                  QStringLiteral("FILE")};
    const QCommandLineOption chat{QStringLiteral("chat"),
                                  QStringLiteral("Send the prompt as a user message through the chat template.")};
    const QCommandLineOption output{QStringLiteral("output"),
                                    QStringLiteral("'text' (default) or 'ids' (generated token ids)."),
                                    QStringLiteral("FORMAT"), QStringLiteral("text")};
    for (const auto* o : {&prompt, &file, &chat, &output})
        p.addOption(*o);
    int exitCode = 0;
    if (!cli::parseArgs(p, args, exitCode))
        return exitCode;
    const bool ids = p.value(output) == QLatin1String("ids");
    if (!ids && p.value(output) != QLatin1String("text")) {
        cli::errLine(QStringLiteral("hearth run: --output must be 'text' or 'ids'"));
        return 2;
    }
    std::string text;
    if (p.isSet(file)) {
        QFile f(p.value(file));
        if (!f.open(QIODevice::ReadOnly)) {
            cli::errLine(QStringLiteral("hearth run: cannot read %1").arg(p.value(file)));
            return 1;
        }
        text = f.readAll().toStdString();
    } else {
        text = p.value(prompt).toStdString();
    }
    ChatParams params;
    if (!so.read(p, params.generation, 256))
        return 2;
    cli::installInterruptHandler();
    if (ro.isSet(p)) {
        if (ids) {
            cli::errLine(QStringLiteral("hearth run: --output ids needs a local model (a server sends text)"));
            return 2;
        }
        return cli::runRemote(p, ro, p.value(eo.model), QString::fromStdString(text), p.isSet(chat),
                              cli::samplerFrom(params.generation));
    }
    cli::Engine e;
    if (!cli::loadEngine(p, eo, e))
        return 1;
    try {
        TextCallbacks cb;
        bool first = true;
        if (ids) {
            cb.onToken = [&](TokenId t) {
                std::printf(first ? "%d" : " %d", t);
                std::fflush(stdout);
                first = false;
                return true;
            };
        } else {
            cb.onText = [](std::string_view piece) {
                std::fwrite(piece.data(), 1, piece.size(), stdout);
                std::fflush(stdout);
                return true;
            };
        }
        cb.onContextShift = [](const ContextShiftEvent& ev) {
            std::fprintf(stderr, "\n[context full: kept %d tokens, dropped %d]\n", ev.kept, ev.discarded);
        };
        cli::setGenerating(true);
        TextResult r;
        if (p.isSet(chat)) {
            ChatSession session(e.model, *e.context);
            r = session.reply(text, params, cb, &cli::interruptFlag());
        } else {
            Session session(*e.context);
            const std::vector<TokenId> tokens = e.model->tokenizePrompt(text);
            r = generateText(session, e.model->tokenizer(), tokens, params.generation, params.stop, cb,
                             &cli::interruptFlag());
        }
        cli::setGenerating(false);
        std::printf("\n");
        cli::errLine(cli::statsLine(r.stats));
        return 0;
    } catch (const std::exception& ex) {
        cli::errLine(QStringLiteral("hearth run: ") + QString::fromUtf8(ex.what()));
        return 1;
    }
}

// hearth chat -m FILE [sampling] [-c CTX] [-t N] [--system TEXT]
// hearth chat --endpoint URL -m MODEL_ID [--api-key-env VAR] [sampling] [--system TEXT]
// An interactive conversation on the terminal: one line per message, the
// model's chat template, the cached prefix reused across turns. Ctrl-C stops
// a reply; Ctrl-C at the prompt, Ctrl-D or /exit ends the chat; /reset
// starts over.

#include "CliIo.h"
#include "Commands.h"
#include "EngineOptions.h"
#include "RemoteOptions.h"

#include "runtime/chat_session.h"

#include <cstdio>
#include <iostream>
#include <string>

using namespace hearth;

int runChat(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Chat with a model on the terminal."));
    cli::EngineOptions eo;
    cli::SamplingOptions so;
    cli::RemoteOptions ro;
    eo.add(p);
    so.add(p);
    ro.add(p);
    const QCommandLineOption system{QStringLiteral("system"), QStringLiteral("A system prompt."),
                                    QStringLiteral("TEXT")};
    p.addOption(system);
    int exitCode = 0;
    if (!cli::parseArgs(p, args, exitCode))
        return exitCode;
    ChatParams params;
    if (!so.read(p, params.generation, -1))
        return 2;
    params.generation.nKeep = -1; // a shift keeps the conversation's start
    cli::installInterruptHandler();
    if (ro.isSet(p))
        return cli::chatRemote(p, ro, p.value(eo.model), p.value(system), cli::samplerFrom(params.generation));
    cli::Engine e;
    if (!cli::loadEngine(p, eo, e))
        return 1;
    ChatSession chat(e.model, *e.context);
    if (p.isSet(system))
        chat.setSystemPrompt(p.value(system).toStdString());
    cli::errLine(QStringLiteral("Chatting with %1 (template: %2). /exit to quit, /reset to start over, Ctrl-C "
                                "stops a reply.")
                     .arg(p.value(eo.model), QString::fromUtf8(std::string(e.model->chatTemplate().name()))));
    std::string line;
    for (;;) {
        std::fputs("\n> ", stdout);
        std::fflush(stdout);
        if (!std::getline(std::cin, line) || line == "/exit")
            break;
        if (line == "/reset") {
            chat.reset();
            continue;
        }
        if (line.empty())
            continue;
        TextCallbacks cb;
        cb.onText = [](std::string_view piece) {
            std::fwrite(piece.data(), 1, piece.size(), stdout);
            std::fflush(stdout);
            return true;
        };
        cb.onContextShift = [](const ContextShiftEvent& ev) {
            std::fprintf(stderr, "\n[context full: dropped %d older tokens]\n", ev.discarded);
        };
        try {
            cli::setGenerating(true);
            const TextResult r = chat.reply(line, params, cb, &cli::interruptFlag());
            cli::setGenerating(false);
            std::printf("\n");
            cli::errLine(cli::statsLine(r.stats));
        } catch (const std::exception& ex) {
            cli::setGenerating(false);
            cli::errLine(QStringLiteral("hearth chat: ") + QString::fromUtf8(ex.what()));
        }
    }
    return 0;
}

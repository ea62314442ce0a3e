// The remote halves of `hearth run` and `hearth chat` (--endpoint).

#include "CliIo.h"
#include "EngineOptions.h"
#include "RemoteOptions.h"

#include <cstdio>
#include <iostream>
#include <string>

namespace cli {

namespace {

void printPiece(const QString& piece, const GenerationStats&)
{
    const QByteArray utf8 = piece.toUtf8();
    std::fwrite(utf8.constData(), 1, size_t(utf8.size()), stdout);
    std::fflush(stdout);
}

} // namespace

int runRemote(const QCommandLineParser& p, const RemoteOptions& o, const QString& modelId, const QString& prompt,
              bool chat, const SamplerSettings& sampler)
{
    const std::unique_ptr<RemoteEngine> engine = o.open(p, modelId);
    if (!engine)
        return 1;
    try {
        setGenerating(true);
        const GenerationStats s =
            chat ? engine->generate({{ChatTurn::Role::User, prompt}}, sampler, printPiece, interruptFlag())
                 : engine->complete(prompt, sampler, printPiece, interruptFlag());
        setGenerating(false);
        std::printf("\n");
        errLine(remoteStatsLine(s) + QStringLiteral("; seed %1").arg(sampler.seed));
        return 0;
    } catch (const std::exception& ex) {
        setGenerating(false);
        std::printf("\n");
        errLine(QStringLiteral("hearth run: ") + QString::fromUtf8(ex.what()));
        return 1;
    }
}

int chatRemote(const QCommandLineParser& p, const RemoteOptions& o, const QString& modelId, const QString& system,
               const SamplerSettings& sampler)
{
    const std::unique_ptr<RemoteEngine> engine = o.open(p, modelId);
    if (!engine)
        return 1;
    QList<ChatTurn> turns;
    if (!system.isEmpty())
        turns.append({ChatTurn::Role::System, system});
    errLine(QStringLiteral("Chatting with %1 on %2. /exit to quit, /reset to start over, Ctrl-C stops a reply.")
                .arg(modelId, p.value(o.endpoint)));
    std::string line;
    for (;;) {
        std::fputs("\n> ", stdout);
        std::fflush(stdout);
        if (!std::getline(std::cin, line) || line == "/exit")
            break;
        if (line == "/reset") {
            turns.erase(turns.begin() + (system.isEmpty() ? 0 : 1), turns.end());
            continue;
        }
        if (line.empty())
            continue;
        turns.append({ChatTurn::Role::User, QString::fromStdString(line)});
        QString reply;
        try {
            interruptFlag() = false;
            setGenerating(true);
            const GenerationStats s = engine->generate(
                turns, sampler,
                [&](const QString& piece, const GenerationStats& soFar) {
                    reply += piece;
                    printPiece(piece, soFar);
                },
                interruptFlag());
            setGenerating(false);
            std::printf("\n");
            errLine(remoteStatsLine(s));
        } catch (const std::exception& ex) {
            setGenerating(false);
            std::printf("\n");
            errLine(QStringLiteral("hearth chat: ") + QString::fromUtf8(ex.what()));
        }
        if (reply.isEmpty())
            turns.removeLast(); // nothing came back: the message is not part of the conversation
        else
            turns.append({ChatTurn::Role::Assistant, reply}); // what arrived, even when cut short
    }
    return 0;
}

} // namespace cli

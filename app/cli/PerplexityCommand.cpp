// hearth perplexity -m FILE -f TEXT [-c CTX] [-t N] [--chunks N]
// Perplexity of a text, computed as llama-perplexity does (chunks of CTX
// tokens, the second half of each scored). Prints the running value per
// chunk and, as the last line, "perplexity: X".

#include "CliIo.h"
#include "Commands.h"
#include "EngineOptions.h"

#include "runtime/perplexity.h"

#include <QFile>

#include <cstdio>

using namespace hearth;

int runPerplexity(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Measure a model's perplexity on a text."));
    cli::EngineOptions eo;
    eo.add(p);
    const QCommandLineOption file{
        {QStringLiteral("f"), QStringLiteral("file")}, QStringLiteral("The text."), QStringLiteral("FILE")};
    const QCommandLineOption chunks{QStringLiteral("chunks"), QStringLiteral("Stop after N chunks."),
                                    QStringLiteral("N")};
    p.addOption(file);
    p.addOption(chunks);
    int exitCode = 0;
    if (!cli::parseArgs(p, args, exitCode))
        return exitCode;
    QFile f(p.value(file));
    if (!p.isSet(file) || !f.open(QIODevice::ReadOnly)) {
        cli::errLine(QStringLiteral("hearth perplexity: -f FILE is required and must be readable"));
        return 2;
    }
    const std::string text = f.readAll().toStdString();
    const int64_t nCtx = p.isSet(eo.ctx) ? p.value(eo.ctx).toLongLong() : 512;
    cli::Engine e;
    cli::installInterruptHandler();
    if (!cli::loadEngine(p, eo, e, nCtx))
        return 1;
    try {
        const Tokenizer& tok = e.model->tokenizer();
        // As llama-perplexity: BOS when the model adds it, special tokens not parsed.
        const std::vector<TokenId> tokens = tok.encode(text, /*addSpecial=*/true, /*parseSpecial=*/false);
        const TokenId bos = tok.addBos() ? tok.bos() : -1;
        std::fprintf(stderr, "%zu tokens, chunks of %lld\n", tokens.size(), static_cast<long long>(nCtx));
        cli::setGenerating(true);
        const PerplexityResult r = computePerplexity(
            *e.context, tokens, nCtx, bos, p.isSet(chunks) ? p.value(chunks).toLongLong() : -1,
            [](int64_t chunk, int64_t, double running) {
                std::printf("[%lld]%.4f,", static_cast<long long>(chunk), running);
                std::fflush(stdout);
            },
            &cli::interruptFlag());
        cli::setGenerating(false);
        std::printf("\n");
        if (r.cancelled)
            cli::errLine(QStringLiteral("cancelled after %1 chunks").arg(r.chunks));
        std::printf("perplexity: %.4f\n", r.perplexity);
        return r.cancelled ? 130 : 0;
    } catch (const std::exception& ex) {
        cli::errLine(QStringLiteral("hearth perplexity: ") + QString::fromUtf8(ex.what()));
        return 1;
    }
}

// hearth-engine-run: the engine without Qt, for platforms where only the
// engine is built (the Windows cross-build under wine, tests/windows) and
// for comparing their results with the native build's.
//
//   hearth-engine-run -m MODEL.gguf -p PROMPT [-n N] [-t THREADS] [-c CTX] [--pin]
//       loads the model, tokenizes PROMPT (special tokens parsed, BOS as the
//       vocabulary asks), generates N tokens greedily and prints
//           isa NAME
//           prompt ID ID ...
//           generated ID ID ...
//   hearth-engine-run --platform-check DIR
//       runs the platform checks (platform_check.h) inside DIR
//   hearth-engine-run --version
//
// Exit status: 0 on success, 1 when loading, generating or a check failed,
// 2 for a bad command line.

#include "platform_check.h"
#include "utf8_args.h"

#include "cpu/cpu_backend.h"
#include "cpu/cpu_features.h"
#include "hearth_version.h"
#include "runtime/context.h"
#include "runtime/loaded_model.h"
#include "runtime/session.h"
#include "runtime/text_generation.h"

#include <charconv>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

using namespace hearth;

namespace {

struct Options {
    std::string model, prompt, checkDir;
    int tokens = 32, threads = 0;
    int64_t ctx = 512;
    bool pin = false, version = false;
};

const char kUsage[] = "usage: hearth-engine-run -m MODEL.gguf -p PROMPT [-n N] [-t THREADS] [-c CTX] [--pin]\n"
                      "       hearth-engine-run --platform-check DIR\n"
                      "       hearth-engine-run --version\n";

std::optional<int64_t> number(const std::string& s)
{
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < 0)
        return std::nullopt;
    return v;
}

// Returns false (after printing why) for a command line it cannot use.
bool parse(const std::vector<std::string>& args, Options& o)
{
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        const bool hasValue = i + 1 < args.size();
        if (a == "--pin") {
            o.pin = true;
        } else if (a == "--version") {
            o.version = true;
        } else if (!hasValue) {
            std::fprintf(stderr, "hearth-engine-run: %s needs a value (or is unknown)\n%s", a.c_str(), kUsage);
            return false;
        } else if (a == "-m" || a == "-p" || a == "--platform-check") {
            (a == "-m" ? o.model : a == "-p" ? o.prompt : o.checkDir) = args[++i];
        } else if (a == "-n" || a == "-t" || a == "-c") {
            const auto v = number(args[++i]);
            if (!v || *v > (1 << 24)) {
                std::fprintf(stderr, "hearth-engine-run: %s needs a count, not '%s'\n", a.c_str(), args[i].c_str());
                return false;
            }
            if (a == "-c")
                o.ctx = *v;
            else
                (a == "-n" ? o.tokens : o.threads) = static_cast<int>(*v);
        } else {
            std::fprintf(stderr, "hearth-engine-run: unknown option %s\n%s", a.c_str(), kUsage);
            return false;
        }
    }
    if (!o.version && o.checkDir.empty() && o.model.empty()) {
        std::fputs(kUsage, stderr);
        return false;
    }
    return true;
}

void printIds(const char* label, const std::vector<TokenId>& ids)
{
    std::printf("%s", label);
    for (const TokenId t : ids)
        std::printf(" %d", t);
    std::printf("\n");
}

int generate(const Options& o)
{
    cpu::CpuBackend backend(o.threads, o.pin);
    LoadOptions lo;
    const std::shared_ptr<LoadedModel> model = LoadedModel::load(o.model, backend, lo);
    Context ctx(model->modelShared(), backend, ContextParams{o.ctx, 512, GgmlType::F16});
    Session session(ctx);
    const std::vector<TokenId> prompt = model->tokenizePrompt(o.prompt);
    GenerationParams params;
    params.maxTokens = o.tokens;
    params.sampling.temperature = 0.0f; // greedy: the same ids on every platform
    std::vector<TokenId> generated;
    TextCallbacks cb;
    cb.onToken = [&](TokenId t) {
        generated.push_back(t);
        return true;
    };
    generateText(session, model->tokenizer(), prompt, params, {}, cb);
    std::printf("isa %s\n", cpu::isaName(cpu::activeIsa()));
    printIds("prompt", prompt);
    printIds("generated", generated);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    if (!parse(tools::utf8Args(argc, argv), o))
        return 2;
    if (o.version) {
        std::printf("hearth-engine-run %s (%s)\n", HEARTH_VERSION, cpu::describeCpu().c_str());
        return 0;
    }
    try {
        if (!o.checkDir.empty())
            return tools::runPlatformChecks(o.checkDir) == 0 ? 0 : 1;
        return generate(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "hearth-engine-run: %s\n", e.what());
        return 1;
    }
}

// hearth bench -m FILE [-m FILE2 ...] [-p 512] [-n 128] [-d 0] [-t N] [-r REPS] [-ctk q8_0]
//              [-o md|json|jsonl] [--rss]
// Prompt processing (pp) and generation (tg) speed, measured as llama.cpp's
// llama-bench measures it (BenchRunner.h), printed as its table or its
// JSON (BenchReport.h). -p, -n, -d and -t take comma-separated lists; a 0
// in -p or -n skips that kind of test; -d runs each test at each depth.

#include "BenchReport.h"
#include "BenchRunner.h"
#include "CliIo.h"
#include "Commands.h"
#include "EngineOptions.h"

#include "AppInfo.h"

#include "cpu/cpu_features.h"
#include "gguf/model_info.h"
#include "util/error.h"
#include "util/system_memory.h"

#include <QDateTime>

#include <optional>
#include <vector>

using namespace hearth;

namespace {

// "512" or "128,512" -> {512} or {128, 512}; nullopt on anything else.
std::optional<std::vector<int>> intList(const QString& text, int min)
{
    std::vector<int> values;
    for (const QString& part : text.split(u',')) {
        bool ok = false;
        const int v = part.trimmed().toInt(&ok);
        if (!ok || v < min)
            return std::nullopt;
        values.push_back(v);
    }
    return values;
}

struct Options {
    QStringList models;
    std::vector<int> prompts{512}, gens{128}, depths{0}, threads;
    cli::BenchSettings settings;
    QString format = QStringLiteral("md");
    bool progress = false;
    int gpuLayers = 0;
    Backend* device = nullptr;
};

struct BenchOptions {
    QCommandLineOption model{{QStringLiteral("m"), QStringLiteral("model")},
                             QStringLiteral("GGUF model file (repeatable)."),
                             QStringLiteral("FILE")};
    QCommandLineOption prompt{{QStringLiteral("p"), QStringLiteral("n-prompt")},
                              QStringLiteral("Prompt tokens (default 512)."),
                              QStringLiteral("N")};
    QCommandLineOption gen{{QStringLiteral("n"), QStringLiteral("n-gen")},
                           QStringLiteral("Generated tokens (default 128)."),
                           QStringLiteral("N")};
    QCommandLineOption depth{{QStringLiteral("d"), QStringLiteral("n-depth")},
                             QStringLiteral("Tokens already in the cache when each test starts (default 0)."),
                             QStringLiteral("N")};
    QCommandLineOption threads{{QStringLiteral("t"), QStringLiteral("threads")},
                               QStringLiteral("Threads (default: all cores)."),
                               QStringLiteral("N")};
    QCommandLineOption reps{{QStringLiteral("r"), QStringLiteral("repetitions")},
                            QStringLiteral("Timed runs per test (default 5)."),
                            QStringLiteral("N")};
    QCommandLineOption batch{{QStringLiteral("b"), QStringLiteral("batch-size")},
                             QStringLiteral("Tokens per forward pass (default 512)."),
                             QStringLiteral("N")};
    QCommandLineOption ctx{{QStringLiteral("c"), QStringLiteral("ctx-size")},
                           QStringLiteral("KV cache cells (default: the test's prompt + generated tokens)."),
                           QStringLiteral("N")};
    QCommandLineOption output{{QStringLiteral("o"), QStringLiteral("output")},
                              QStringLiteral("md (default), json or jsonl."),
                              QStringLiteral("FORMAT")};
    QCommandLineOption rss{QStringLiteral("rss"), QStringLiteral("Also report each test's peak resident memory.")};
    QCommandLineOption noWarmup{QStringLiteral("no-warmup"), QStringLiteral("Skip the warm-up run of each test.")};
    QCommandLineOption progress{QStringLiteral("progress"), QStringLiteral("Name each test on stderr as it starts.")};
    cli::GpuOptions gpu;
    cli::KvCacheOptions kv;

    void add(QCommandLineParser& p) const
    {
        for (const auto* o :
             {&model, &prompt, &gen, &depth, &threads, &reps, &batch, &ctx, &output, &rss, &noWarmup, &progress})
            p.addOption(*o);
        gpu.add(p);
        kv.add(p);
    }
    bool read(const QCommandLineParser& p, Options& opt) const;
};

bool BenchOptions::read(const QCommandLineParser& p, Options& opt) const
{
    opt.models = p.values(model);
    const auto list = [&](const QCommandLineOption& option, std::vector<int>& into, int min) {
        if (!p.isSet(option))
            return true;
        const auto v = intList(p.value(option), min);
        if (!v)
            cli::errLine(QStringLiteral("hearth bench: -%1 needs numbers >= %2, not '%3'")
                             .arg(option.names().first())
                             .arg(min)
                             .arg(p.value(option)));
        else
            into = *v;
        return v.has_value();
    };
    std::vector<int> r{opt.settings.reps}, b{opt.settings.nBatch}, c{0};
    if (!list(prompt, opt.prompts, 0) || !list(gen, opt.gens, 0) || !list(depth, opt.depths, 0) ||
        !list(threads, opt.threads, 1) || !list(reps, r, 1) || !list(batch, b, 1) || !list(ctx, c, 0))
        return false;
    opt.settings.reps = r.front();
    opt.settings.nBatch = b.front();
    opt.settings.nCtx = c.front();
    opt.format = p.isSet(output) ? p.value(output) : opt.format;
    opt.settings.measureRss = p.isSet(rss);
    opt.settings.warmup = !p.isSet(noWarmup);
    opt.progress = p.isSet(progress);
    if (!gpu.read(p, opt.gpuLayers) || !kv.read(p, opt.settings.kvType))
        return false;
    if (opt.models.isEmpty()) {
        cli::errLine(QStringLiteral("hearth bench: -m FILE is required"));
        return false;
    }
    if (!cli::makeBenchPrinter(opt.format)) {
        cli::errLine(QStringLiteral("hearth bench: -o must be md, json or jsonl, not '%1'").arg(opt.format));
        return false;
    }
    return true;
}

cli::BenchModel describe(const LoadedModel& model, const QString& path)
{
    const gguf::ModelInfo info = gguf::summarize(model.file());
    cli::BenchModel m;
    m.filename = path.toStdString();
    m.type = info.architecture + " " + cli::sizeLabel(info.parameters) + " " + info.quantLabel();
    m.size = info.tensorBytes;
    m.params = info.parameters;
    return m;
}

std::vector<cli::BenchTest> testsOf(const Options& opt)
{
    std::vector<cli::BenchTest> tests;
    for (const int t : opt.threads)
        for (const int d : opt.depths) {
            for (const int n : opt.prompts)
                if (n > 0)
                    tests.push_back({n, 0, t, d});
            for (const int n : opt.gens)
                if (n > 0)
                    tests.push_back({0, n, t, d});
        }
    return tests;
}

// Runs every test on one model; false when it failed or was interrupted.
bool benchModel(const QString& path, const Options& opt, cpu::CpuBackend& backend, cli::BenchPrinter& printer,
                const cli::BenchRun& run)
{
    try {
        cli::setGenerating(true);
        LoadOptions lo;
        lo.cancel = &cli::interruptFlag();
        lo.device = opt.device;
        lo.gpuLayers = opt.gpuLayers;
        lo.context.nBatch = opt.settings.nBatch;
        lo.context.nCtx = opt.settings.nCtx;
        lo.context.kvType = opt.settings.kvType;
        const std::shared_ptr<LoadedModel> model = LoadedModel::load(path.toStdString(), backend, lo);
        if (!model->placementNote().empty())
            cli::errLine(QString::fromStdString("gpu: " + model->placementNote()));
        const cli::BenchModel facts = describe(*model, path);
        for (const cli::BenchTest& t : testsOf(opt)) {
            if (opt.progress)
                cli::errLine(QStringLiteral("hearth bench: %1 %2, %3 threads")
                                 .arg(QString::fromStdString(facts.type), cli::testName(t))
                                 .arg(t.threads));
            const QString when = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
            cli::BenchResult r = cli::runBenchTest(*model, backend, t, opt.settings, &cli::interruptFlag());
            r.gpuLayers = static_cast<int>(model->model().placement().gpuLayers());
            if (r.interrupted) {
                cli::errLine(QStringLiteral("hearth bench: interrupted"));
                return false;
            }
            printer.row(run, facts, r, when);
        }
        cli::setGenerating(false);
        return true;
    } catch (const Cancelled&) {
        cli::errLine(QStringLiteral("hearth bench: interrupted"));
    } catch (const std::exception& e) {
        cli::errLine(QStringLiteral("hearth bench: %1: %2").arg(path, QString::fromUtf8(e.what())));
    }
    cli::setGenerating(false);
    return false;
}

} // namespace

int runBench(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("Measure prompt processing (pp) and generation (tg) speed as llama.cpp's llama-bench does.\n"
                       "-p, -n, -d and -t take comma-separated lists; 0 in -p or -n skips those tests."));
    const BenchOptions bo;
    bo.add(p);
    int exitCode = 0;
    if (!cli::parseArgs(p, args, exitCode))
        return exitCode;
    Options opt;
    if (!bo.read(p, opt))
        return 2;

    cli::BenchRun run;
    run.startRss = opt.settings.measureRss ? processResidentBytes() : 0;
    run.rss = opt.settings.measureRss;
    run.version = AppInfo::version();
    run.cpuInfo = QString::fromStdString(cpu::describeCpu());
    run.isa = QString::fromLatin1(cpu::isaName(cpu::activeIsa()));
    run.kvType = opt.settings.kvType;
    cpu::CpuBackend backend(opt.threads.empty() ? 0 : opt.threads.front());
    if (opt.threads.empty())
        opt.threads = {backend.threads()};
    const std::unique_ptr<Backend> device = bo.gpu.open(p, opt.gpuLayers);
    opt.device = device.get();
    if (device) {
        run.backends = QString::fromStdString(device->device().api);
        run.gpuInfo = QString::fromStdString(device->device().name);
        run.gpuLayers = opt.gpuLayers;
    }

    cli::installInterruptHandler();
    const std::unique_ptr<cli::BenchPrinter> printer = cli::makeBenchPrinter(opt.format);
    printer->header(run);
    bool ok = true;
    for (const QString& path : opt.models) {
        ok = benchModel(path, opt, backend, *printer, run) && ok;
        if (cli::interruptFlag().load())
            break;
    }
    printer->footer(run);
    return cli::interruptFlag().load() ? 130 : ok ? 0 : 1;
}

#include "EngineOptions.h"

#include "CliIo.h"

#include "quant/types.h"
#include "runtime/gpu_layers.h"
#include "util/error.h"

#if defined(HEARTH_HAVE_VULKAN)
#include "vulkan/vulkan_backend.h"
#endif

#include <csignal>
#include <cstdlib>

using namespace hearth;

namespace cli {

namespace {

std::atomic<bool> g_interrupt{false};
std::atomic<bool> g_generating{false};

extern "C" void onInterrupt(int)
{
    if (g_generating.load() && !g_interrupt.load()) {
        g_interrupt.store(true);
        std::signal(SIGINT, onInterrupt); // Windows resets the handler
        return;
    }
    std::_Exit(130);
}

bool readNumber(const QCommandLineParser& p, const QCommandLineOption& o, double& v)
{
    if (!p.isSet(o))
        return true;
    bool ok = false;
    v = p.value(o).toDouble(&ok);
    if (!ok)
        errLine(QStringLiteral("hearth: --%1 needs a number, not '%2'").arg(o.names().last(), p.value(o)));
    return ok;
}

} // namespace

void GpuOptions::add(QCommandLineParser& p) const
{
    p.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    p.addOption(layers);
    p.addOption(device);
    p.addOption(verbose);
}

bool GpuOptions::read(const QCommandLineParser& p, int& n) const
{
    n = 0;
    if (!p.isSet(layers))
        return true;
    const QString v = p.value(layers);
    if (v == QLatin1String("auto")) {
        n = kGpuLayersAuto;
        return true;
    }
    bool ok = false;
    n = v.toInt(&ok);
    if (!ok || n < 0)
        errLine(QStringLiteral("hearth: -ngl needs a number of layers or 'auto', not '%1'").arg(v));
    return ok && n >= 0;
}

std::unique_ptr<Backend> GpuOptions::open(const QCommandLineParser& p, int& n) const
{
    const QString name = p.value(device);
    if (n == 0 || name == QLatin1String("none")) {
        n = 0;
        return nullptr;
    }
#if defined(HEARTH_HAVE_VULKAN)
    vulkan::Options o;
    o.device = name.toStdString();
    if (p.isSet(verbose))
        o.log = [](const std::string& line) { errLine(QString::fromStdString(line)); };
    try {
        return vulkan::createBackend(o);
    } catch (const std::exception& e) {
        errLine(QStringLiteral("hearth: no GPU (%1): running on the CPU").arg(QString::fromUtf8(e.what())));
    }
#else
    errLine(QStringLiteral("hearth: this build has no GPU backend: running on the CPU"));
#endif
    n = 0;
    return nullptr;
}

void listDevices()
{
#if defined(HEARTH_HAVE_VULKAN)
    outLine(QStringLiteral("Available devices:"));
    for (const std::string& line : vulkan::describeDevices())
        outLine(QStringLiteral("  ") + QString::fromStdString(line));
#else
    outLine(QStringLiteral("no GPU backend in this build"));
#endif
}

void EngineOptions::add(QCommandLineParser& p) const
{
    p.addOption(model);
    p.addOption(threads);
    p.addOption(ctx);
    gpu.add(p);
    kv.add(p);
}

void KvCacheOptions::add(QCommandLineParser& p) const
{
    p.addOption(k);
    p.addOption(v);
}

bool KvCacheOptions::read(const QCommandLineParser& p, GgmlType& type) const
{
    type = GgmlType::F16;
    QString asked;
    for (const QCommandLineOption* o : {&k, &v}) {
        if (!p.isSet(*o))
            continue;
        const QString name = p.value(*o).toLower();
        const std::optional<GgmlType> t = parseTypeName(name.toStdString());
        if (!t || (*t != GgmlType::F16 && *t != GgmlType::F32 && *t != GgmlType::Q8_0)) {
            errLine(
                QStringLiteral("hearth: -%1 must be f16, f32 or q8_0, not '%2'").arg(o->names().first(), p.value(*o)));
            return false;
        }
        if (!asked.isEmpty() && asked != name) {
            errLine(QStringLiteral("hearth: -ctk %1 and -ctv %2 differ: Hearth keeps K and V in one type")
                        .arg(asked, name));
            return false;
        }
        asked = name;
        type = *t;
    }
    return true;
}

void SamplingOptions::add(QCommandLineParser& p) const
{
    for (const auto* o : {&temp, &topK, &topP, &minP, &repeat, &seed, &maxTokens})
        p.addOption(*o);
}

bool SamplingOptions::read(const QCommandLineParser& p, GenerationParams& g, int defaultMax) const
{
    SamplerParams& s = g.sampling;
    double v = s.temperature;
    if (!readNumber(p, temp, v))
        return false;
    s.temperature = static_cast<float>(v);
    v = s.topK;
    if (!readNumber(p, topK, v))
        return false;
    s.topK = static_cast<int32_t>(v);
    v = s.topP;
    if (!readNumber(p, topP, v))
        return false;
    s.topP = static_cast<float>(v);
    v = s.minP;
    if (!readNumber(p, minP, v))
        return false;
    s.minP = static_cast<float>(v);
    v = s.repeatPenalty;
    if (!readNumber(p, repeat, v))
        return false;
    s.repeatPenalty = static_cast<float>(v);
    v = -1;
    if (!readNumber(p, seed, v))
        return false;
    if (v >= 0)
        s.seed = static_cast<uint32_t>(v);
    v = defaultMax;
    if (!readNumber(p, maxTokens, v))
        return false;
    g.maxTokens = static_cast<int32_t>(v);
    return true;
}

bool loadEngine(const QCommandLineParser& p, const EngineOptions& o, Engine& e, int64_t minCtx)
{
    if (!p.isSet(o.model)) {
        errLine(QStringLiteral("hearth: -m FILE is required"));
        return false;
    }
    int layers = 0;
    GgmlType kvType = GgmlType::F16;
    if (!o.gpu.read(p, layers) || !o.kv.read(p, kvType))
        return false;
    try {
        const int threads = p.isSet(o.threads) ? p.value(o.threads).toInt() : 0;
        e.backend = std::make_unique<cpu::CpuBackend>(threads);
        e.device = o.gpu.open(p, layers);
        LoadOptions lo;
        int shown = -1;
        lo.progress = [&](double f, const char* stage) {
            const int pct = static_cast<int>(f * 100);
            if (pct / 10 != shown / 10 || f >= 1.0) {
                std::fprintf(stderr, "\rloading %3d%% %-24s", pct, stage);
                shown = pct;
            }
        };
        lo.cancel = &interruptFlag();
        ContextParams cp;
        cp.kvType = kvType;
        cp.nCtx = p.isSet(o.ctx) ? p.value(o.ctx).toLongLong() : 0;
        if (cp.nCtx > 0 && cp.nCtx < minCtx)
            cp.nCtx = minCtx;
        lo.device = e.device.get();
        lo.gpuLayers = layers;
        lo.context = cp;
        setGenerating(true);
        e.model = LoadedModel::load(p.value(o.model).toStdString(), *e.backend, lo);
        setGenerating(false);
        std::fprintf(stderr, "\n");
        if (!e.model->templateWarning().empty())
            errLine(QString::fromStdString("warning: " + e.model->templateWarning()));
        if (!e.model->placementNote().empty())
            errLine(QString::fromStdString("gpu: " + e.model->placementNote()));
        e.context = std::make_unique<Context>(e.model->modelShared(), *e.backend, cp);
        return true;
    } catch (const Cancelled&) {
        errLine(QStringLiteral("\nhearth: cancelled"));
    } catch (const std::exception& ex) {
        errLine(QStringLiteral("\nhearth: ") + QString::fromUtf8(ex.what()));
    }
    return false;
}

std::atomic<bool>& interruptFlag()
{
    return g_interrupt;
}

void installInterruptHandler()
{
    std::signal(SIGINT, onInterrupt);
}

void setGenerating(bool on)
{
    g_generating.store(on);
    if (on)
        g_interrupt.store(false);
}

QString statsLine(const GenerationStats& s)
{
    const double pps = s.promptMs > 0 ? 1000.0 * static_cast<double>(s.promptEvaluated) / s.promptMs : 0.0;
    const double gps = s.generationMs > 0 && s.generatedTokens > 1
                           ? 1000.0 * static_cast<double>(s.generatedTokens - 1) / s.generationMs
                           : 0.0;
    QString line = QStringLiteral("prompt: %1 tokens (%2 evaluated) in %3 ms (%4 t/s); first token after %5 ms; "
                                  "generated: %6 tokens (%7 t/s); context %8/%9; stop: %10")
                       .arg(s.promptTokens)
                       .arg(s.promptEvaluated)
                       .arg(s.promptMs, 0, 'f', 0)
                       .arg(pps, 0, 'f', 1)
                       .arg(s.timeToFirstTokenMs, 0, 'f', 0)
                       .arg(s.generatedTokens)
                       .arg(gps, 0, 'f', 1)
                       .arg(s.contextUsed)
                       .arg(s.contextSize)
                       .arg(QString::fromLatin1(stopReasonName(s.stop)));
    if (s.contextShifts > 0)
        line += QStringLiteral("; context shifted %1 times").arg(s.contextShifts);
    return line;
}

} // namespace cli

#include "engine/FakeEngine.h"

#include "engine/FakeMarkdown.h"
#include "engine/HeaderFacts.h"
#include "gguf/model_info.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

FakeEngine::Options FakeEngine::Options::fromEnvironment()
{
    Options o;
    bool ok = false;
    if (const double tps = qEnvironmentVariable("HEARTH_FAKE_TPS").toDouble(&ok); ok)
        o.tokensPerSecond = tps;
    if (const int ms = qEnvironmentVariableIntValue("HEARTH_FAKE_LOAD_MS", &ok); ok)
        o.loadMs = ms;
    o.fillToMaxTokens = qEnvironmentVariableIntValue("HEARTH_FAKE_FILL") == 1;
    o.citeSources = qEnvironmentVariable("HEARTH_FAKE_CITE") != QLatin1String("0");
    return o;
}

FakeEngine::FakeEngine(Options options) : m_options(options)
{
}

bool FakeEngine::waitUntil(qint64 deadlineMs, const QElapsedTimer& clock, const std::atomic<bool>& stop)
{
    while (!stop.load()) {
        const qint64 left = deadlineMs - clock.elapsed();
        if (left <= 0)
            return true;
        QThread::msleep(ulong(std::min<qint64>(left, 5)));
    }
    return false;
}

ModelFacts FakeEngine::load(const QString& path, const LoadParams& params, const Progress& progress,
                            const std::atomic<bool>& cancel)
{
    unload();
    const hearth::gguf::ModelInfo info = HeaderFacts::readHeader(path);
    ModelFacts facts = HeaderFacts::factsFrom(info, params.contextSize);
    if (!info.hasChatTemplate)
        facts.warning =
            QCoreApplication::translate("FakeEngine", "The model file has no chat template; using the chatml format.");

    // Simulated reading of the weights: resident memory grows with progress.
    QElapsedTimer clock;
    clock.start();
    const int steps = 20;
    m_weightsMapped = facts.memory.weightsMapped;
    for (int i = 1; i <= steps; ++i) {
        if (!waitUntil(qint64(m_options.loadMs) * i / steps, clock, cancel)) {
            unload();
            throw EngineCancelled();
        }
        m_weightsResident = facts.memory.weightsResident * i / steps;
        if (progress)
            progress(double(i) / steps);
    }
    m_kvCache = facts.memory.kvCache;
    m_scratch = facts.memory.scratch;
    m_contextSize = facts.contextSize;
    m_contextUsed = 0;
    m_loaded = true;
    return facts;
}

void FakeEngine::unload()
{
    m_loaded = false;
    m_weightsMapped = 0;
    m_weightsResident = 0;
    m_kvCache = 0;
    m_scratch = 0;
    m_contextUsed = 0;
}

MemoryFigures FakeEngine::memory() const
{
    MemoryFigures m;
    m.weightsMapped = m_weightsMapped;
    m.weightsResident = m_weightsResident;
    m.kvCache = m_kvCache;
    m.scratch = m_scratch;
    return m;
}

FitEstimate FakeEngine::estimate(const QString& path, const LoadParams& params) const
{
    return HeaderFacts::estimateFor(HeaderFacts::readHeader(path), params.contextSize);
}

GenerationStats FakeEngine::generate(const QList<ChatTurn>& turns, const SamplerSettings& sampler,
                                     const PieceSink& sink, const std::atomic<bool>& stop)
{
    if (!m_loaded)
        throw EngineError(QCoreApplication::translate("FakeEngine", "No model is loaded."));
    QElapsedTimer clock;
    clock.start();

    // Like a session with prefix reuse: only the turns not seen before are
    // "evaluated". The fake counts the whole conversation once per turn.
    int conversationTokens = 0;
    for (const ChatTurn& t : turns)
        conversationTokens += FakeMarkdown::countTokens(t.text) + 4;
    GenerationStats stats;
    stats.contextSize = m_contextSize;
    stats.promptTokens = std::max(1, conversationTokens - m_contextUsed);
    stats.contextUsed = std::min(conversationTokens, m_contextSize);
    const qint64 promptDone =
        m_options.promptTokensPerSecond > 0 ? qint64(stats.promptTokens * 1000.0 / m_options.promptTokensPerSecond) : 0;
    if (!waitUntil(promptDone, clock, stop)) {
        stats.stopReason = StopReason::Stopped;
        return stats;
    }
    stats.promptMs = double(clock.nsecsElapsed()) / 1e6;

    const QString prompt = turns.isEmpty() ? QString() : turns.constLast().text;
    const QStringList pieces = FakeMarkdown::pieces(FakeMarkdown::reply(
        prompt, sampler.seed, m_options.fillToMaxTokens ? sampler.maxTokens : 0, m_options.citeSources));
    const double interval = m_options.tokensPerSecond > 0 ? 1000.0 / m_options.tokensPerSecond : 0;
    const double genStart = double(clock.nsecsElapsed()) / 1e6;
    stats.stopReason = StopReason::EndOfGeneration;
    for (const QString& piece : pieces) {
        if (stats.generatedTokens >= sampler.maxTokens) {
            stats.stopReason = StopReason::MaxTokens;
            break;
        }
        if (!waitUntil(qint64(genStart + interval * (stats.generatedTokens + 1)), clock, stop)) {
            stats.stopReason = StopReason::Stopped;
            break;
        }
        const double now = double(clock.nsecsElapsed()) / 1e6;
        if (stats.generatedTokens == 0)
            stats.timeToFirstTokenMs = now;
        ++stats.generatedTokens;
        stats.generationMs = now - stats.promptMs;
        if (++stats.contextUsed > m_contextSize) { // drop the older half after a kept prefix
            stats.contextUsed -= m_contextSize / 2;
            ++stats.contextShifts;
        }
        sink(piece, stats);
    }
    m_contextUsed = stats.contextUsed;
    return stats;
}

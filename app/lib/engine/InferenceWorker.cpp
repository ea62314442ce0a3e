#include "engine/InferenceWorker.h"

#include <QElapsedTimer>

InferenceWorker::InferenceWorker(std::shared_ptr<InferenceEngine> engine) : m_engine(std::move(engine))
{
}

void InferenceWorker::load(quint64 id, const QString& path, const LoadParams& params, const CancelFlag& cancel)
{
    int lastPercent = -1;
    try {
        const ModelFacts facts = m_engine->load(
            path, params,
            [&](double fraction) {
                // At most one signal per percent, whatever the engine reports.
                const int percent = int(fraction * 100);
                if (percent != lastPercent) {
                    lastPercent = percent;
                    emit loadProgress(id, fraction);
                }
            },
            *cancel);
        emit loaded(id, facts);
    } catch (const EngineCancelled&) {
        emit loadFailed(id, tr("Loading was cancelled."), true);
    } catch (const EngineError& e) {
        emit loadFailed(id, e.message(), false);
    } catch (const std::exception& e) {
        emit loadFailed(id, QString::fromStdString(e.what()), false);
    }
}

void InferenceWorker::generate(quint64 id, const QList<ChatTurn>& turns, const SamplerSettings& sampler,
                               const CancelFlag& stop)
{
    QElapsedTimer sinceStats;
    sinceStats.start();
    try {
        const GenerationStats final = m_engine->generate(
            turns, sampler,
            [&](const QString& text, const GenerationStats& soFar) {
                emit piece(id, text);
                if (sinceStats.elapsed() >= 200) { // live stats a few times a second
                    sinceStats.restart();
                    emit stats(id, soFar);
                }
            },
            *stop);
        emit generated(id, final);
    } catch (const std::exception& e) {
        emit generationFailed(id, QString::fromStdString(e.what()));
    }
}

void InferenceWorker::unload()
{
    m_engine->unload();
}

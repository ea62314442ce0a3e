#include "gauges/ResourceSampler.h"

#include "gauges/SystemMemory.h"

#include <QTimer>

ResourceSampler::ResourceSampler(std::shared_ptr<InferenceEngine> engine, int intervalMs, QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<MemoryFigures>();
    m_thread.setObjectName(QStringLiteral("gauges"));
    auto* timer = new QTimer; // lives on the sampling thread
    timer->setInterval(intervalMs);
    timer->moveToThread(&m_thread);
    connect(&m_thread, &QThread::started, timer, qOverload<>(&QTimer::start));
    connect(&m_thread, &QThread::finished, timer, &QObject::deleteLater);
    // Runs on the sampling thread (the timer's); the signal queues to ours.
    connect(timer, &QTimer::timeout, timer, [this, engine = std::move(engine)] {
        emit sampled(SystemMemory::processResidentBytes(), engine->memory());
    });
    m_thread.start(QThread::LowPriority);
}

ResourceSampler::~ResourceSampler()
{
    m_thread.quit();
    m_thread.wait();
}

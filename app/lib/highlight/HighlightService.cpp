#include "highlight/HighlightService.h"

#include <memory>

// Owns the highlighter; lives on the service's thread.
class HighlightWorker : public QObject {
public:
    QList<HighlightSpan> run(const QString& code, const QString& language)
    {
        if (!m_highlighter)
            m_highlighter = Highlighter::create();
        return m_highlighter->highlight(code, language);
    }

private:
    std::unique_ptr<Highlighter> m_highlighter;
};

HighlightService::HighlightService(QObject* parent) : QObject(parent)
{
    m_thread.setObjectName(QStringLiteral("highlight"));
    m_worker = new HighlightWorker;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start(QThread::LowPriority);
}

HighlightService::~HighlightService()
{
    m_thread.quit();
    m_thread.wait();
}

void HighlightService::request(const QString& code, const QString& language, QObject* receiver, Callback done)
{
    const quint64 ticket = m_next++;
    m_waiting.insert(ticket, {receiver, std::move(done)});
    QMetaObject::invokeMethod(
        m_worker,
        [this, worker = m_worker, ticket, code, language] {
            const QList<HighlightSpan> spans = worker->run(code, language);
            // The service outlives its thread, so queuing onto it is safe.
            QMetaObject::invokeMethod(
                this, [this, ticket, spans] { deliver(ticket, spans); }, Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void HighlightService::deliver(quint64 ticket, const QList<HighlightSpan>& spans)
{
    const Waiting waiting = m_waiting.take(ticket);
    if (waiting.receiver && waiting.done)
        waiting.done(spans);
    if (m_waiting.isEmpty())
        emit idle();
}

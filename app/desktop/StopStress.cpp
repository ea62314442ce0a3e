#include "StopStress.h"

#include "AppSession.h"
#include "chat/ChatController.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QQuickItem>
#include <QQuickWindow>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

StopStress::StopStress(AppSession* session, QQuickWindow* window, int tries, QObject* parent)
    : QObject(parent)
    , m_session(session)
    , m_window(window)
    , m_tries(tries)
    , m_seed(QRandomGenerator::global()->generate())
    , m_random(m_seed)
{
    if (qEnvironmentVariableIsSet("HEARTH_STRESS_SEED")) // to replay a failing run
        m_random.seed(m_seed = quint32(qEnvironmentVariableIntValue("HEARTH_STRESS_SEED")));
    m_delay.setSingleShot(true);
    connect(&m_delay, &QTimer::timeout, this, &StopStress::pressStop);
    m_watchdog.setSingleShot(true);
    m_watchdog.setInterval(kWatchdogMs);
    connect(&m_watchdog, &QTimer::timeout, this, [this] {
        emitEvent(QStringLiteral("stop-hung"), {{"try", m_done + 1},
                                                {"seed", qint64(m_seed)},
                                                {"stop_pressed", m_stopPressed},
                                                {"waited_ms", kWatchdogMs}});
        // A hung engine would also hang the orderly shutdown: leave now.
        std::fflush(stdout);
        std::_Exit(4);
    });
    connect(m_session->chat(), &ChatController::replyFinished, this, &StopStress::onReplyFinished);
}

void StopStress::emitEvent(const QString& name, const QJsonObject& fields) const
{
    QJsonObject o = fields;
    o.insert(QStringLiteral("event"), name);
    std::fprintf(stdout, "%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

// The visual item named `name` (QObject children miss items reparented
// into views).
static QQuickItem* findItem(QQuickItem* item, const QString& name)
{
    if (item->objectName() == name)
        return item;
    const QList<QQuickItem*> children = item->childItems();
    for (QQuickItem* child : children)
        if (QQuickItem* found = findItem(child, name))
            return found;
    return nullptr;
}

QQuickItem* StopStress::item(const QString& objectName) const
{
    return findItem(m_window->contentItem(), objectName);
}

void StopStress::start()
{
    if (m_total.isValid())
        return; // a reload during the run loads the model again
    emitEvent(QStringLiteral("stop-stress-start"), {{"tries", m_tries}, {"seed", qint64(m_seed)}});
    m_total.start();
    QTimer::singleShot(0, this, &StopStress::nextTry);
}

void StopStress::nextTry()
{
    if (m_done == m_tries) {
        report();
        return;
    }
    QQuickItem* input = item(QStringLiteral("composerInput"));
    if (!input) {
        emitEvent(QStringLiteral("error"), {{"error", "the composer's input field was not found"}});
        QCoreApplication::exit(3);
        return;
    }
    m_session->chat()->newConversation();
    input->forceActiveFocus();
    input->setProperty("text", QStringLiteral("Write a long story about a cat."));
    QKeyEvent press(QEvent::KeyPress, Qt::Key_Return, Qt::NoModifier, QStringLiteral("\r"));
    QCoreApplication::sendEvent(input, &press);
    QKeyEvent release(QEvent::KeyRelease, Qt::Key_Return, Qt::NoModifier, QStringLiteral("\r"));
    QCoreApplication::sendEvent(input, &release);
    if (!m_session->chat()->generating()) {
        emitEvent(QStringLiteral("error"), {{"error", "Enter did not start a reply"}, {"try", m_done + 1}});
        QCoreApplication::exit(3);
        return;
    }
    m_waitingForEnd = true;
    m_stopPressed = false;
    m_watchdog.start(); // also catches a reply that never ends on its own
    m_delay.start(int(m_random.bounded(kMaxDelayMs + 1)));
}

void StopStress::pressStop()
{
    if (!m_waitingForEnd)
        return;
    m_stopPressed = true;
    m_sinceStop.start();
    m_watchdog.start(); // the limit counts from the stop
    if (m_done % 2 == 0) {
        // Esc in the message box.
        QQuickItem* input = item(QStringLiteral("composerInput"));
        QKeyEvent press(QEvent::KeyPress, Qt::Key_Escape, Qt::NoModifier);
        QCoreApplication::sendEvent(input, &press);
        QKeyEvent release(QEvent::KeyRelease, Qt::Key_Escape, Qt::NoModifier);
        QCoreApplication::sendEvent(input, &release);
    } else if (QQuickItem* button = item(QStringLiteral("stopButton")); button && button->isVisible()) {
        // A click in the middle of Stop.
        const QPointF at = button->mapToScene(QPointF(button->width() / 2, button->height() / 2));
        const QPointF global = m_window->mapToGlobal(at);
        QMouseEvent press(QEvent::MouseButtonPress, at, global, Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_window, &press);
        QMouseEvent release(QEvent::MouseButtonRelease, at, global, Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
        QCoreApplication::sendEvent(m_window, &release);
    }
}

void StopStress::onReplyFinished()
{
    if (!m_waitingForEnd)
        return;
    m_waitingForEnd = false;
    m_delay.stop();
    m_watchdog.stop();
    if (m_stopPressed) {
        ++m_stopped;
        m_stopMs.append(m_sinceStop.elapsed());
    } else {
        ++m_finishedFirst;
    }
    ++m_done;
    // The next Enter after the controller has settled (as a person would).
    QTimer::singleShot(10, this, &StopStress::nextTry);
}

void StopStress::report()
{
    QList<qint64> sorted = m_stopMs;
    std::sort(sorted.begin(), sorted.end());
    QJsonArray all;
    for (qint64 ms : m_stopMs)
        all.append(ms);
    emitEvent(QStringLiteral("stop-stress"), {{"tries", m_tries},
                                              {"stopped", m_stopped},
                                              {"finished_first", m_finishedFirst},
                                              {"seed", qint64(m_seed)},
                                              {"stop_ms_median", sorted.isEmpty() ? 0 : sorted.at(sorted.size() / 2)},
                                              {"stop_ms_max", sorted.isEmpty() ? 0 : sorted.last()},
                                              {"stop_ms", all},
                                              {"total_ms", m_total.elapsed()}});
    QCoreApplication::quit();
}

// A scripted stress run of Stop, for the end-to-end test (--stop-stress N):
// N times, in a new conversation, type a message that wants a long reply
// and press Enter in the composer, wait a random moment (0 to 1.2 s: during
// the prompt or the stream), then stop it the way a person does (Esc in the
// message box, or a click on Stop, alternately) and time how long the reply
// takes to end. A stop that has not ended the reply after the watchdog's
// limit is reported (event "stop-hung") and the process exits at once with
// status 4, without waiting for a hung engine. Events are JSON lines on
// stdout; the last is "stop-stress" with the counts and latencies. GUI
// thread.
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QRandomGenerator>
#include <QTimer>

class AppSession;
class QQuickItem;
class QQuickWindow;

class StopStress : public QObject {
    Q_OBJECT

public:
    static constexpr int kWatchdogMs = 10000; // a stop must end the reply within this
    static constexpr int kMaxDelayMs = 1200;  // stops land at 0..this after Enter

    StopStress(AppSession* session, QQuickWindow* window, int tries, QObject* parent = nullptr);

    // Starts once the model has loaded; quits the application when done.
    void start();

private:
    void nextTry();
    void pressStop();
    void onReplyFinished();
    void report();
    void emitEvent(const QString& name, const class QJsonObject& fields) const;
    QQuickItem* item(const QString& objectName) const;

    AppSession* m_session;
    QQuickWindow* m_window;
    int m_tries;
    int m_done = 0;
    int m_stopped = 0;       // ended by the stop
    int m_finishedFirst = 0; // ended on their own before the stop landed
    bool m_waitingForEnd = false;
    bool m_stopPressed = false;
    quint32 m_seed;
    QRandomGenerator m_random;
    QElapsedTimer m_sinceStop;
    QElapsedTimer m_total;
    QList<qint64> m_stopMs;
    QTimer m_delay;
    QTimer m_watchdog;
};

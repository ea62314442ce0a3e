// Scripted runs of the desktop app, for the end-to-end test and the
// screenshots in docs/: type a message into the composer and press Enter
// once the model is loaded (--send), save a screenshot when the reply has
// finished or, without --send, once the window is up (--screenshot), quit
// when done (--quit-when-done), and print what happens as JSON lines on
// stdout (--events); --new-chat sends in a fresh conversation. It drives
// the real UI: the composer's text field and its Enter key handler.
#pragma once

#include <QObject>
#include <QString>

class AppSession;
class QQuickWindow;

class Automation : public QObject {
    Q_OBJECT

public:
    struct Options {
        QString send;
        bool newChat = false; // send in a new conversation
        QString screenshot;
        bool quitWhenDone = false;
        bool events = false;
    };

    Automation(AppSession* session, QQuickWindow* window, Options options, QObject* parent = nullptr);

    // Reports the conversation shown after start-up (event
    // "conversation-restored") and starts the script.
    void start();

private:
    void emitEvent(const QString& name, const class QJsonObject& fields) const;
    void typeAndSend();
    void finish();
    void screenshotThenQuit();
    class QJsonObject lastMessage() const;

    AppSession* m_session;
    QQuickWindow* m_window;
    Options m_options;
    bool m_sent = false;
    bool m_finishing = false;
    bool m_replyFinished = false; // the --send reply, reported by finish()
};

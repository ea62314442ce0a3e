// Scripted runs of the desktop app, for the end-to-end test and the
// screenshots in docs/: type a message into the composer and press Enter
// once the model is loaded (--send), save a screenshot when the reply has
// finished or, without --send, once the window is up (--screenshot), quit
// when done (--quit-when-done), and print what happens as JSON lines on
// stdout (--events); --new-chat sends in a fresh conversation. It drives
// the real UI: the composer's text field and its Enter key handler.
//
// --get-model QUERY gets a model as a person does on the Get models page:
// once the page is open (the app opens it on a first launch with no model;
// else the script does, after the library scan), it types QUERY into the
// search field and presses Enter, opens the first repository found, waits
// for the recommended file's header check, starts that file's download and
// follows it until it is verified; the app then loads it (and --send
// sends once it is loaded). Any failure on the way is an "error" event and
// exit code 3.
//
// --add-endpoint URL adds a remote engine as a person does in Settings →
// Engines: the script opens that dialog, types the URL and (from
// $HEARTH_ENDPOINT_KEY, so no key is on a command line) the API key into
// its fields, leaving the optional name empty, and presses Add; once the
// endpoint is saved and its models are listed and in the picker, it loads
// the first one (or --remote-model NAME), as the picker's Load button
// does, and --send sends through it.
//
// --documents PATH asks about the user's files as a person does: the
// script opens the Documents panel (as Ctrl+D does), adds PATH there (what
// the folder dialog's Accept does: a new collection, ticked for this chat),
// reports indexing progress, and once indexed saves BASE-panel.png (BASE:
// --screenshot without .png), closes the panel and sends --send. After the
// reply it saves BASE-answer.png, clicks the first source listed under the
// reply (a PDF's when there is one), waits until the viewer shows the cited
// page with the passage highlighted, reports it ("source-opened") and
// saves --screenshot.
#pragma once

#include <QHash>
#include <QObject>
#include <QString>

#include <functional>

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
        QString getModel;    // a search on the Get models page
        QString addEndpoint; // a remote engine's base URL, added in Settings → Engines
        QString endpointKey; // its API key, typed into the dialog
        QString remoteModel; // the endpoint's model to load (default: its first)
        QString documents;   // a folder or file added in the Documents panel
    };

    Automation(AppSession* session, QQuickWindow* window, Options options, QObject* parent = nullptr);

    // Reports the conversation shown after start-up (event
    // "conversation-restored") and starts the script.
    void start();

private slots:
    void getModelsOpened();

private:
    void watchGetModels();
    void addEndpoint();
    void loadRemoteModel();
    void reportDownloads();
    void fail(const QString& message);
    void emitEvent(const QString& name, const class QJsonObject& fields) const;
    void typeAndSend();
    void finish();
    void screenshotThenQuit();
    void addDocuments();
    void documentsIndexed();
    void openSource();
    void watchViewer(int tries);
    // Saves the window to `file`, then runs `next` (or fails).
    void shoot(const QString& file, const std::function<void()>& next);
    QString shotName(const QString& suffix) const;
    class QJsonObject lastMessage() const;

    AppSession* m_session;
    QQuickWindow* m_window;
    Options m_options;
    bool m_sent = false;
    bool m_finishing = false;
    bool m_replyFinished = false; // the --send reply, reported by finish()
    // --get-model
    QObject* m_getModelsPage = nullptr;
    class HubBrowser* m_hub = nullptr;
    bool m_getModelsShown = false;
    QString m_repo;  // the repository opened
    int m_file = -1; // its recommended file
    bool m_downloadStarted = false;
    QHash<QString, QString> m_downloadStates; // id -> state last reported
    // --add-endpoint
    QString m_endpointId; // once saved
    bool m_remoteLoadStarted = false;
    // --documents
    bool m_documentsReady = false; // indexed: --send may go
    bool m_sourceOpened = false;
};

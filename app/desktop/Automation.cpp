#include "Automation.h"

#include "AppSession.h"
#include "WindowCapture.h"
#include "chat/ChatController.h"
#include "models/ModelLibrary.h"
#include "models/ModelLoader.h"
#include "storage/MessageStore.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeyEvent>
#include <QQuickItem>
#include <QQuickWindow>
#include <QTimer>

#include <cstdio>

Automation::Automation(AppSession* session, QQuickWindow* window, Options options, QObject* parent)
    : QObject(parent), m_session(session), m_window(window), m_options(std::move(options))
{
    ModelLoader* loader = m_session->loader();
    ChatController* chat = m_session->chat();
    connect(loader, &ModelLoader::statusChanged, this, [this, loader] {
        switch (loader->status()) {
        case ModelLoader::Loading: emitEvent(QStringLiteral("model-loading"), {{"path", loader->modelPath()}}); break;
        case ModelLoader::Loaded:
            emitEvent(QStringLiteral("model-loaded"), {{"name", loader->modelName()}, {"summary", loader->summary()}});
            if (!m_options.send.isEmpty() && !m_sent)
                QTimer::singleShot(0, this, &Automation::typeAndSend);
            break;
        case ModelLoader::Failed: emitEvent(QStringLiteral("model-failed"), {{"error", loader->error()}}); break;
        case ModelLoader::Empty: break;
        }
    });
    connect(m_session->library(), &ModelLibrary::errorChanged, this, [this] {
        if (!m_session->library()->error().isEmpty())
            emitEvent(QStringLiteral("open-failed"), {{"error", m_session->library()->error()}});
    });
    connect(chat, &ChatController::replyStarted, this, [this](qint64 id) {
        emitEvent(QStringLiteral("reply-started"), {{"id", id}});
    });
    connect(chat, &ChatController::textShown, this, [this](qint64 id, int chars) {
        emitEvent(QStringLiteral("reply-text"), {{"id", id}, {"chars", chars}});
    });
    connect(chat, &ChatController::replyFinished, this, [this](qint64) {
        // With --send the event waits in finish() for the model's hash, so
        // the provenance it reports is the one stored once hashing is done.
        if (m_options.send.isEmpty()) {
            emitEvent(QStringLiteral("reply-finished"), lastMessage());
            return;
        }
        m_replyFinished = true;
        finish();
    });
}

void Automation::emitEvent(const QString& name, const QJsonObject& fields) const
{
    if (!m_options.events)
        return;
    QJsonObject o = fields;
    o.insert(QStringLiteral("event"), name);
    std::fprintf(stdout, "%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    std::fflush(stdout);
}

QJsonObject Automation::lastMessage() const
{
    const QList<ChatMessage> all = m_session->messageStore().messages(m_session->chat()->conversationId());
    QJsonObject o{{"messages", int(all.size())}, {"conversation", m_session->chat()->conversationId()}};
    if (all.isEmpty())
        return o;
    const ChatMessage& m = all.last();
    const Provenance& p = m.provenance;
    o.insert(QStringLiteral("author"), m.role == ChatTurn::Role::Assistant ? "assistant" : "user");
    o.insert(QStringLiteral("state"), messageStateName(m.state));
    o.insert(QStringLiteral("chars"), int(m.text.size()));
    o.insert(QStringLiteral("provenance"), QJsonObject{{"model", p.modelName},
                                                       {"path", p.modelPath},
                                                       {"sha256", p.modelSha256},
                                                       {"quant", p.quant},
                                                       {"architecture", p.architecture},
                                                       {"engine", p.engine},
                                                       {"seed", qint64(p.sampler.seed)},
                                                       {"temperature", p.sampler.temperature},
                                                       {"prompt_tokens", p.stats.promptTokens},
                                                       {"generated_tokens", p.stats.generatedTokens},
                                                       {"ttft_ms", p.stats.timeToFirstTokenMs},
                                                       {"generation_ms", p.stats.generationMs}});
    return o;
}

void Automation::start()
{
    emitEvent(QStringLiteral("conversation-restored"), lastMessage());
    if (m_options.send.isEmpty() && (!m_options.screenshot.isEmpty() || m_options.quitWhenDone))
        finish();
}

// The visual item named `name` under `item` (QObject children miss items
// reparented into views).
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

void Automation::typeAndSend()
{
    QQuickItem* input = findItem(m_window->contentItem(), QStringLiteral("composerInput"));
    if (!input) {
        emitEvent(QStringLiteral("error"), {{"error", "the composer's input field was not found"}});
        QCoreApplication::exit(3);
        return;
    }
    m_sent = true;
    if (m_options.newChat)
        m_session->chat()->newConversation();
    input->forceActiveFocus();
    input->setProperty("text", m_options.send);
    // Enter, as a person would press it: the composer's key handler sends.
    QKeyEvent press(QEvent::KeyPress, Qt::Key_Return, Qt::NoModifier, QStringLiteral("\r"));
    QCoreApplication::sendEvent(input, &press);
    QKeyEvent release(QEvent::KeyRelease, Qt::Key_Return, Qt::NoModifier, QStringLiteral("\r"));
    QCoreApplication::sendEvent(input, &release);
    emitEvent(QStringLiteral("sent"), {{"text", m_options.send}});
}

void Automation::finish()
{
    if (m_finishing)
        return;
    m_finishing = true;
    // Provenance wants the model's hash: wait for it when a model is loaded.
    auto* wait = new QTimer(this);
    wait->setInterval(50);
    connect(wait, &QTimer::timeout, this, [this, wait] {
        ModelLoader* loader = m_session->loader();
        if (loader->busy() || (loader->loaded() && loader->sha256().isEmpty()))
            return;
        wait->deleteLater();
        if (m_replyFinished)
            emitEvent(QStringLiteral("reply-finished"), lastMessage());
        screenshotThenQuit();
    });
    wait->start();
}

void Automation::screenshotThenQuit()
{
    if (m_options.screenshot.isEmpty()) {
        if (m_options.quitWhenDone)
            QCoreApplication::quit();
        return;
    }
    WindowCapture::saveAfterFirstFrames(m_window, m_options.screenshot, [this](bool ok, const QString& message) {
        emitEvent(QStringLiteral("screenshot"), {{"ok", ok}, {"message", message}});
        if (m_options.quitWhenDone)
            QCoreApplication::exit(ok ? 0 : 1);
    });
}

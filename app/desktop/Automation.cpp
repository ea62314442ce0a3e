#include "Automation.h"

#include "AppSession.h"
#include "WindowCapture.h"
#include "chat/ChatController.h"
#include "documents/DocumentsController.h"
#include "downloads/DownloadsModel.h"
#include "downloads/HubBrowser.h"
#include "models/ModelLibrary.h"
#include "models/ModelListModel.h"
#include "models/ModelLoader.h"
#include "remote/EndpointListModel.h"
#include "storage/MessageStore.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeyEvent>
#include <QQuickItem>
#include <QQuickWindow>
#include <QTimer>
#include <QUrl>

#include <cstdio>
#include <limits>

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
            if (!m_options.send.isEmpty() && !m_sent && (m_options.documents.isEmpty() || m_documentsReady))
                QTimer::singleShot(0, this, &Automation::typeAndSend);
            else if (m_options.send.isEmpty() && (m_downloadStarted || m_remoteLoadStarted))
                finish(); // --get-model or --add-endpoint alone: done once its model is loaded
            break;
        case ModelLoader::Failed:
            emitEvent(QStringLiteral("model-failed"), {{"error", loader->error()}});
            // A script that was to send through this model cannot go on.
            if (m_options.quitWhenDone && !m_sent && (!m_options.send.isEmpty() || m_remoteLoadStarted))
                fail(loader->error());
            break;
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
    if (!m_options.getModel.isEmpty())
        watchGetModels();
    if (!m_options.addEndpoint.isEmpty())
        QTimer::singleShot(0, this, &Automation::addEndpoint); // once the window's items are complete
    if (!m_options.documents.isEmpty())
        QTimer::singleShot(0, this, &Automation::addDocuments);
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
    if (!m.sources.isEmpty()) {
        QJsonArray sources;
        for (const MessageSource& src : m.sources)
            sources.append(QJsonObject{{"n", src.n},
                                       {"label", src.label},
                                       {"path", src.path},
                                       {"page", src.pageFrom},
                                       {"cited", src.cited},
                                       {"attributed", src.attributed}});
        o.insert(QStringLiteral("sources"), sources);
        o.insert(QStringLiteral("text"), m.text);
    }
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
    if (m_options.send.isEmpty() && m_options.getModel.isEmpty() && m_options.addEndpoint.isEmpty() &&
        m_options.documents.isEmpty() && (!m_options.screenshot.isEmpty() || m_options.quitWhenDone))
        finish();
}

void Automation::fail(const QString& message)
{
    emitEvent(QStringLiteral("error"), {{"error", message}});
    QCoreApplication::exit(3);
}

// The visual items named `name` under `item`, depth first, at most `most`
// of them (QObject children miss items reparented into views).
static void findItems(QQuickItem* item, const QString& name, QList<QQuickItem*>& out, qsizetype most)
{
    if (item->objectName() == name)
        out.append(item);
    const QList<QQuickItem*> children = item->childItems();
    for (QQuickItem* child : children) {
        if (out.size() >= most)
            return;
        findItems(child, name, out, most);
    }
}

// The first of them.
static QQuickItem* findItem(QQuickItem* item, const QString& name)
{
    QList<QQuickItem*> found;
    findItems(item, name, found, 1);
    return found.value(0);
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
    // Provenance wants the model file's hash: wait while it is computed.
    auto* wait = new QTimer(this);
    wait->setInterval(50);
    connect(wait, &QTimer::timeout, this, [this, wait] {
        const ModelLoader* loader = m_session->loader();
        if (loader->busy() || loader->hashing())
            return;
        wait->deleteLater();
        if (m_replyFinished)
            emitEvent(QStringLiteral("reply-finished"), lastMessage());
        if (!m_options.documents.isEmpty() && m_replyFinished && !m_sourceOpened)
            shoot(shotName(QStringLiteral("answer")), [this] { openSource(); });
        else
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

// --get-model: every step waits for the signal that ends the one before
// (the page opened, the search answered, the files listed, the header
// read, the download's state changed), never for a time.
void Automation::watchGetModels()
{
    m_getModelsPage = m_window->findChild<QObject*>(QStringLiteral("getModelsPage"));
    m_hub = m_window->findChild<HubBrowser*>();
    if (!m_getModelsPage || !m_hub) {
        QTimer::singleShot(0, this, [this] { fail(QStringLiteral("the Get models page was not found")); });
        return;
    }
    connect(m_getModelsPage, SIGNAL(opened()), this, SLOT(getModelsOpened()));
    // Without a first-launch offer (there are models), open the page once
    // the scan is over, as the picker's "Get models" button does.
    connect(m_session->library(), &ModelLibrary::scanningChanged, this, [this] {
        if (m_session->library()->scanning() || m_getModelsShown)
            return;
        QTimer::singleShot(0, this, [this] { // after the window's own handler
            if (!m_getModelsPage->property("visible").toBool())
                QMetaObject::invokeMethod(m_getModelsPage, "open");
        });
    });
    connect(m_hub, &HubBrowser::errorChanged, this, [this] {
        if (!m_hub->error().isEmpty())
            fail(m_hub->error());
    });
    connect(m_hub, &HubBrowser::resultsChanged, this, [this] {
        const QVariantList results = m_hub->results();
        const QString first = results.value(0).toMap().value(QStringLiteral("repoId")).toString();
        emitEvent(QStringLiteral("hub-results"), {{"count", int(results.size())}, {"first", first}});
        if (first.isEmpty())
            return fail(QStringLiteral("the search for \"%1\" found nothing").arg(m_options.getModel));
        m_repo = first;
        m_hub->openRepo(first); // a click on the first result
    });
    connect(m_hub, &HubBrowser::filesChanged, this, [this] {
        const QVariantList files = m_hub->files();
        if (m_repo.isEmpty() || m_hub->repo() != m_repo || files.isEmpty() || m_file >= 0)
            return; // cleared while asking
        m_file = m_hub->recommended();
        emitEvent(QStringLiteral("hub-files"),
                  {{"repo", m_repo},
                   {"count", int(files.size())},
                   {"recommended", files.value(m_file).toMap().value(QStringLiteral("name")).toString()}});
        if (m_file < 0)
            fail(QStringLiteral("%1 has no file to recommend").arg(m_repo));
    });
    connect(m_hub, &HubBrowser::headerChanged, this, [this] {
        if (m_file < 0 || m_hub->headerIndex() != m_file || m_downloadStarted)
            return;
        if (!m_hub->headerError().isEmpty())
            return fail(m_hub->headerError());
        const QVariantMap h = m_hub->header();
        emitEvent(QStringLiteral("hub-header"), {{"architecture", h.value(QStringLiteral("architecture")).toString()},
                                                 {"quant", h.value(QStringLiteral("quant")).toString()},
                                                 {"fits", h.value(QStringLiteral("fits")).toBool()},
                                                 {"required", h.value(QStringLiteral("requiredBytes")).toDouble()},
                                                 {"bytes_read", h.value(QStringLiteral("bytesRead")).toDouble()}});
        m_downloadStarted = true;
        m_hub->download(m_file); // the recommended row's Download button
    });
    DownloadsModel* downloads = m_hub->downloads();
    connect(downloads, &QAbstractItemModel::rowsInserted, this, &Automation::reportDownloads);
    connect(downloads, &QAbstractItemModel::dataChanged, this, &Automation::reportDownloads);
    connect(downloads, &DownloadsModel::modelArrived, this, [this](const QString& path) {
        emitEvent(QStringLiteral("download-done"), {{"path", path}});
    });
}

void Automation::getModelsOpened()
{
    if (m_getModelsShown)
        return;
    m_getModelsShown = true;
    auto* content = m_getModelsPage->property("contentItem").value<QQuickItem*>();
    const auto shown = [content](const char* name) -> QQuickItem* {
        QQuickItem* item = content ? findItem(content, QString::fromLatin1(name)) : nullptr;
        return item && item->isVisible() ? item : nullptr;
    };
    QQuickItem* offer = shown("firstLaunchOffer");
    emitEvent(QStringLiteral("get-models-shown"), {{"first_launch", m_getModelsPage->property("firstLaunch").toBool()},
                                                   {"offer", offer ? offer->property("text").toString() : QString()},
                                                   {"open_button", shown("offerOpenButton") != nullptr}});
    QQuickItem* field = shown("searchField");
    if (!field)
        return fail(QStringLiteral("the search field of the Get models page was not found"));
    // Typed and Enter pressed, as in the composer: the field's onAccepted searches.
    field->forceActiveFocus();
    field->setProperty("text", m_options.getModel);
    QKeyEvent press(QEvent::KeyPress, Qt::Key_Return, Qt::NoModifier, QStringLiteral("\r"));
    QCoreApplication::sendEvent(field, &press);
    QKeyEvent release(QEvent::KeyRelease, Qt::Key_Return, Qt::NoModifier, QStringLiteral("\r"));
    QCoreApplication::sendEvent(field, &release);
    emitEvent(QStringLiteral("hub-search"), {{"query", m_options.getModel}});
}

void Automation::reportDownloads()
{
    const DownloadsModel* downloads = m_hub->downloads();
    for (int row = 0; row < downloads->rowCount(); ++row) {
        const QModelIndex i = downloads->index(row);
        const QString id = i.data(DownloadsModel::IdRole).toString();
        const QString state = i.data(DownloadsModel::StateRole).toString();
        if (m_downloadStates.value(id) == state)
            continue;
        m_downloadStates.insert(id, state);
        emitEvent(QStringLiteral("download-state"), {{"name", i.data(DownloadsModel::NameRole).toString()},
                                                     {"state", state},
                                                     {"received", i.data(DownloadsModel::ReceivedRole).toDouble()},
                                                     {"total", i.data(DownloadsModel::TotalRole).toDouble()}});
        if (state == QLatin1String("failed"))
            fail(i.data(DownloadsModel::ErrorRole).toString());
    }
}

// --add-endpoint: the Engines dialog filled in and its Add button pressed;
// then, once the endpoint is saved (its key in the keychain), its models
// listed and in the picker, one of them loaded. Each step waits for the
// signal that ends the one before.
void Automation::addEndpoint()
{
    // The Settings panel opened, its Engines button pressed.
    QObject* panel = m_window->findChild<QObject*>(QStringLiteral("settingsPanel"));
    QObject* dialog = m_window->findChild<QObject*>(QStringLiteral("enginesDialog"));
    auto* panelContent = panel ? panel->property("contentItem").value<QQuickItem*>() : nullptr;
    QQuickItem* enginesButton = panelContent ? findItem(panelContent, QStringLiteral("enginesButton")) : nullptr;
    if (!dialog || !enginesButton)
        return fail(QStringLiteral("the Settings panel's Engines dialog was not found"));
    QMetaObject::invokeMethod(panel, "open");
    QMetaObject::invokeMethod(enginesButton, "clicked");
    if (!dialog->property("visible").toBool())
        return fail(QStringLiteral("the Engines dialog did not open"));
    auto* content = dialog->property("contentItem").value<QQuickItem*>();
    const auto item = [content](const char* name) {
        return content ? findItem(content, QString::fromLatin1(name)) : nullptr;
    };
    QQuickItem* url = item("endpointUrl");
    QQuickItem* key = item("endpointKey");
    QQuickItem* add = item("saveEndpoint");
    if (!url || !key || !add)
        return fail(QStringLiteral("the Engines dialog's fields were not found"));
    // The Name field is left empty, as it may be: the endpoint is then
    // called by its host and port.
    for (const auto& [field, text] : {std::pair{url, m_options.addEndpoint}, std::pair{key, m_options.endpointKey}}) {
        field->forceActiveFocus();
        field->setProperty("text", text);
    }

    EndpointListModel* endpoints = m_session->endpoints();
    connect(endpoints, &EndpointListModel::saved, this, [this, dialog](const QString& id, const QString& error) {
        if (!m_endpointId.isEmpty())
            return;
        emitEvent(QStringLiteral("endpoint-saved"), {{"id", id}, {"error", error}});
        if (!error.isEmpty())
            return fail(error);
        m_endpointId = id;
        QMetaObject::invokeMethod(dialog, "close");
    });
    // A listing ends with the endpoint's status (dataChanged) and, when it
    // found models, remoteModelsChanged, which puts them in the picker.
    const auto listed = [this] { QTimer::singleShot(0, this, &Automation::loadRemoteModel); };
    connect(endpoints, &QAbstractItemModel::dataChanged, this, listed);
    connect(endpoints, &EndpointListModel::remoteModelsChanged, this, listed);
    // The Add button's click, as a person's: the dialog reads its fields and
    // shows what is wrong with them.
    QMetaObject::invokeMethod(add, "clicked");
    emitEvent(QStringLiteral("endpoint-added"),
              {{"url", m_options.addEndpoint}, {"with_key", !m_options.endpointKey.isEmpty()}});
    if (!dialog->property("messageOk").toBool())
        fail(dialog->property("message").toString());
}

void Automation::loadRemoteModel()
{
    if (m_endpointId.isEmpty() || m_remoteLoadStarted)
        return;
    const EndpointListModel* endpoints = m_session->endpoints();
    const QModelIndex e = endpoints->index(endpoints->rowOf(m_endpointId));
    if (!e.isValid())
        return fail(QStringLiteral("the saved endpoint is not in the list"));
    const QString status = e.data(EndpointListModel::StatusRole).toString();
    if (status.isEmpty())
        return; // still listing
    if (!e.data(EndpointListModel::StatusOkRole).toBool())
        return fail(QStringLiteral("listing the endpoint's models failed: %1").arg(status));
    const QStringList names = e.data(EndpointListModel::ModelsRole).toStringList();
    const QString name = m_options.remoteModel.isEmpty() ? names.value(0) : m_options.remoteModel;
    emitEvent(QStringLiteral("remote-models"),
              {{"endpoint", m_endpointId}, {"names", QJsonArray::fromStringList(names)}});
    if (!names.contains(name))
        return fail(QStringLiteral("the endpoint does not serve a model called \"%1\" (it serves %2)")
                        .arg(name, names.join(QStringLiteral(", "))));
    const QString path = endpoints->modelPath(m_endpointId, name);
    const ModelListModel* models = m_session->library()->models();
    bool inPicker = false;
    for (int row = 0; row < models->rowCount() && !inPicker; ++row)
        inPicker = models->index(row).data(ModelListModel::PathRole).toString() == path;
    if (!inPicker)
        return fail(QStringLiteral("%1 is listed but not in the model picker").arg(path));
    m_remoteLoadStarted = true;
    m_session->library()->load(path); // the picker row's Load button
}

// --documents: each step waits for the signal that ends the one before (the
// collection indexed, the reply finished, the viewer's PDF ready), never for
// a time; the viewer is polled only for QtPdf's own rendering state.
QString Automation::shotName(const QString& suffix) const
{
    QString base = m_options.screenshot;
    if (base.endsWith(QLatin1String(".png"), Qt::CaseInsensitive))
        base.chop(4);
    return base.isEmpty() ? QString() : base + QLatin1Char('-') + suffix + QStringLiteral(".png");
}

void Automation::shoot(const QString& file, const std::function<void()>& next)
{
    if (file.isEmpty()) {
        next();
        return;
    }
    WindowCapture::saveAfterFirstFrames(m_window, file, [this, file, next](bool ok, const QString& message) {
        emitEvent(QStringLiteral("screenshot"), {{"ok", ok}, {"file", file}, {"message", message}});
        if (!ok)
            return fail(message);
        next();
    });
}

void Automation::addDocuments()
{
    DocumentsController* docs = m_session->documents();
    QObject* panel = m_window->findChild<QObject*>(QStringLiteral("documentsPanel"));
    if (!panel)
        return fail(QStringLiteral("the Documents panel was not found"));
    if (!docs->embeddingModelFound())
        return fail(QStringLiteral("the embedding model %1 is missing").arg(docs->embeddingModel()));
    connect(docs, &DocumentsController::progressChanged, this, [this, docs] {
        if (docs->indexing())
            emitEvent(QStringLiteral("documents-progress"),
                      {{"progress", docs->progress()}, {"text", docs->progressText()}, {"file", docs->currentFile()}});
    });
    connect(docs, &DocumentsController::errorChanged, this, [this, docs] {
        if (!docs->error().isEmpty())
            fail(docs->error());
    });
    connect(docs, &DocumentsController::indexed, this, [this] {
        if (!m_documentsReady)
            QTimer::singleShot(0, this, &Automation::documentsIndexed); // after the panel's own update
    });
    QMetaObject::invokeMethod(panel, "open"); // Ctrl+D
    // The folder dialog's Accept: DocumentsPanel.addPath(url).
    QMetaObject::invokeMethod(panel, "addPath", Q_ARG(QVariant, QVariant(QUrl::fromLocalFile(m_options.documents))));
    emitEvent(QStringLiteral("documents-added"), {{"path", m_options.documents}});
}

void Automation::documentsIndexed()
{
    DocumentsController* docs = m_session->documents();
    if (docs->indexing())
        return; // another run follows
    m_documentsReady = true;
    const QVariantList collections = docs->collections();
    QJsonArray rows;
    for (const QVariant& v : collections)
        rows.append(QJsonObject::fromVariantMap(v.toMap()));
    emitEvent(QStringLiteral("documents-indexed"),
              {{"collections", rows}, {"used", docs->usedCount()}, {"report", docs->report()}});
    shoot(shotName(QStringLiteral("panel")), [this] {
        if (QObject* panel = m_window->findChild<QObject*>(QStringLiteral("documentsPanel")))
            QMetaObject::invokeMethod(panel, "close");
        if (!m_options.send.isEmpty() && !m_sent && m_session->loader()->loaded())
            typeAndSend();
    });
}

void Automation::openSource()
{
    m_sourceOpened = true;
    // The buttons under the last reply (the view's delegates are visual
    // children only); a PDF's first, for the page view.
    QQuickItem* list = findItem(m_window->contentItem(), QStringLiteral("messageList"));
    QList<QQuickItem*> buttons;
    if (list)
        findItems(list, QStringLiteral("sourceButton"), buttons, std::numeric_limits<qsizetype>::max());
    buttons.removeIf([](const QQuickItem* b) { return !b->isVisible(); });
    if (buttons.isEmpty())
        return fail(QStringLiteral("no source is listed under the reply"));
    QQuickItem* chosen = buttons.first();
    for (QQuickItem* b : buttons)
        if (b->property("modelData")
                .toMap()
                .value(QStringLiteral("path"))
                .toString()
                .endsWith(QLatin1String(".pdf"), Qt::CaseInsensitive)) {
            chosen = b;
            break;
        }
    const QVariantMap source = chosen->property("modelData").toMap();
    emitEvent(QStringLiteral("source-clicked"), {{"n", source.value(QStringLiteral("n")).toInt()},
                                                 {"label", source.value(QStringLiteral("label")).toString()},
                                                 {"page", source.value(QStringLiteral("page")).toInt()}});
    QMetaObject::invokeMethod(chosen, "clicked");
    watchViewer(0);
}

void Automation::watchViewer(int tries)
{
    QObject* viewer = m_window->findChild<QObject*>(QStringLiteral("documentViewer"));
    if (!viewer || !viewer->property("visible").toBool())
        return fail(QStringLiteral("the source viewer did not open"));
    auto* content = viewer->property("contentItem").value<QQuickItem*>();
    QQuickItem* loader = content ? findItem(content, QStringLiteral("pdfLoader")) : nullptr;
    const bool pdf = loader && loader->property("active").toBool();
    auto* page = pdf ? loader->property("item").value<QQuickItem*>() : nullptr;
    const bool shown = !pdf || (page && page->property("ready").toBool() && page->property("highlights").toInt() > 0);
    if (!shown && page && page->property("failed").toBool())
        return fail(QStringLiteral("the PDF could not be opened"));
    if (!shown) {
        if (tries > 200)
            return fail(QStringLiteral("the PDF did not show the passage within 10 s"));
        QTimer::singleShot(50, this, [this, tries] { watchViewer(tries + 1); });
        return;
    }
    QQuickItem* text = content ? findItem(content, QStringLiteral("documentText")) : nullptr;
    QJsonObject o{{"pdf", pdf}};
    if (page) {
        o.insert(QStringLiteral("page"), page->property("currentPage").toInt());
        o.insert(QStringLiteral("pages"), page->property("pageCount").toInt());
        o.insert(QStringLiteral("highlights"), page->property("highlights").toInt());
    } else if (text) {
        o.insert(QStringLiteral("selected"), text->property("selectedText").toString());
    }
    QQuickItem* title = content ? findItem(content, QStringLiteral("viewerTitle")) : nullptr;
    o.insert(QStringLiteral("title"), title ? title->property("text").toString() : QString());
    emitEvent(QStringLiteral("source-opened"), o);
    screenshotThenQuit();
}

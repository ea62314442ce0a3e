// Everything one running Hearth holds, wired together: the database and
// its stores, settings, the engine behind the inference worker, the
// highlighter thread, the model library and loader, the chat, the
// conversation list and the gauges. main() creates one and hands it to the
// window as a required property (no context properties, no globals);
// tests create their own with a temporary data folder and the fake engine.
//
// Files in the data folder: hearth.sqlite (conversations), settings.ini
// (QSettings), cache/models.json (model header cache). GUI thread.
#pragma once

#include "engine/InferenceEngine.h"
#include "markdown/RenderStyle.h"

#include <QObject>
#include <QtQml/qqmlregistration.h>

#include <memory>

class ChatController;
class DocumentsController;
namespace documents {
class RetrievalService;
}
class ConversationListModel;
class ConversationStore;
class Database;
class EndpointListModel;
class Gauges;
class HighlightService;
class InferenceService;
class MessageStore;
class ModelCache;
class ModelLibrary;
class ModelLoader;
class LocalServer;
class QSettings;
class SecretStore;
class ResourceSampler;
class SettingsModel;
class SettingsStore;

class AppSession : public QObject {
    Q_OBJECT
    Q_MOC_INCLUDE("chat/ChatController.h")
    Q_MOC_INCLUDE("conversations/ConversationListModel.h")
    Q_MOC_INCLUDE("models/ModelLibrary.h")
    Q_MOC_INCLUDE("models/ModelLoader.h")
    Q_MOC_INCLUDE("settings/SettingsModel.h")
    Q_MOC_INCLUDE("gauges/Gauges.h")
    Q_MOC_INCLUDE("remote/EndpointListModel.h")
    Q_MOC_INCLUDE("server/LocalServer.h")
    Q_MOC_INCLUDE("documents/DocumentsController.h")
    QML_ELEMENT
    QML_UNCREATABLE("Created by main() or a test")
    Q_PROPERTY(ChatController* chat READ chat CONSTANT)
    Q_PROPERTY(ConversationListModel* conversations READ conversations CONSTANT)
    Q_PROPERTY(ModelLibrary* library READ library CONSTANT)
    Q_PROPERTY(ModelLoader* loader READ loader CONSTANT)
    Q_PROPERTY(SettingsModel* settings READ settings CONSTANT)
    Q_PROPERTY(Gauges* gauges READ gauges CONSTANT)
    Q_PROPERTY(EndpointListModel* endpoints READ endpoints CONSTANT)
    Q_PROPERTY(LocalServer* localServer READ localServer CONSTANT)
    Q_PROPERTY(DocumentsController* documents READ documents CONSTANT)
    Q_PROPERTY(QString engineKind READ engineKind CONSTANT)
    Q_PROPERTY(bool darkTheme READ darkTheme WRITE setDarkTheme NOTIFY darkThemeChanged)

public:
    struct Options {
        QString dataDir;                         // "" = defaultDataDir()
        std::shared_ptr<InferenceEngine> engine; // null = EngineFactory::create()
        bool scanModels = true;                  // scan the models folders at start
        bool highlight = true;                   // run the highlighter thread
        int gaugeIntervalMs = 250;
        QString embeddingModel; // Documents' model; "" = ModelPaths::defaultEmbeddingModel()
    };

    // $HEARTH_DATA_DIR, else $XDG_DATA_HOME/hearth on Linux (next to the
    // models folder), else the platform's application data folder.
    static QString defaultDataDir();

    explicit AppSession(Options options, QObject* parent = nullptr);
    ~AppSession() override;

    ChatController* chat() const { return m_chat.get(); }
    ConversationListModel* conversations() const { return m_conversationList.get(); }
    ModelLibrary* library() const { return m_library.get(); }
    ModelLoader* loader() const { return m_loader.get(); }
    SettingsModel* settings() const { return m_settingsModel.get(); }
    Gauges* gauges() const { return m_gauges.get(); }
    EndpointListModel* endpoints() const { return m_endpoints.get(); }
    LocalServer* localServer() const { return m_localServer.get(); }
    DocumentsController* documents() const { return m_documents.get(); }
    QString engineKind() const { return m_engine->kind(); }
    bool darkTheme() const { return m_dark; }
    void setDarkTheme(bool dark);

    const QString& dataDir() const { return m_dataDir; }
    Database& database() const { return *m_db; }
    MessageStore& messageStore() const { return *m_messageStore; }
    ConversationStore& conversationStore() const { return *m_conversationStore; }
    SettingsStore& settingsStore() const { return *m_settingsStore; }
    InferenceService& inference() const { return *m_inference; }

    // Reopens what was open when Hearth last quit: the conversation, and
    // the model unless `model` names another file to open instead.
    void restore(const QString& model = {});

signals:
    void darkThemeChanged();

private:
    QString m_dataDir;
    RenderStyle m_style;
    bool m_dark = false;
    std::unique_ptr<QSettings> m_settings;
    std::unique_ptr<Database> m_db;
    std::unique_ptr<EndpointListModel> m_endpoints; // remote servers (Settings → Engines)
    std::unique_ptr<ConversationStore> m_conversationStore;
    std::unique_ptr<MessageStore> m_messageStore;
    std::shared_ptr<InferenceEngine> m_engine;
    std::unique_ptr<InferenceService> m_inference;
    std::unique_ptr<HighlightService> m_highlighter;
    std::shared_ptr<ModelCache> m_cache;
    std::unique_ptr<SettingsStore> m_settingsStore;
    std::unique_ptr<SettingsModel> m_settingsModel;
    std::unique_ptr<Gauges> m_gauges;
    std::unique_ptr<ResourceSampler> m_sampler;
    std::unique_ptr<ModelLoader> m_loader;
    std::unique_ptr<ModelLibrary> m_library;
    std::unique_ptr<documents::RetrievalService> m_retrieval; // before m_chat, which searches through it
    std::unique_ptr<ChatController> m_chat;
    std::unique_ptr<DocumentsController> m_documents; // after m_chat: it follows the conversation's collections
    std::unique_ptr<ConversationListModel> m_conversationList;
    std::unique_ptr<SecretStore> m_secrets;
    std::unique_ptr<LocalServer> m_localServer; // after m_secrets: it uses them until it stops
};

#include "AppSession.h"
#include "ModelPaths.h"

#include "chat/ChatController.h"
#include "conversations/ConversationListModel.h"
#include "documents/DocumentsController.h"
#include "documents/RetrievalService.h"
#include "engine/EngineFactory.h"
#include "engine/GpuDevice.h"
#include "engine/InferenceService.h"
#include "gauges/Gauges.h"
#include "gauges/ResourceSampler.h"
#include "highlight/HighlightService.h"
#include "models/ModelCache.h"
#include "models/ModelLibrary.h"
#include "models/ModelLoader.h"
#include "remote/EndpointListModel.h"
#include "remote/EngineRouter.h"
#include "secrets/SecretStore.h"
#include "server/LocalServer.h"
#include "settings/SettingsModel.h"
#include "settings/SettingsStore.h"
#include "storage/ConversationStore.h"
#include "storage/Database.h"
#include "storage/MessageStore.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

QString AppSession::defaultDataDir()
{
    const QString env = qEnvironmentVariable("HEARTH_DATA_DIR");
    if (!env.isEmpty())
        return QDir::cleanPath(env);
#if defined(Q_OS_LINUX) || defined(Q_OS_FREEBSD)
    return QDir::cleanPath(ModelPaths::xdgDataHome() + QStringLiteral("/hearth"));
#else
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
#endif
}

AppSession::AppSession(Options options, QObject* parent)
    : QObject(parent)
    , m_dataDir(options.dataDir.isEmpty() ? defaultDataDir() : options.dataDir)
    , m_style(RenderStyle::light())
{
    QDir().mkpath(m_dataDir);
    m_settings = std::make_unique<QSettings>(m_dataDir + QStringLiteral("/settings.ini"), QSettings::IniFormat);
    m_db = std::make_unique<Database>(m_dataDir + QStringLiteral("/hearth.sqlite"));
    m_conversationStore = std::make_unique<ConversationStore>(m_db.get());
    m_messageStore = std::make_unique<MessageStore>(m_db.get());
    GpuDevices::lookUpInBackground(); // the settings and the fit estimate read it later
    // Local files go to the local engine, model URLs to the remote one.
    m_endpoints = std::make_unique<EndpointListModel>(m_settings.get());
    m_engine = std::make_shared<EngineRouter>(options.engine ? options.engine : EngineFactory::create(),
                                              std::make_shared<RemoteEngine>(m_endpoints->lookup()));
    m_inference = std::make_unique<InferenceService>(m_engine);
    if (options.highlight)
        m_highlighter = std::make_unique<HighlightService>();
    m_cache = std::make_shared<ModelCache>(m_dataDir + QStringLiteral("/cache/models.json"));
    m_settingsStore = std::make_unique<SettingsStore>(m_settings.get());
    m_settingsModel = std::make_unique<SettingsModel>(m_settingsStore.get());
    m_gauges = std::make_unique<Gauges>();
    m_sampler = std::make_unique<ResourceSampler>(m_engine, options.gaugeIntervalMs);
    connect(m_sampler.get(), &ResourceSampler::sampled, m_gauges.get(), &Gauges::setMemory);
    m_loader = std::make_unique<ModelLoader>(m_inference.get(), m_settingsStore.get(), m_cache);
    m_library =
        std::make_unique<ModelLibrary>(m_engine, m_cache, m_loader.get(), m_settingsStore.get(), m_settings.get());
    const QString dbPath = m_dataDir + QStringLiteral("/hearth.sqlite");
    const QString embeddingModel =
        options.embeddingModel.isEmpty() ? ModelPaths::defaultEmbeddingModel() : options.embeddingModel;
    m_retrieval = std::make_unique<documents::RetrievalService>(dbPath, embeddingModel);
    m_chat = std::make_unique<ChatController>(ChatController::Services{
        m_inference.get(), m_conversationStore.get(), m_messageStore.get(), m_settingsStore.get(), m_loader.get(),
        m_gauges.get(), m_highlighter.get(), &m_style, m_engine->kind(), m_retrieval.get()});
    m_documents = std::make_unique<DocumentsController>(dbPath, embeddingModel, m_chat.get(), m_retrieval.get());
    m_conversationList = std::make_unique<ConversationListModel>(m_conversationStore.get());
    m_secrets = std::make_unique<SecretStore>();
    m_localServer = std::make_unique<LocalServer>(m_settings.get(), m_secrets.get());

    connect(m_chat.get(), &ChatController::conversationChanged, this, [this] {
        m_conversationList->setCurrentId(m_chat->conversationId());
        m_settings->setValue(QStringLiteral("session/conversation"), m_chat->conversationId());
    });
    connect(m_conversationList.get(), &ConversationListModel::removed, this, [this](qint64 id) {
        m_chat->stopIn(id); // a reply being written there
        if (id == m_chat->conversationId())
            m_chat->newConversation();
    });
    // An undone delete opens the conversation again.
    connect(m_conversationList.get(), &ConversationListModel::restored, m_chat.get(),
            &ChatController::openConversation);
    connect(m_loader.get(), &ModelLoader::statusChanged, this, [this] {
        if (m_loader->loaded()) {
            m_settings->setValue(QStringLiteral("session/model"), m_loader->modelPath());
            m_gauges->setContextSize(m_loader->facts().contextSize);
        }
        m_settingsModel->setModel(m_loader->loaded() ? m_loader->modelPath() : QString(), m_loader->modelName());
        // The local server serves the loaded model (when its switch is on).
        if (m_loader->loaded() || !m_loader->busy())
            m_localServer->setModelPath(m_loader->loaded() ? m_loader->modelPath() : QString());
    });
    // Remote models join the picker; each rescan lists them again.
    connect(m_endpoints.get(), &EndpointListModel::remoteModelsChanged, this,
            [this] { m_library->models()->setRemoteEntries(m_endpoints->remoteModels()); });
    connect(m_library.get(), &ModelLibrary::scanFinished, m_endpoints.get(), &EndpointListModel::refreshModels);
    if (options.scanModels)
        m_library->rescan();
}

AppSession::~AppSession()
{
    m_settings->sync();
}

void AppSession::setDarkTheme(bool dark)
{
    if (dark == m_dark)
        return;
    m_dark = dark;
    m_style = dark ? RenderStyle::dark() : RenderStyle::light();
    m_chat->messages()->restyle();
    emit darkThemeChanged();
}

void AppSession::restore(const QString& model)
{
    const qint64 conversation = m_settings->value(QStringLiteral("session/conversation")).toLongLong();
    const QList<Conversation> all = m_conversationStore->conversations();
    const bool known =
        std::any_of(all.cbegin(), all.cend(), [&](const Conversation& c) { return c.id == conversation; });
    if (known)
        m_chat->openConversation(conversation);
    else if (!all.isEmpty())
        m_chat->openConversation(all.first().id);

    if (!model.isEmpty()) {
        m_library->openPath(model);
        return;
    }
    const QString last = m_settings->value(QStringLiteral("session/model")).toString();
    if (!last.isEmpty() && (QFileInfo::exists(last) || isRemoteModelPath(last)))
        m_library->load(last);
}

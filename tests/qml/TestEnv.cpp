#include "TestEnv.h"

#include "../app/FakeHub.h"
#include "chat/ChatController.h"

#include <QFileInfo>

#include <QClipboard>
#include <QGuiApplication>

FakeEngine::Options TestEnv::engineOptions()
{
    FakeEngine::Options o;
    o.tokensPerSecond = 300;
    o.loadMs = 500; // slow enough to cancel
    return o;
}

TestEnv::TestEnv(QObject* parent) : QObject(parent), m_test(engineOptions(), /*highlight=*/true)
{
}

QString TestEnv::lastMessageText() const
{
    MessageListModel* messages = m_test.session->chat()->messages();
    const QList<ChatMessage> all = messages->metas();
    return all.isEmpty() ? QString() : all.last().text;
}

QString TestEnv::clipboardText() const
{
    return QGuiApplication::clipboard()->text();
}

QString TestEnv::startFakeHub()
{
    if (!m_hub) {
        m_hub = std::make_shared<FakeHub>();
        if (!m_hub->start()) {
            qWarning("fake hub: %s", qPrintable(m_hub->error()));
            return {};
        }
    }
    m_hub->reset();
    m_downloads = std::make_unique<QTemporaryDir>();
    qputenv("HF_ENDPOINT", m_hub->endpoint().toString().toUtf8());
    qunsetenv("HF_TOKEN");
    qputenv("HEARTH_MODELS_DIR", m_downloads->path().toUtf8());
    return m_hub->endpoint().toString();
}

bool TestEnv::fileExists(const QString& path) const
{
    return QFileInfo(path).isFile();
}

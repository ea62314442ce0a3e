#include "TestEnv.h"

#include "chat/ChatController.h"

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

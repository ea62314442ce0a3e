#include "TestEnv.h"

#include "../app/DocumentCorpus.h"
#include "../app/FakeHub.h"
#include "../app/QuantizeFixture.h"
#include "WindowCapture.h"
#include "chat/ChatController.h"
#include "quantize/quant_policy.h"
#include "test_support.h"

#include <QFileInfo>

#include <QClipboard>
#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QQuickWindow>
#include <QTest>
#include <QWindow>

FakeEngine::Options TestEnv::engineOptions()
{
    FakeEngine::Options o;
    o.tokensPerSecond = 300;
    o.loadMs = 500; // slow enough to cancel
    return o;
}

// Documents use the real embedding model where it has been converted
// (scripts/convert-models); the document tests skip without it.
TestEnv::TestEnv(QObject* parent)
    : QObject(parent)
    , m_test(engineOptions(), /*highlight=*/true,
             QString::fromStdString(testsupport::findModel("all-MiniLM-L6-v2.F16.gguf")))
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

QString TestEnv::makeFolder(const QString& name) const
{
    const QString path = m_test.dir.filePath(name);
    QDir().mkpath(path);
    return path;
}

void TestEnv::keyClick(QObject* window, int key, int modifiers) const
{
    if (auto* w = qobject_cast<QWindow*>(window))
        QTest::keyClick(w, Qt::Key(key), Qt::KeyboardModifiers(modifiers));
}

bool TestEnv::activate(QObject* window) const
{
    auto* w = qobject_cast<QWindow*>(window);
    if (!w)
        return false;
    w->show();
    w->requestActivate();
    return QTest::qWaitForWindowActive(w);
}

QString TestEnv::outputPath(const QString& name) const
{
    return QDir::current().filePath(name);
}

bool TestEnv::imageLooksRendered(const QString& path) const
{
    return WindowCapture::looksRendered(QImage(path));
}

bool TestEnv::grabWindow(QObject* window, const QString& path) const
{
    auto* w = qobject_cast<QQuickWindow*>(window);
    return w && w->grabWindow().save(path);
}

QString TestEnv::writeModel(const QString& name, bool chatTemplate) const
{
    testsupport::TinyModel model;
    model.name = name.toStdString();
    model.chatTemplate = chatTemplate;
    const QString path = m_test.dir.filePath(name + QStringLiteral(".gguf"));
    return testsupport::writeTinyGguf(path.toStdString(), model) ? path : QString();
}

QString TestEnv::writeWeightsModel(const QString& name, const QString& title, int layers, const QString& weights) const
{
    testsupport::QuantizeModel model;
    model.name = title.toStdString();
    model.layers = static_cast<uint32_t>(layers);
    model.embd = 512;
    model.ff = 1024;
    const std::optional<hearth::quantize::Mix> mix = hearth::quantize::parseMix(weights.toStdString());
    if (!mix) {
        qWarning("writeWeightsModel: no type %s", qPrintable(weights));
        return {};
    }
    model.weights = hearth::quantize::mixInfo(*mix).defaultType;
    model.fileType = static_cast<uint32_t>(*mix);
    const QString path = m_test.dir.filePath(QStringLiteral("models/") + name + QStringLiteral(".gguf"));
    try {
        testsupport::writeQuantizeModel(path.toStdString(), model);
    } catch (const std::exception& e) {
        qWarning("writeWeightsModel: %s", e.what());
        return {};
    }
    return path;
}

double TestEnv::conversationId() const
{
    return double(m_test.session->chat()->conversationId());
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

QString TestEnv::writeDocuments(const QString& name) const
{
    const QString dir = makeFolder(name);
    corpus::writePdf(QDir(dir).filePath(QStringLiteral("town.pdf")), corpus::townPages());
    corpus::writeMarkdown(QDir(dir).filePath(QStringLiteral("garden.md")), QStringLiteral("Garden notes"),
                          corpus::gardenSections());
    return dir;
}

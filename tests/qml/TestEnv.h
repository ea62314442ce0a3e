// What the Qt Quick tests get from C++: a session of their own (temporary
// data folder, fake engine, a tiny model and a broken one). One per QML
// engine, i.e. per test file.
#pragma once

#include "../app/AppTestSupport.h"

#include <QObject>
#include <QTemporaryDir>

#include <memory>

class FakeHub;
#include <QtQml/qqmlregistration.h>

class TestEnv : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    Q_PROPERTY(AppSession* session READ session CONSTANT)
    Q_PROPERTY(QString modelPath READ modelPath CONSTANT)
    Q_PROPERTY(QString brokenModelPath READ brokenModelPath CONSTANT)

public:
    explicit TestEnv(QObject* parent = nullptr);

    AppSession* session() const { return m_test.session.get(); }
    QString modelPath() const { return m_test.modelPath; }
    QString brokenModelPath() const { return m_test.brokenPath; }

    // The messages of the open conversation as Markdown, for checks.
    Q_INVOKABLE QString lastMessageText() const;
    Q_INVOKABLE QString clipboardText() const;
    // The open conversation's id as a JavaScript number (QML's tooling has
    // no qint64).
    Q_INVOKABLE double conversationId() const;
    // Creates (if needed) a folder `name` in the test's temporary folder;
    // returns its path.
    Q_INVOKABLE QString makeFolder(const QString& name) const;
    // Writes a tiny model `name`.gguf into the test's folder, with or
    // without a chat template; returns its path.
    Q_INVOKABLE QString writeModel(const QString& name, bool chatTemplate) const;
    // Writes a llama-shaped model `name`.gguf (general.name `title`,
    // `layers` blocks of 512 wide, 2-D weights of type `weights`: "F16",
    // "Q8_0", ...) into the session's models folder, for the quantize
    // dialog; returns its path, "" if it cannot.
    Q_INVOKABLE QString writeWeightsModel(const QString& name, const QString& title, int layers,
                                          const QString& weights) const;
    // Key presses into another window than the test's own (TestCase's
    // keyClick only reaches its window): Main.qml's, in the Tab-order test.
    Q_INVOKABLE void keyClick(QObject* window, int key, int modifiers = 0) const;
    // A path in the test's working folder (the build folder), for images
    // a person may want to look at afterwards.
    Q_INVOKABLE QString outputPath(const QString& name) const;
    // Saves what `window` shows to `path` (PNG); false if it cannot.
    Q_INVOKABLE bool grabWindow(QObject* window, const QString& path) const;
    // Whether the PNG at `path` shows something (not one flat colour).
    Q_INVOKABLE bool imageLooksRendered(const QString& path) const;
    // Shows and activates `window`; true once it is active.
    Q_INVOKABLE bool activate(QObject* window) const;
    // Starts the fake Hugging Face hub (tests/app/fake_hub.py) and points
    // HF_ENDPOINT at it and HEARTH_MODELS_DIR at a fresh folder, for
    // HubBrowser objects made after; "" when python3 is missing.
    Q_INVOKABLE QString startFakeHub();
    Q_INVOKABLE QString downloadsDir() const { return m_downloads ? m_downloads->path() : QString(); }
    Q_INVOKABLE bool fileExists(const QString& path) const;
    // Writes a folder `name` of documents with a fact on each page or
    // section: town.pdf (3 pages: harbour, lighthouse, market) and
    // garden.md (roses, soil); returns its path.
    Q_INVOKABLE QString writeDocuments(const QString& name) const;

private:
    static FakeEngine::Options engineOptions();
    TestSession m_test;
    std::shared_ptr<FakeHub> m_hub;
    std::unique_ptr<QTemporaryDir> m_downloads;
};

// A whole app session for tests: a temporary data folder, a models folder
// with a tiny valid GGUF file (and a broken one), the fake engine at a fast
// rate. Header-only; used by the app tests and the Qt Quick test setup.
#pragma once

#include "AppSession.h"
#include "engine/FakeEngine.h"
#include "models/ModelLibrary.h"
#include "models/ModelLoader.h"
#include "tiny_gguf.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

struct TestSession {
    static FakeEngine::Options fastEngine()
    {
        FakeEngine::Options o;
        o.tokensPerSecond = 400;
        o.loadMs = 60;
        return o;
    }

    // `embeddingModel`: Documents' model ("" = none here, so the user's own
    // models folder is never touched).
    explicit TestSession(FakeEngine::Options engine = fastEngine(), bool highlight = false,
                         const QString& embeddingModel = {})
    {
        QDir(dir.path()).mkpath(QStringLiteral("models"));
        modelPath = dir.filePath(QStringLiteral("models/tiny.gguf"));
        testsupport::writeTinyGguf(modelPath.toStdString());
        brokenPath = dir.filePath(QStringLiteral("models/broken.gguf"));
        QFile broken(brokenPath);
        if (broken.open(QIODevice::WriteOnly))
            broken.write("GGUF but not really a model file");
        dataDir = dir.filePath(QStringLiteral("data"));
        {
            QSettings settings(dataDir + QStringLiteral("/settings.ini"), QSettings::IniFormat);
            settings.setValue(QStringLiteral("library/folders"), QStringList{dir.filePath(QStringLiteral("models"))});
        }
        AppSession::Options options;
        options.dataDir = dataDir;
        options.engine = std::make_shared<FakeEngine>(engine);
        options.scanModels = false;
        options.highlight = highlight;
        options.embeddingModel =
            embeddingModel.isEmpty() ? dir.filePath(QStringLiteral("models/no-embedding-model.gguf")) : embeddingModel;
        session = std::make_unique<AppSession>(options);
    }

    // Loads the tiny model the way a drop does; true once loaded.
    bool loadModel(int timeoutMs = 10000)
    {
        session->library()->openPath(modelPath);
        return QTest::qWaitFor([&] { return session->loader()->loaded(); }, timeoutMs);
    }

    QTemporaryDir dir;
    QString modelPath;
    QString brokenPath;
    QString dataDir;
    std::unique_ptr<AppSession> session;
};

#include "ModelPaths.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

namespace ModelPaths {

QString defaultModelsDir()
{
    const QString env = qEnvironmentVariable("HEARTH_MODELS_DIR");
    if (!env.isEmpty())
        return QDir::cleanPath(env);
#if defined(Q_OS_LINUX) || defined(Q_OS_FREEBSD)
    return QDir::cleanPath(xdgDataHome() + QStringLiteral("/hearth/models"));
#else
    return QDir::cleanPath(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
                           QStringLiteral("/Hearth/models"));
#endif
}

QString defaultModelFileName()
{
    return QStringLiteral("SmolLM2-135M-Instruct.Q4_1.gguf");
}

QString defaultModelPath()
{
    const QString path = defaultModelsDir() + QLatin1Char('/') + defaultModelFileName();
    return QFileInfo::exists(path) ? path : QString();
}

QString defaultEmbeddingModel()
{
    return QDir(defaultModelsDir()).filePath(QStringLiteral("all-MiniLM-L6-v2.F16.gguf"));
}

QString xdgDataHome()
{
    const QString base = qEnvironmentVariable("XDG_DATA_HOME");
    return base.isEmpty() ? QDir::homePath() + QStringLiteral("/.local/share") : base;
}

} // namespace ModelPaths

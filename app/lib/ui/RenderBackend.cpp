#include "ui/RenderBackend.h"

#include <QGuiApplication>
#include <QQuickWindow>
#include <QSGRendererInterface>

#if defined(Q_OS_LINUX) && QT_CONFIG(opengl)
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#endif

namespace RenderBackend {

#if defined(Q_OS_LINUX) && QT_CONFIG(opengl)
// The GL_RENDERER string of a throwaway context ("" when GL is unavailable).
static QString glRenderer()
{
    QOpenGLContext context;
    if (!context.create())
        return {};
    QOffscreenSurface surface;
    surface.setFormat(context.format());
    surface.create();
    if (!surface.isValid() || !context.makeCurrent(&surface))
        return {};
    const auto* name = reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
    const QString renderer = name ? QString::fromLatin1(name) : QString();
    context.doneCurrent();
    return renderer;
}
#endif

QString chooseForThisMachine()
{
    if (qEnvironmentVariableIsSet("QT_QUICK_BACKEND"))
        return QStringLiteral("as set by QT_QUICK_BACKEND");
    if (qEnvironmentVariableIsSet("QSG_RHI_BACKEND"))
        return QStringLiteral("as set by QSG_RHI_BACKEND");
#if defined(Q_OS_LINUX) && QT_CONFIG(opengl)
    const QString platform = QGuiApplication::platformName();
    if (platform != QLatin1String("xcb") && !platform.startsWith(QLatin1String("wayland")))
        return QStringLiteral("default");
    const QString renderer = glRenderer();
    static const char* software[] = {"llvmpipe", "softpipe", "swrast", "SwiftShader", "Software Rasterizer"};
    for (const char* s : software) {
        if (renderer.contains(QLatin1String(s), Qt::CaseInsensitive)) {
            QQuickWindow::setGraphicsApi(QSGRendererInterface::Software);
            return QStringLiteral("software (GL is %1)").arg(renderer);
        }
    }
    return renderer.isEmpty() ? QStringLiteral("default") : QStringLiteral("default (%1)").arg(renderer);
#else
    return QStringLiteral("default");
#endif
}

} // namespace RenderBackend

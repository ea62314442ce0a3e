// Picks Qt Quick's renderer for this machine before the first window. On
// Linux without a GPU driver, OpenGL is Mesa's llvmpipe, which rasterizes
// the whole window on the CPU every frame (10-40 ms for a chat window on a
// busy two-core machine); Qt Quick's software renderer repaints only what
// changed (a streamed token: the last paragraph) and stays well under a
// frame. So: software renderer when the GL renderer is a software one, the
// default otherwise. QT_QUICK_BACKEND / QSG_RHI_BACKEND set by the user win.
#pragma once

#include <QString>

namespace RenderBackend {

// Call after QGuiApplication exists and before any QQuickWindow; returns
// what it chose, for logs and benchmarks ("default", "software (llvmpipe)",
// "as set by QT_QUICK_BACKEND", ...).
QString chooseForThisMachine();

} // namespace RenderBackend

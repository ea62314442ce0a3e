// Screenshots of a QQuickWindow for tests, docs and `Hearth --screenshot`.
#pragma once

#include <QImage>
#include <QString>

#include <functional>

class QQuickWindow;

namespace WindowCapture {

// Saves a PNG of `window` once it has rendered a few frames (so that
// layouts and fonts have settled), then calls `done(ok, message)`.
void saveAfterFirstFrames(QQuickWindow* window, const QString& file, std::function<void(bool, const QString&)> done);

// True if the image has real content: more than `minColors` distinct colours
// and no single colour covering more than `maxShare` of the pixels.
bool looksRendered(const QImage& image, int minColors = 8, double maxShare = 0.98);

} // namespace WindowCapture

#include "WindowCapture.h"

#include <QHash>
#include <QQuickWindow>
#include <QTimer>

namespace WindowCapture {

void saveAfterFirstFrames(QQuickWindow* window, const QString& file, std::function<void(bool, const QString&)> done)
{
    auto frames = std::make_shared<int>(0);
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection =
        QObject::connect(window, &QQuickWindow::frameSwapped, window, [window, file, done, frames, connection] {
            if (++*frames < 3) {
                window->update(); // keep frames coming until the layout has settled
                return;
            }
            QObject::disconnect(*connection);
            // Grab from the event loop, not from inside the render pass.
            QTimer::singleShot(0, window, [window, file, done] {
                const QImage image = window->grabWindow();
                const bool ok = !image.isNull() && image.save(file, "PNG");
                done(ok, ok ? QStringLiteral("screenshot saved to %1").arg(file)
                            : QStringLiteral("could not save a screenshot to %1").arg(file));
            });
        });
    window->update();
}

bool looksRendered(const QImage& image, int minColors, double maxShare)
{
    if (image.isNull() || image.width() < 2 || image.height() < 2)
        return false;
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    QHash<QRgb, qint64> counts;
    const qint64 total = qint64(img.width()) * img.height();
    for (int y = 0; y < img.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        for (int x = 0; x < img.width(); ++x)
            ++counts[line[x]];
    }
    qint64 largest = 0;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        largest = std::max(largest, it.value());
    return counts.size() >= minColors && double(largest) / double(total) <= maxShare;
}

} // namespace WindowCapture

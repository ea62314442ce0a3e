#include "ui/Format.h"

#include <cmath>

namespace Format {

QString bytes(qint64 bytes)
{
    const double b = double(bytes);
    if (b >= 1e9)
        return QStringLiteral("%1 GB").arg(b / 1e9, 0, 'f', b >= 1e11 ? 0 : 1);
    if (b >= 1e6)
        return QStringLiteral("%1 MB").arg(std::round(b / 1e6));
    if (b >= 1e3)
        return QStringLiteral("%1 KB").arg(std::round(b / 1e3));
    return QStringLiteral("%1 B").arg(bytes);
}

QString count(qint64 n)
{
    const double v = double(n);
    if (v >= 1e9)
        return QStringLiteral("%1B").arg(v / 1e9, 0, 'f', v >= 1e10 ? 0 : 1);
    if (v >= 1e6)
        return QStringLiteral("%1M").arg(std::round(v / 1e6));
    if (v >= 1e3)
        return QStringLiteral("%1K").arg(std::round(v / 1e3));
    return QString::number(n);
}

QString rate(double perSecond)
{
    return QString::number(perSecond, 'f', perSecond >= 100 ? 0 : 1);
}

QString millis(double ms)
{
    if (ms < 0)
        return QStringLiteral("–");
    if (ms >= 1000)
        return QStringLiteral("%1 s").arg(ms / 1000, 0, 'f', 1);
    return QStringLiteral("%1 ms").arg(std::round(ms));
}

} // namespace Format

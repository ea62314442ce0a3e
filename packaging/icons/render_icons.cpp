// Renders resources/icons/hearth.svg at build time (Qt's SVG image plugin;
// no extra tool needed) into what each platform's packaging wants:
//
//   render_icons SVG OUTDIR SIZE...          OUTDIR/SIZExSIZE/apps/org.hearth.Hearth.png
//                                            (the hicolor icon theme, Linux)
//   render_icons --ico SVG FILE.ico SIZE...  one Windows icon holding every size
//                                            (PNG entries, at most 256 px)
//   render_icons --iconset SVG DIR.iconset   the macOS iconset iconutil turns
//                                            into an .icns (16 to 512 px, @2x too)

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QImageReader>
#include <QtEndian>

#include <cstdio>

namespace {

// The SVG at size x size, as PNG bytes; empty (after saying why) on failure.
QByteArray renderPng(const QString& svg, int size)
{
    QImageReader reader(svg);
    reader.setScaledSize(QSize(size, size));
    const QImage image = reader.read();
    QByteArray png;
    QBuffer buffer(&png);
    if (size <= 0 || image.isNull() || !buffer.open(QIODevice::WriteOnly) || !image.save(&buffer, "PNG")) {
        std::fprintf(stderr, "render_icons: cannot render %s at %d px: %s\n", qPrintable(svg), size,
                     qPrintable(reader.errorString()));
        return {};
    }
    return png;
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    if (!QDir().mkpath(QFileInfo(path).absolutePath()) || !f.open(QIODevice::WriteOnly) ||
        f.write(bytes) != bytes.size()) {
        std::fprintf(stderr, "render_icons: cannot write %s\n", qPrintable(path));
        return false;
    }
    return true;
}

template <typename T>
void put(QByteArray& out, T value)
{
    const T le = qToLittleEndian(value);
    out.append(reinterpret_cast<const char*>(&le), sizeof(le));
}

// ICO: a 6-byte header, one 16-byte entry per image, then the images (PNG
// inside an ICO is read by every Windows since Vista).
bool writeIco(const QString& svg, const QString& path, const QList<int>& sizes)
{
    QList<QByteArray> pngs;
    for (const int size : sizes) {
        if (size > 256) {
            std::fprintf(stderr, "render_icons: an .ico holds at most 256 px, not %d\n", size);
            return false;
        }
        pngs.append(renderPng(svg, size));
        if (pngs.last().isEmpty())
            return false;
    }
    QByteArray out;
    put<quint16>(out, 0);
    put<quint16>(out, 1); // an icon, not a cursor
    put<quint16>(out, static_cast<quint16>(sizes.size()));
    quint32 offset = 6 + 16 * static_cast<quint32>(sizes.size());
    for (qsizetype i = 0; i < sizes.size(); ++i) {
        const auto edge = static_cast<quint8>(sizes[i] == 256 ? 0 : sizes[i]); // 0 means 256
        put<quint8>(out, edge);
        put<quint8>(out, edge);
        put<quint8>(out, 0);   // no palette
        put<quint8>(out, 0);   // reserved
        put<quint16>(out, 1);  // colour planes
        put<quint16>(out, 32); // bits per pixel
        put<quint32>(out, static_cast<quint32>(pngs[i].size()));
        put<quint32>(out, offset);
        offset += static_cast<quint32>(pngs[i].size());
    }
    for (const QByteArray& png : pngs)
        out.append(png);
    return writeFile(path, out);
}

bool writeIconset(const QString& svg, const QString& dir)
{
    for (const int size : {16, 32, 128, 256, 512}) {
        const QString name = QStringLiteral("%1/icon_%2x%2").arg(dir).arg(size);
        const QByteArray one = renderPng(svg, size), two = renderPng(svg, 2 * size);
        if (one.isEmpty() || two.isEmpty() || !writeFile(name + QStringLiteral(".png"), one) ||
            !writeFile(name + QStringLiteral("@2x.png"), two))
            return false;
    }
    return true;
}

QList<int> sizesFrom(const QStringList& args, qsizetype first)
{
    QList<int> sizes;
    for (qsizetype i = first; i < args.size(); ++i)
        sizes.append(args[i].toInt());
    return sizes;
}

} // namespace

int main(int argc, char* argv[])
{
    QGuiApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() >= 5 && args[1] == QLatin1String("--ico"))
        return writeIco(args[2], args[3], sizesFrom(args, 4)) ? 0 : 1;
    if (args.size() == 4 && args[1] == QLatin1String("--iconset"))
        return writeIconset(args[2], args[3]) ? 0 : 1;
    if (args.size() < 4 || args[1].startsWith(QLatin1String("--"))) {
        std::fprintf(stderr, "usage: render_icons SVG OUTDIR SIZE...\n"
                             "       render_icons --ico SVG FILE.ico SIZE...\n"
                             "       render_icons --iconset SVG DIR.iconset\n");
        return 2;
    }
    for (const int size : sizesFrom(args, 3)) {
        const QByteArray png = renderPng(args[1], size);
        if (png.isEmpty() ||
            !writeFile(QStringLiteral("%1/%2x%2/apps/org.hearth.Hearth.png").arg(args[2]).arg(size), png))
            return 1;
    }
    return 0;
}

// Renders resources/icons/hearth.svg to the PNG sizes of the hicolor icon
// theme at build time (Qt's SVG image plugin; no extra tool needed).
//
//   render_icons SVG OUTDIR SIZE...    writes OUTDIR/SIZExSIZE/apps/org.hearth.Hearth.png

#include <QDir>
#include <QGuiApplication>
#include <QImageReader>

#include <cstdio>

int main(int argc, char* argv[])
{
    QGuiApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 4) {
        std::fprintf(stderr, "usage: render_icons SVG OUTDIR SIZE...\n");
        return 2;
    }
    for (qsizetype i = 3; i < args.size(); ++i) {
        const int size = args[i].toInt();
        QImageReader reader(args[1]);
        reader.setScaledSize(QSize(size, size));
        const QImage image = reader.read();
        const QString dir = QStringLiteral("%1/%2x%2/apps").arg(args[2]).arg(size);
        if (image.isNull() || !QDir().mkpath(dir) || !image.save(dir + QStringLiteral("/org.hearth.Hearth.png"))) {
            std::fprintf(stderr, "render_icons: cannot render %s at %d px: %s\n", qPrintable(args[1]), size,
                         qPrintable(reader.errorString()));
            return 1;
        }
    }
    return 0;
}

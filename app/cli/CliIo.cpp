#include "CliIo.h"

#include <cstdio>

#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

namespace cli {

bool stderrIsTerminal()
{
#ifdef _WIN32
    return _isatty(_fileno(stderr)) != 0;
#else
    return isatty(STDERR_FILENO) != 0;
#endif
}

void outBytes(const std::string& utf8)
{
    std::fwrite(utf8.data(), 1, utf8.size(), stdout);
}

void out(const QString& text)
{
    const QByteArray b = text.toUtf8();
    std::fwrite(b.constData(), 1, static_cast<size_t>(b.size()), stdout);
}

void outLine(const QString& text)
{
    out(text);
    std::fputc('\n', stdout);
}

void errLine(const QString& text)
{
    const QByteArray b = text.toUtf8();
    std::fwrite(b.constData(), 1, static_cast<size_t>(b.size()), stderr);
    std::fputc('\n', stderr);
}

bool parseArgs(QCommandLineParser& parser, const QStringList& args, int& exitCode)
{
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    parser.addOption(help);
    if (!parser.parse(args)) {
        errLine(args.value(0) + QStringLiteral(": ") + parser.errorText());
        errLine(QStringLiteral("Try '%1 --help'.").arg(args.value(0)));
        exitCode = 2;
        return false;
    }
    if (parser.isSet(help)) {
        // Qt names the executable path in the usage line; name the subcommand.
        QString text = parser.helpText();
        const qsizetype options = text.indexOf(QStringLiteral(" [options]"));
        if (text.startsWith(QStringLiteral("Usage: ")) && options > 0)
            text.replace(7, options - 7, args.value(0));
        out(text);
        exitCode = 0;
        return false;
    }
    return true;
}

} // namespace cli

// `hearth`: the engine without a window. `hearth --help` lists the commands.

#include "AppInfo.h"
#include "CliIo.h"
#include "Commands.h"
#include "EngineOptions.h"

#include <QCoreApplication>

namespace {

void printUsage()
{
    cli::outLine(QStringLiteral("Usage: hearth COMMAND [OPTIONS]\n\nCommands:"));
    for (const CliCommand& c : cliCommands())
        cli::outLine(
            QStringLiteral("  %1%2").arg(QString::fromLatin1(c.name), -14).arg(QString::fromLatin1(c.summary)));
    cli::outLine(QStringLiteral("\nRun 'hearth COMMAND --help' for a command's options."));
    cli::outLine(QStringLiteral("Other options: --list-devices (GPUs for -ngl), --version, --help"));
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("hearth"));
    QCoreApplication::setApplicationVersion(AppInfo::version());

    const QStringList args = QCoreApplication::arguments();
    if (args.size() < 2 || args[1] == QLatin1String("--help") || args[1] == QLatin1String("-h")) {
        printUsage();
        return args.size() < 2 ? 2 : 0;
    }
    if (args[1] == QLatin1String("--list-devices")) {
        cli::listDevices();
        return 0;
    }
    if (args[1] == QLatin1String("--version") || args[1] == QLatin1String("-v")) {
        cli::outLine(QStringLiteral("hearth %1").arg(AppInfo::version()));
        cli::outLine(QStringLiteral("cpu: %1").arg(AppInfo::cpuFeatures()));
        return 0;
    }
    for (const CliCommand& c : cliCommands()) {
        if (args[1] == QLatin1String(c.name)) {
            QStringList sub = args.mid(2);
            sub.prepend(QStringLiteral("hearth ") + args[1]);
            return c.run(sub);
        }
    }
    cli::errLine(QStringLiteral("hearth: unknown command '%1'").arg(args[1]));
    printUsage();
    return 2;
}

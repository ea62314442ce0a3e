// The subcommands of `hearth`. Each lives in its own file and is listed once
// in Commands.cpp.
#pragma once

#include <QStringList>

#include <span>

struct CliCommand {
    const char* name;
    const char* summary;
    // args[0] is "hearth NAME"; the rest are the command's own arguments.
    // Returns the process exit code.
    int (*run)(const QStringList& args);
};

std::span<const CliCommand> cliCommands();

int runInfo(const QStringList& args);
int runTokenize(const QStringList& args);   // TokenizeCommand.cpp
int runDetokenize(const QStringList& args); // TokenizeCommand.cpp
int runTemplate(const QStringList& args);
int runRun(const QStringList& args);        // RunCommand.cpp
int runChat(const QStringList& args);       // ChatCommand.cpp
int runPerplexity(const QStringList& args); // PerplexityCommand.cpp
int runBench(const QStringList& args);      // BenchCommand.cpp
int runConvert(const QStringList& args);    // ConvertCommand.cpp
int runQuantize(const QStringList& args);   // QuantizeCommand.cpp
int runPull(const QStringList& args);       // PullCommand.cpp
int runSearch(const QStringList& args);     // PullCommand.cpp
int runEmbed(const QStringList& args);      // EmbedCommand.cpp
int runDocs(const QStringList& args);       // DocsCommand.cpp
int runServe(const QStringList& args);      // ServeCommand.cpp

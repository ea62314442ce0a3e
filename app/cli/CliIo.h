// Output helpers for the CLI: UTF-8 to stdout/stderr without Qt's logging
// decorations, and the shared option handling of subcommands.
#pragma once

#include <QCommandLineParser>
#include <QString>

namespace cli {

void out(const QString& text);          // to stdout, as is
void outLine(const QString& text);      // to stdout, with a newline
void errLine(const QString& text);      // to stderr, with a newline
void outBytes(const std::string& utf8); // raw bytes to stdout
bool stderrIsTerminal();                // for progress lines that rewrite themselves

// Parses a subcommand's arguments. On --help prints help and returns 0 in
// `exitCode`; on an error prints it and returns 2. Returns true when the
// command should run.
bool parseArgs(QCommandLineParser& parser, const QStringList& args, int& exitCode);

} // namespace cli

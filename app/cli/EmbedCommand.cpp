// hearth embed -m FILE [--json] [-t N] [--batch N]
// One sentence embedding per line of stdin (UTF-8), computed by an encoder
// model (bert family): pooled as the file says and scaled to unit length.
// Text output: one line of space-separated floats per input line. JSON: see
// docs/cli.md ("model", "dimension", "pooling", "embeddings": [[...], ...]).

#include "CliIo.h"
#include "Commands.h"

#include "cpu/cpu_backend.h"
#include "runtime/embedder.h"
#include "util/error.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <string>
#include <vector>

using namespace hearth;

namespace {

std::vector<std::string> readLines()
{
    std::vector<std::string> lines;
    std::string data;
    char buffer[1 << 16];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, stdin)) > 0)
        data.append(buffer, n);
    size_t start = 0;
    while (start < data.size()) {
        size_t end = data.find('\n', start);
        if (end == std::string::npos)
            end = data.size();
        std::string line = data.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(std::move(line));
        start = end + 1;
    }
    return lines;
}

const char* poolingName(Pooling p)
{
    switch (p) {
    case Pooling::Mean: return "mean";
    case Pooling::Cls: return "cls";
    case Pooling::Last: return "last";
    }
    return "?";
}

} // namespace

int runEmbed(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Print a sentence embedding for every line of stdin (an encoder model such as bert)."));
    const QCommandLineOption model({QStringLiteral("m"), QStringLiteral("model")},
                                   QStringLiteral("GGUF embedding model."), QStringLiteral("FILE"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON (shape in docs/cli.md)."));
    const QCommandLineOption threads({QStringLiteral("t"), QStringLiteral("threads")},
                                     QStringLiteral("Threads (default: all cores)."), QStringLiteral("N"));
    const QCommandLineOption batch(QStringLiteral("batch"),
                                   QStringLiteral("Tokens per forward pass (default 2048; 1 line per pass: 0)."),
                                   QStringLiteral("N"));
    parser.addOptions({model, json, threads, batch});
    int exitCode = 0;
    if (!cli::parseArgs(parser, args, exitCode))
        return exitCode;
    if (!parser.isSet(model)) {
        cli::errLine(QStringLiteral("hearth embed: -m FILE is required"));
        return 2;
    }
    try {
        cpu::CpuBackend backend(parser.isSet(threads) ? parser.value(threads).toInt() : 0);
        EmbedderParams params;
        if (parser.isSet(batch))
            params.batchTokens = parser.value(batch).toLongLong();
        const std::string path = parser.value(model).toStdString();
        std::unique_ptr<Embedder> embedder = Embedder::open(path, backend, params);
        const std::vector<std::string> lines = readLines();
        std::vector<float> vectors;
        if (params.batchTokens <= 0) {
            // One pass per line (tests compare it with the batched result).
            for (const std::string& l : lines) {
                const std::vector<float> v = embedder->embed(std::span<const std::string>(&l, 1));
                vectors.insert(vectors.end(), v.begin(), v.end());
            }
        } else {
            vectors = embedder->embed(lines);
        }
        const auto dim = static_cast<size_t>(embedder->dimension());
        if (parser.isSet(json)) {
            QJsonArray all;
            for (size_t i = 0; i < lines.size(); ++i) {
                QJsonArray v;
                for (size_t d = 0; d < dim; ++d)
                    v.append(static_cast<double>(vectors[i * dim + d]));
                all.append(v);
            }
            QJsonObject o;
            o[QStringLiteral("model")] = parser.value(model);
            o[QStringLiteral("dimension")] = static_cast<qint64>(dim);
            o[QStringLiteral("pooling")] = QString::fromLatin1(poolingName(embedder->pooling()));
            o[QStringLiteral("embeddings")] = all;
            cli::outLine(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)));
        } else {
            for (size_t i = 0; i < lines.size(); ++i) {
                std::string line;
                char num[32];
                for (size_t d = 0; d < dim; ++d) {
                    std::snprintf(num, sizeof num, d ? " %.7g" : "%.7g", static_cast<double>(vectors[i * dim + d]));
                    line += num;
                }
                cli::outBytes(line + "\n");
            }
        }
        return 0;
    } catch (const std::exception& e) {
        cli::errLine(QStringLiteral("hearth embed: ") + QString::fromUtf8(e.what()));
        return 1;
    }
}

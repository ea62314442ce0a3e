// hearth info FILE [--json] [--tensors] [--metadata]
// The JSON shape is documented in docs/cli.md and kept stable.

#include "CliIo.h"
#include "Commands.h"

#include "gguf/gguf.h"
#include "gguf/model_info.h"
#include "util/error.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace hearth;

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

QString humanBytes(uint64_t bytes)
{
    const double b = static_cast<double>(bytes);
    if (b >= 1024.0 * 1024 * 1024)
        return QString::number(b / (1024.0 * 1024 * 1024), 'f', 2) + QStringLiteral(" GiB");
    if (b >= 1024.0 * 1024)
        return QString::number(b / (1024.0 * 1024), 'f', 2) + QStringLiteral(" MiB");
    if (b >= 1024.0)
        return QString::number(b / 1024.0, 'f', 2) + QStringLiteral(" KiB");
    return QString::number(bytes) + QStringLiteral(" B");
}

QString humanCount(int64_t n)
{
    if (n >= 1000000000)
        return QString::number(double(n) / 1e9, 'f', 2) + QStringLiteral(" B");
    if (n >= 1000000)
        return QString::number(double(n) / 1e6, 'f', 2) + QStringLiteral(" M");
    return QString::number(n);
}

QJsonValue metadataJson(const gguf::Value& v)
{
    using gguf::ValueType;
    switch (v.type()) {
    case ValueType::String: return qs(*v.toString());
    case ValueType::Bool: return *v.toBool();
    case ValueType::Float32:
    case ValueType::Float64: return *v.toFloat();
    case ValueType::Array: {
        QJsonObject o;
        o[QStringLiteral("type")] = QStringLiteral("array");
        o[QStringLiteral("element_type")] = qs(gguf::valueTypeName(v.elementType()));
        o[QStringLiteral("length")] = static_cast<qint64>(v.size());
        return o;
    }
    default:
        if (const auto i = v.toInt())
            return static_cast<qint64>(*i);
        return *v.toFloat();
    }
}

QJsonArray shapeJson(const gguf::TensorInfo& t)
{
    QJsonArray shape;
    for (int d = 0; d < std::max(t.nDims, 1); ++d)
        shape.append(static_cast<qint64>(t.ne[d]));
    return shape;
}

QJsonObject infoJson(const gguf::File& file, const gguf::ModelInfo& info, bool tensors, bool metadata)
{
    QJsonObject o;
    o[QStringLiteral("file")] = QString::fromStdString(info.path);
    o[QStringLiteral("file_size")] = static_cast<qint64>(info.fileSize);
    o[QStringLiteral("gguf_version")] = static_cast<int>(info.version);
    o[QStringLiteral("splits")] = static_cast<int>(info.splitCount);
    o[QStringLiteral("architecture")] = QString::fromStdString(info.architecture);
    o[QStringLiteral("name")] = QString::fromStdString(info.name);
    o[QStringLiteral("file_type")] = QString::fromStdString(info.quantLabel());
    o[QStringLiteral("parameters")] = static_cast<qint64>(info.parameters);
    o[QStringLiteral("tensor_count")] = static_cast<qint64>(info.tensorCount);
    o[QStringLiteral("tensor_bytes")] = static_cast<qint64>(info.tensorBytes);
    QJsonArray mix;
    for (const gguf::TypeUsage& u : info.typeMix) {
        QJsonObject m;
        m[QStringLiteral("type")] = qs(typeTraits(u.type).name);
        m[QStringLiteral("tensors")] = static_cast<qint64>(u.tensors);
        m[QStringLiteral("bytes")] = static_cast<qint64>(u.bytes);
        mix.append(m);
    }
    o[QStringLiteral("type_mix")] = mix;
    o[QStringLiteral("context_length")] = static_cast<qint64>(info.contextLength);
    o[QStringLiteral("embedding_length")] = static_cast<qint64>(info.embeddingLength);
    o[QStringLiteral("block_count")] = static_cast<qint64>(info.blockCount);
    o[QStringLiteral("head_count")] = static_cast<qint64>(info.headCount);
    o[QStringLiteral("head_count_kv")] = static_cast<qint64>(info.headCountKv);
    o[QStringLiteral("feed_forward_length")] = static_cast<qint64>(info.feedForwardLength);
    o[QStringLiteral("vocab_size")] = static_cast<qint64>(info.vocabSize);
    o[QStringLiteral("tokenizer_model")] = QString::fromStdString(info.tokenizerModel);
    o[QStringLiteral("tokenizer_pre")] = QString::fromStdString(info.tokenizerPre);
    o[QStringLiteral("has_chat_template")] = info.hasChatTemplate;
    if (metadata) {
        QJsonObject md;
        for (const gguf::KeyValue& kv : file.metadata())
            md[qs(kv.key)] = metadataJson(kv.value);
        o[QStringLiteral("metadata")] = md;
    }
    if (tensors) {
        QJsonArray list;
        for (const gguf::TensorInfo& t : file.tensors()) {
            QJsonObject j;
            j[QStringLiteral("name")] = qs(t.name);
            j[QStringLiteral("type")] = qs(typeTraits(t.type).name);
            j[QStringLiteral("shape")] = shapeJson(t);
            j[QStringLiteral("offset")] = static_cast<qint64>(t.offset);
            j[QStringLiteral("bytes")] = static_cast<qint64>(t.bytes);
            if (file.splitCount() > 1)
                j[QStringLiteral("split")] = t.split;
            list.append(j);
        }
        o[QStringLiteral("tensors")] = list;
    }
    return o;
}

void printText(const gguf::File& file, const gguf::ModelInfo& info, bool tensors, bool metadata)
{
    const auto row = [](const QString& k, const QString& v) {
        cli::outLine(QStringLiteral("%1 %2").arg(k + QLatin1Char(':'), -22).arg(v));
    };
    row(QStringLiteral("file"), QString::fromStdString(info.path));
    row(QStringLiteral("file size"), humanBytes(info.fileSize) + QStringLiteral(" (%1 bytes)").arg(info.fileSize));
    row(QStringLiteral("gguf version"), QString::number(info.version));
    if (info.splitCount > 1)
        row(QStringLiteral("splits"), QString::number(info.splitCount));
    row(QStringLiteral("architecture"), QString::fromStdString(info.architecture));
    row(QStringLiteral("name"), QString::fromStdString(info.name));
    row(QStringLiteral("file type"), QString::fromStdString(info.quantLabel()));
    row(QStringLiteral("parameters"), humanCount(info.parameters) + QStringLiteral(" (%1)").arg(info.parameters));
    QStringList mix;
    for (const gguf::TypeUsage& u : info.typeMix)
        mix << QStringLiteral("%1: %2 tensors, %3")
                   .arg(qs(typeTraits(u.type).name))
                   .arg(u.tensors)
                   .arg(humanBytes(u.bytes));
    row(QStringLiteral("type mix"), mix.join(QStringLiteral("; ")));
    row(QStringLiteral("context length"), QString::number(info.contextLength));
    row(QStringLiteral("embedding length"), QString::number(info.embeddingLength));
    row(QStringLiteral("layers"), QString::number(info.blockCount));
    row(QStringLiteral("heads / kv heads"), QStringLiteral("%1 / %2").arg(info.headCount).arg(info.headCountKv));
    row(QStringLiteral("feed forward length"), QString::number(info.feedForwardLength));
    row(QStringLiteral("vocab size"), QString::number(info.vocabSize));
    row(QStringLiteral("tokenizer"),
        QString::fromStdString(info.tokenizerModel) +
            (info.tokenizerPre.empty() ? QString()
                                       : QStringLiteral(" (pre: %1)").arg(QString::fromStdString(info.tokenizerPre))));
    row(QStringLiteral("chat template"), info.hasChatTemplate ? QStringLiteral("yes") : QStringLiteral("no"));
    row(QStringLiteral("tensors"), QString::number(info.tensorCount));
    if (metadata) {
        cli::outLine(QStringLiteral("\nmetadata:"));
        for (const gguf::KeyValue& kv : file.metadata())
            cli::outLine(
                QStringLiteral("  %1 = %2").arg(qs(kv.key), QString::fromStdString(kv.value.toDisplayString())));
    }
    if (tensors) {
        cli::outLine(QStringLiteral("\n%1 %2 %3 %4")
                         .arg(QStringLiteral("name"), -40)
                         .arg(QStringLiteral("type"), -8)
                         .arg(QStringLiteral("shape"), -24)
                         .arg(QStringLiteral("offset")));
        for (const gguf::TensorInfo& t : file.tensors()) {
            QStringList dims;
            for (int d = 0; d < std::max(t.nDims, 1); ++d)
                dims << QString::number(t.ne[d]);
            cli::outLine(QStringLiteral("%1 %2 %3 %4")
                             .arg(qs(t.name), -40)
                             .arg(qs(typeTraits(t.type).name), -8)
                             .arg(dims.join(QStringLiteral(" x ")), -24)
                             .arg(t.offset));
        }
    }
}

} // namespace

int runInfo(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Show a GGUF model's metadata and tensors (reads the header only)."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON (shape in docs/cli.md)."));
    const QCommandLineOption tensors(QStringLiteral("tensors"),
                                     QStringLiteral("List every tensor: name, type, shape, offset."));
    const QCommandLineOption metadata(QStringLiteral("metadata"), QStringLiteral("List every metadata key and value."));
    parser.addOptions({json, tensors, metadata});
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A .gguf model file."));
    int code = 0;
    if (!cli::parseArgs(parser, args, code))
        return code;
    if (parser.positionalArguments().size() != 1) {
        cli::errLine(QStringLiteral("%1: expected one FILE (see --help)").arg(args[0]));
        return 2;
    }
    try {
        const gguf::File file(parser.positionalArguments().constFirst().toStdString());
        const gguf::ModelInfo info = gguf::summarize(file);
        if (parser.isSet(json)) {
            const QJsonObject o = infoJson(file, info, parser.isSet(tensors), parser.isSet(metadata));
            cli::out(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
        } else {
            printText(file, info, parser.isSet(tensors), parser.isSet(metadata));
        }
    } catch (const hearth::Error& e) {
        cli::errLine(QStringLiteral("hearth info: ") + QString::fromUtf8(e.what()));
        return 1;
    }
    return 0;
}

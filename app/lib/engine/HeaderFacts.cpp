#include "engine/HeaderFacts.h"

#include "gauges/SystemMemory.h"
#include "gguf/gguf.h"
#include "gguf/model_info.h"
#include "gguf/split_name.h"
#include "util/error.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

namespace HeaderFacts {

hearth::gguf::ModelInfo readHeader(const QString& path)
{
    const QFileInfo fi(path);
    if (!fi.exists())
        throw EngineError(QCoreApplication::translate("HeaderFacts", "The file %1 does not exist.").arg(path));
    if (!fi.isFile())
        throw EngineError(QCoreApplication::translate("HeaderFacts", "%1 is not a file.").arg(path));
    try {
        const hearth::gguf::File file(path.toStdString());
        hearth::gguf::ModelInfo info = hearth::gguf::summarize(file);
        if (info.architecture.empty())
            throw EngineError(QCoreApplication::translate("HeaderFacts",
                                                          "%1 is a GGUF file but names no model architecture "
                                                          "(general.architecture is missing).")
                                  .arg(fi.fileName()));
        if (info.tensorCount == 0)
            throw EngineError(QCoreApplication::translate("HeaderFacts", "%1 holds no tensors.").arg(fi.fileName()));
        return info;
    } catch (const hearth::Error& e) {
        throw EngineError(QCoreApplication::translate("HeaderFacts", "%1 is not a valid model: %2")
                              .arg(fi.fileName(), QString::fromStdString(e.what())));
    }
}

int effectiveContext(const hearth::gguf::ModelInfo& info, int requested)
{
    const int trained = int(std::min<int64_t>(info.contextLength, 1 << 30));
    if (requested <= 0)
        return trained > 0 ? trained : 4096;
    return trained > 0 ? std::min(requested, trained) : requested;
}

MemoryFigures memoryFor(const hearth::gguf::ModelInfo& info, int contextSize)
{
    const qint64 ctx = effectiveContext(info, contextSize);
    const qint64 heads = std::max<int64_t>(info.headCount, 1);
    const qint64 headDim = info.embeddingLength / heads;
    const qint64 kvWidth = std::max<int64_t>(info.headCountKv, 1) * headDim;
    MemoryFigures m;
    m.weightsMapped = qint64(info.tensorBytes);
    m.weightsResident = qint64(info.tensorBytes);
    m.kvCache = 2 * qint64(info.blockCount) * ctx * kvWidth * 2;
    const qint64 batch = 512;
    const qint64 ffn = std::max<int64_t>(info.feedForwardLength, info.embeddingLength);
    m.scratch = batch * (4 * info.embeddingLength + 2 * ffn) * 4 + qint64(info.vocabSize) * 4;
    return m;
}

FitEstimate estimateFor(const hearth::gguf::ModelInfo& info, int contextSize)
{
    FitEstimate e;
    e.requiredBytes = memoryFor(info, contextSize).total();
    e.availableBytes = SystemMemory::availableBytes();
    return e;
}

// The file name without what says how it is stored: the extension, a split
// part (-00001-of-00003), a quant (.Q4_1, -Q4_K_M, -f16) and a "-GGUF".
static QString clearFileName(const QString& path)
{
    QString name = QFileInfo(path).fileName();
    if (const std::optional<hearth::gguf::SplitName> split = hearth::gguf::parseSplitName(name.toStdString()))
        name = QString::fromStdString(split->stem);
    static const QRegularExpression tails[] = {
        QRegularExpression(QStringLiteral("\\.gguf$"), QRegularExpression::CaseInsensitiveOption),
        QRegularExpression(QStringLiteral("[._-](i?q\\d+(_[a-z0-9]+)*|f16|f32|bf16)$"),
                           QRegularExpression::CaseInsensitiveOption),
        QRegularExpression(QStringLiteral("[._-]gguf$"), QRegularExpression::CaseInsensitiveOption),
    };
    for (const QRegularExpression& tail : tails)
        name.remove(tail);
    return name;
}

// Letters and digits only, lower case: "SmolLM2-135M" -> "smollm2135m".
static QString folded(const QString& s)
{
    QString out;
    for (const QChar c : s)
        if (c.isLetterOrNumber())
            out.append(c.toLower());
    return out;
}

QString displayName(const hearth::gguf::ModelInfo& info)
{
    const QString file = clearFileName(QString::fromStdString(info.path));
    const QString general = QString::fromStdString(info.name).simplified();
    // The file's own parts, as the converters write them.
    QStringList parts;
    for (const std::string* part : {&info.baseName, &info.sizeLabel, &info.finetune})
        if (!part->empty())
            parts.append(QString::fromStdString(*part).simplified());
    const QString fromParts = parts.join(QLatin1Char(' '));

    static const QRegularExpression generic(QStringLiteral("^(ggml[-_]?)?(model|weights|unnamed)?$"),
                                            QRegularExpression::CaseInsensitiveOption);
    const bool fileIsGeneric = folded(file).size() < 3 || generic.match(file).hasMatch();
    const auto agrees = [&](const QString& name) {
        const QString a = folded(name);
        const QString b = folded(file);
        return !a.isEmpty() && (a.contains(b) || b.contains(a));
    };
    if (fileIsGeneric)
        return !fromParts.isEmpty() ? fromParts : !general.isEmpty() ? general : QFileInfo(file).fileName();
    // general.name or the parts when they say the same as the file (they
    // are spelled better), else the file's name: what the user chose.
    if (!general.isEmpty() && agrees(general))
        return general;
    if (!fromParts.isEmpty() && agrees(fromParts))
        return fromParts;
    return file.contains(QLatin1Char(' ')) ? file : QString(file).replace(QLatin1Char('_'), QLatin1Char(' '));
}

ModelFacts factsFrom(const hearth::gguf::ModelInfo& info, int contextSize)
{
    ModelFacts f;
    f.path = QString::fromStdString(info.path);
    f.name = displayName(info);
    f.architecture = QString::fromStdString(info.architecture);
    f.quant = QString::fromStdString(info.quantLabel());
    f.parameters = info.parameters;
    f.fileSize = qint64(info.fileSize);
    f.trainedContext = int(std::min<int64_t>(info.contextLength, 1 << 30));
    f.contextSize = effectiveContext(info, contextSize);
    f.chatTemplate = info.hasChatTemplate ? QStringLiteral("file") : QStringLiteral("chatml");
    f.memory = memoryFor(info, contextSize);
    return f;
}

} // namespace HeaderFacts

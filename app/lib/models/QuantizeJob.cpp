#include "models/QuantizeJob.h"

#include "gguf/split_name.h"
#include "models/ModelLibrary.h"
#include "quantize/quantizer.h"
#include "ui/Format.h"
#include "util/error.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStorageInfo>

#include <algorithm>
#include <thread>

using namespace hearth;

struct QuantizeJob::Outcome {
    QString path; // the written file ("" unless it succeeded)
    qint64 bytes = 0;
    QString error; // "" unless it failed
    bool cancelled = false;
};

namespace {

constexpr int kProgressIntervalMs = 50; // at most ~20 progress updates a second

QString nameOf(const quantize::MixInfo& m)
{
    return QString::fromLatin1(m.name.data(), static_cast<qsizetype>(m.name.size()));
}

// The bytes of a model on disk: every part of a split one (NAME-00001-of-0000N.gguf).
qint64 modelBytes(const QFileInfo& first)
{
    const std::optional<hearth::gguf::SplitName> split =
        hearth::gguf::parseSplitName(first.absoluteFilePath().toStdString());
    if (!split || split->part != 1)
        return first.size();
    qint64 bytes = 0;
    for (int part = 1; part <= split->count; ++part)
        bytes += QFileInfo(QString::fromStdString(hearth::gguf::splitPartPath(*split, part))).size();
    return bytes;
}

// One mix planned for `path` (of `fileSize` bytes): the estimated size, and
// whether it needs requantizing or changes nothing. `quantized` becomes true
// when a tensor of the source is quantized.
QVariantMap planOne(const QString& path, const quantize::MixInfo& mix, qint64 fileSize, bool& quantized)
{
    QVariantMap t{{QStringLiteral("name"), nameOf(mix)}, {QStringLiteral("reason"), QString()}};
    quantize::QuantizeOptions o;
    o.input = path.toStdString();
    o.mix = mix.mix;
    o.allowRequantize = true; // to size it; start() asks before it does so
    try {
        const quantize::QuantizeResult r = quantize::planQuantize(o);
        bool requantize = false, changes = false;
        for (const quantize::TensorReport& tr : r.tensors) {
            changes = changes || tr.from != tr.to;
            requantize = requantize || (tr.from != tr.to && typeTraits(tr.from).quantized);
            quantized = quantized || typeTraits(tr.from).quantized;
        }
        // The header and alignment stay about as they are: the file's bytes beyond its tensor data.
        const qint64 bytes = fileSize - static_cast<qint64>(r.bytesIn) + static_cast<qint64>(r.bytesOut);
        t[QStringLiteral("fileBytes")] = double(bytes);
        t[QStringLiteral("sizeText")] = Format::bytes(bytes);
        t[QStringLiteral("tensorBytes")] = double(r.bytesOut);
        t[QStringLiteral("bpw")] = r.bpwOut();
        t[QStringLiteral("bpwText")] = QString::number(r.bpwOut(), 'f', 2);
        t[QStringLiteral("fallbacks")] = int(r.fallbacks);
        t[QStringLiteral("requantize")] = requantize;
        t[QStringLiteral("available")] = changes;
        if (!changes)
            t.insert(QStringLiteral("reason"), QuantizeJob::tr("The file is already %1.").arg(nameOf(mix)));
        else if (requantize)
            t.insert(QStringLiteral("reason"),
                     QuantizeJob::tr("Requantizes weights that are already quantized: the result is lower quality "
                                     "than quantizing from an F16 or BF16 file."));
    } catch (const std::exception& e) {
        t[QStringLiteral("available")] = false;
        t[QStringLiteral("requantize")] = false;
        t[QStringLiteral("reason")] = QString::fromUtf8(e.what());
    }
    return t;
}

bool isMixName(const QString& s)
{
    return s.contains(QRegularExpression(QStringLiteral("[A-Za-z]"))) &&
           quantize::parseMix(s.toStdString()).has_value();
}

// All cores but one, which stays for the window and a chat meanwhile.
int workerThreads()
{
    const unsigned n = std::thread::hardware_concurrency();
    return n > 1 ? static_cast<int>(n - 1) : 1;
}

} // namespace

QuantizeJob::QuantizeJob(QObject* parent) : QObject(parent)
{
    m_worker = new QObject;
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.setObjectName(QStringLiteral("hearth-quantize"));
    m_thread.start(QThread::LowPriority);
}

QuantizeJob::~QuantizeJob()
{
    m_cancel.store(true);
    m_thread.quit();
    m_thread.wait();
}

ModelLibrary* QuantizeJob::library() const
{
    return m_library.data();
}

void QuantizeJob::setLibrary(ModelLibrary* library)
{
    if (library != m_library) {
        m_library = library;
        emit libraryChanged();
    }
}

void QuantizeJob::setSource(const QString& source)
{
    if (source == m_source || m_state == Running)
        return;
    m_source = source;
    emit sourceChanged();
    m_types.clear();
    m_sourceQuantized = false;
    emit typesChanged();
    m_resultPath.clear();
    if (m_source.isEmpty())
        setState(Idle);
    else
        estimate();
}

void QuantizeJob::setOutputFolder(const QString& folder)
{
    if (folder != m_outputFolder) {
        m_outputFolder = folder;
        emit outputFolderChanged();
    }
}

QString QuantizeJob::folder() const
{
    return m_outputFolder.isEmpty() ? QFileInfo(m_source).absolutePath() : m_outputFolder;
}

void QuantizeJob::setState(State state, const QString& error, const QString& message)
{
    m_state = state;
    m_error = error;
    m_message = message;
    emit stateChanged();
}

bool QuantizeJob::refuse(const QString& error)
{
    m_error = error;
    m_message.clear();
    emit stateChanged();
    return false;
}

void QuantizeJob::estimate()
{
    const int serial = ++m_serial;
    m_cancel.store(false);
    setState(Estimating);
    QMetaObject::invokeMethod(m_worker, [this, serial, path = m_source] {
        QVariantList types;
        bool quantized = false;
        QString error;
        const QFileInfo info(path);
        if (!info.isFile()) {
            error = tr("%1 is not a file.").arg(path);
        } else {
            // Headers only: a few milliseconds per mix, even for a large model.
            const qint64 bytes = modelBytes(info);
            for (const quantize::MixInfo& mix : quantize::allMixes())
                types.append(planOne(path, mix, bytes, quantized));
            // A file the reader rejects fails every plan the same way: say it once.
            const bool none = std::none_of(types.cbegin(), types.cend(), [](const QVariant& t) {
                return t.toMap().contains(QStringLiteral("fileBytes"));
            });
            if (none && !types.isEmpty())
                error = types.first().toMap().value(QStringLiteral("reason")).toString();
        }
        QMetaObject::invokeMethod(this, [=, this] { onEstimated(serial, types, quantized, error); });
    });
}

void QuantizeJob::onEstimated(int serial, const QVariantList& types, bool quantized, const QString& error)
{
    if (serial != m_serial)
        return;
    m_types = error.isEmpty() ? types : QVariantList{};
    m_sourceQuantized = quantized;
    emit typesChanged();
    if (error.isEmpty())
        setState(Ready);
    else
        setState(Failed, tr("Cannot quantize %1: %2").arg(QFileInfo(m_source).fileName(), error));
}

int QuantizeJob::recommended() const
{
    int first = -1;
    for (int i = 0; i < m_types.size(); ++i) {
        const QVariantMap t = m_types[i].toMap();
        if (!t.value(QStringLiteral("available")).toBool())
            continue;
        if (t.value(QStringLiteral("name")).toString() == nameOf(quantize::mixInfo(quantize::Mix::Q4_K_M)))
            return i;
        if (first < 0)
            first = i;
    }
    return first;
}

QVariantMap QuantizeJob::typeInfo(const QString& name) const
{
    for (const QVariant& t : m_types)
        if (t.toMap().value(QStringLiteral("name")).toString() == name)
            return t.toMap();
    return {};
}

QString QuantizeJob::baseName(const QString& fileName)
{
    QString base = fileName;
    if (const std::optional<hearth::gguf::SplitName> split = hearth::gguf::parseSplitName(fileName.toStdString()))
        base = QString::fromStdString(split->stem);
    else if (base.endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive))
        base.chop(5);
    // The longest trailing "<sep><mix>": "-q4_k_m", not just "_m".
    for (qsizetype i = 1; i < base.size(); ++i) {
        const QChar c = base.at(i);
        if ((c == QLatin1Char('.') || c == QLatin1Char('-') || c == QLatin1Char('_')) && isMixName(base.mid(i + 1)))
            return base.left(i);
    }
    return base;
}

QString QuantizeJob::outputPathFor(const QString& type) const
{
    if (m_source.isEmpty() || type.isEmpty())
        return {};
    const QDir dir(folder());
    const QString stem = baseName(QFileInfo(m_source).fileName()) + QLatin1Char('.') + type;
    for (int n = 1; n < 1000; ++n) {
        const QString path =
            dir.filePath(n == 1 ? stem + QStringLiteral(".gguf") : QStringLiteral("%1-%2.gguf").arg(stem).arg(n));
        // A .tmp is another run's file in the making.
        if (!QFileInfo::exists(path) && !QFileInfo::exists(path + QStringLiteral(".tmp")))
            return path;
    }
    return {};
}

bool QuantizeJob::start(const QString& type, bool allowRequantize)
{
    if (busy())
        return refuse(tr("A quantization is already running."));
    const QVariantMap t = typeInfo(type);
    if (t.isEmpty())
        return refuse(m_types.isEmpty() ? tr("Choose a model to quantize first.")
                                        : tr("%1 is not a type Hearth can quantize to.").arg(type));
    if (!t.value(QStringLiteral("available")).toBool())
        return refuse(tr("Cannot quantize to %1: %2").arg(type, t.value(QStringLiteral("reason")).toString()));
    if (t.value(QStringLiteral("requantize")).toBool() && !allowRequantize)
        return refuse(tr("%1 is already quantized: allow requantizing to convert it to %2 (lower quality than "
                         "quantizing from F16 or BF16).")
                          .arg(QFileInfo(m_source).fileName(), type));
    const QString dir = folder();
    const QFileInfo dirInfo(dir);
    if (!dirInfo.isDir())
        return refuse(tr("Cannot write the quantized model: %1 is not a folder.").arg(dir));
    if (!dirInfo.isWritable())
        return refuse(tr("Cannot write the quantized model: the folder %1 is read-only.").arg(dir));
    const qint64 need = qint64(t.value(QStringLiteral("fileBytes")).toDouble());
    const qint64 free = m_freeSpace ? m_freeSpace(dir) : QStorageInfo(dir).bytesAvailable();
    if (free >= 0 && need > free)
        return refuse(tr("Not enough disk space for the %1 file: it needs about %2, and %3 is free in %4.")
                          .arg(type, Format::bytes(need), Format::bytes(free), dir));
    const QString out = outputPathFor(type);
    if (out.isEmpty())
        return refuse(tr("No free file name for the %1 file in %2.").arg(type, dir));

    quantize::QuantizeOptions o;
    o.input = m_source.toStdString();
    o.output = out.toStdString();
    o.mix = *quantize::parseMix(type.toStdString());
    o.allowRequantize = allowRequantize;
    o.threads = workerThreads();
    o.cancel = &m_cancel;
    m_cancel.store(false);
    m_runningType = type;
    m_resultPath.clear();
    onProgress(0, 0, 0, qint64(t.value(QStringLiteral("tensorBytes")).toDouble()));
    setState(Running);
    QMetaObject::invokeMethod(m_worker, [this, options = o, observer = m_observer] {
        quantize::QuantizeOptions o = options;
        QElapsedTimer clock;
        clock.start();
        qint64 last = -kProgressIntervalMs;
        o.progress = [&](const quantize::QuantizeProgress& p) {
            if (observer)
                observer(p.tensor, p.tensors);
            if (p.current && clock.elapsed() - last < kProgressIntervalMs)
                return;
            last = clock.elapsed();
            QMetaObject::invokeMethod(
                this, [this, tensor = int(p.tensor), tensors = int(p.tensors), done = qint64(p.bytesDone),
                       total = qint64(p.bytesTotal)] { onProgress(tensor, tensors, done, total); });
        };
        Outcome r;
        try {
            r.bytes = static_cast<qint64>(quantize::quantizeModel(o).fileBytes);
            r.path = QString::fromStdString(o.output.string());
        } catch (const hearth::Cancelled&) {
            r.cancelled = true;
        } catch (const std::exception& e) {
            r.error = QString::fromUtf8(e.what());
        }
        QMetaObject::invokeMethod(this, [this, r] { onFinished(r); });
    });
    return true;
}

void QuantizeJob::cancel()
{
    m_cancel.store(true);
}

void QuantizeJob::onProgress(int tensor, int tensors, qint64 done, qint64 total)
{
    m_tensor = tensor;
    m_tensors = tensors;
    m_progress = total > 0 ? double(done) / double(total) : 0.0;
    m_progressText = tensors > 0 ? tr("Tensor %1 of %2 · %3 of %4 · %5%")
                                       .arg(std::min(tensor + 1, tensors))
                                       .arg(tensors)
                                       .arg(Format::bytes(done), Format::bytes(total))
                                       .arg(int(m_progress * 100))
                                 : tr("Starting…");
    emit progressChanged();
}

void QuantizeJob::onFinished(const Outcome& outcome)
{
    if (outcome.cancelled) {
        setState(Cancelled, {}, tr("Cancelled; nothing was written."));
    } else if (!outcome.error.isEmpty()) {
        setState(Failed, tr("Quantizing to %1 failed: %2").arg(m_runningType, outcome.error));
    } else {
        m_resultPath = outcome.path;
        if (m_library)
            m_library->addFile(outcome.path);
        setState(Done, {},
                 tr("Wrote %1 (%2); it is in the models list.")
                     .arg(QFileInfo(outcome.path).fileName(), Format::bytes(outcome.bytes)));
    }
    emit finished();
}

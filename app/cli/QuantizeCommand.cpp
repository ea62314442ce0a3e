// hearth quantize IN.gguf OUT.gguf TYPE [--allow-requantize]
//     [--leave-output-tensor] [--pure] [--threads N] [--dry-run]
// Re-encodes a GGUF model's weights in one of llama.cpp's quantization mixes
// with llama-quantize's per-tensor types and bytes (core/quantize). One line
// per tensor and the size summary go to stdout, a progress line to stderr on
// a terminal; Ctrl+C stops and leaves no output file.

#include "CliIo.h"
#include "Commands.h"
#include "EngineOptions.h"

#include "quantize/quantizer.h"
#include "util/error.h"

#include <cstdio>

using namespace hearth;

namespace {

QString mib(uint64_t bytes)
{
    return QString::number(static_cast<double>(bytes) / (1024.0 * 1024.0), 'f', 2);
}

QString shapeText(const std::array<int64_t, 4>& ne)
{
    return QStringLiteral("[%1, %2, %3, %4]").arg(ne[0]).arg(ne[1]).arg(ne[2]).arg(ne[3]);
}

QString typeName(GgmlType t)
{
    return QString::fromUtf8(typeTraits(t).name.data(), static_cast<qsizetype>(typeTraits(t).name.size()));
}

QString tensorLine(size_t index, size_t count, const quantize::TensorReport& t)
{
    QString line = QStringLiteral("[%1/%2] %3 - %4, type = %5, ")
                       .arg(index + 1, 4)
                       .arg(count, 4)
                       .arg(QString::fromStdString(t.name), -36)
                       .arg(shapeText(t.ne))
                       .arg(typeName(t.from), 6);
    if (t.from == t.to)
        return line + QStringLiteral("size = %1 MiB").arg(mib(t.bytesIn), 8);
    return line + QStringLiteral("converting to %1%2 .. size = %3 MiB -> %4 MiB")
                      .arg(typeName(t.to))
                      .arg(t.fallback ? QStringLiteral(" (fallback: rows do not fit the mix's type)") : QString())
                      .arg(mib(t.bytesIn), 8)
                      .arg(mib(t.bytesOut), 8);
}

void printSummary(const quantize::QuantizeResult& r)
{
    cli::outLine(QStringLiteral("model size  = %1 MiB (%2 BPW)").arg(mib(r.bytesIn), 8).arg(r.bpwIn(), 0, 'f', 2));
    cli::outLine(QStringLiteral("quant size  = %1 MiB (%2 BPW)").arg(mib(r.bytesOut), 8).arg(r.bpwOut(), 0, 'f', 2));
    if (r.fallbacks > 0)
        cli::outLine(
            QStringLiteral("%1 of %2 tensor(s) needed a fallback type").arg(r.fallbacks).arg(r.tensors.size()));
}

} // namespace

int runQuantize(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("Quantize a GGUF model with llama.cpp's mixes and per-tensor types.\n"
                                               "Types: %1.")
                                    .arg(QString::fromStdString(quantize::mixNames())));
    p.addPositionalArgument(QStringLiteral("input"), QStringLiteral("The GGUF model to read."),
                            QStringLiteral("IN.gguf"));
    p.addPositionalArgument(QStringLiteral("output"), QStringLiteral("The GGUF file to write."),
                            QStringLiteral("OUT.gguf"));
    p.addPositionalArgument(QStringLiteral("type"), QStringLiteral("The mix: Q4_K_M, Q8_0, IQ4_XS, ..."),
                            QStringLiteral("TYPE"));
    const QCommandLineOption requant{QStringLiteral("allow-requantize"),
                                     QStringLiteral("Convert tensors that are already quantized (loses quality).")};
    const QCommandLineOption leaveOutput{QStringLiteral("leave-output-tensor"),
                                         QStringLiteral("Keep output.weight as it is.")};
    const QCommandLineOption pure{QStringLiteral("pure"),
                                  QStringLiteral("The mix's default type for every tensor, no per-tensor rules.")};
    const QCommandLineOption threads{QStringLiteral("threads"),
                                     QStringLiteral("Worker threads (default: one per hardware thread)."),
                                     QStringLiteral("N"), QStringLiteral("0")};
    const QCommandLineOption dryRun{QStringLiteral("dry-run"),
                                    QStringLiteral("Print the types and sizes without writing anything.")};
    p.addOptions({requant, leaveOutput, pure, threads, dryRun});
    int exitCode = 0;
    if (!cli::parseArgs(p, args, exitCode))
        return exitCode;
    const QStringList pos = p.positionalArguments();
    bool threadsOk = false;
    const int nThreads = p.value(threads).toInt(&threadsOk);
    const auto mix = pos.size() == 3 ? quantize::parseMix(pos[2].toStdString()) : std::nullopt;
    if (!mix || !threadsOk || nThreads < 0) {
        cli::errLine(QStringLiteral("hearth quantize: give IN.gguf OUT.gguf TYPE, TYPE one of %1%2")
                         .arg(QString::fromStdString(quantize::mixNames()),
                              threadsOk && nThreads >= 0 ? QString() : QStringLiteral("; --threads takes N >= 0")));
        return 2;
    }
    quantize::QuantizeOptions o;
    o.input = pos[0].toStdString();
    o.output = pos[1].toStdString();
    o.mix = *mix;
    o.allowRequantize = p.isSet(requant);
    o.leaveOutputTensor = p.isSet(leaveOutput);
    o.pure = p.isSet(pure);
    o.threads = nThreads;
    cli::installInterruptHandler();
    o.cancel = &cli::interruptFlag();
    const quantize::TensorReport* last = nullptr;
    o.progress = [&](const quantize::QuantizeProgress& pr) {
        if (pr.current && pr.current != last) {
            last = pr.current;
            if (cli::stderrIsTerminal())
                std::fprintf(stderr, "\r%-70s\r", "");
            cli::outLine(tensorLine(pr.tensor, pr.tensors, *pr.current));
        }
        if (cli::stderrIsTerminal() && pr.current) {
            std::fprintf(stderr, "\r%3d%%", pr.bytesTotal ? static_cast<int>(100 * pr.bytesDone / pr.bytesTotal) : 100);
            std::fflush(stderr);
        } else if (cli::stderrIsTerminal()) {
            std::fprintf(stderr, "\r%-70s\r", "");
        }
    };
    try {
        const QString typeText = QString::fromUtf8(quantize::mixInfo(o.mix).name.data());
        if (p.isSet(dryRun)) {
            const quantize::QuantizeResult r = quantize::planQuantize(o);
            for (size_t i = 0; i < r.tensors.size(); ++i)
                cli::outLine(tensorLine(i, r.tensors.size(), r.tensors[i]));
            printSummary(r);
            return 0;
        }
        const quantize::QuantizeResult r = quantize::quantizeModel(o);
        printSummary(r);
        cli::outLine(QStringLiteral("%1: %2, %3 tensors, %4 MiB")
                         .arg(pos[1], typeText)
                         .arg(r.tensors.size())
                         .arg(mib(r.fileBytes)));
        return 0;
    } catch (const Cancelled&) {
        cli::errLine(QStringLiteral("\nhearth quantize: cancelled; nothing was written"));
        return 130;
    } catch (const std::exception& e) {
        cli::errLine(QStringLiteral("\nhearth quantize: ") + QString::fromUtf8(e.what()));
        return 1;
    }
}

// hearth convert DIR_OR_FILES... -o OUT.gguf [--outtype f32|f16|bf16|q8_0]
//     [--pre NAME] [--name NAME]
// A Hugging Face model folder (safetensors) to GGUF, as llama.cpp's
// convert_hf_to_gguf.py writes it (core/convert/converter.h). Progress goes
// to stderr; Ctrl+C stops and leaves no output file.

#include "CliIo.h"
#include "Commands.h"
#include "EngineOptions.h"

#include "convert/arch.h"
#include "convert/converter.h"
#include "util/error.h"

#include <cstdio>

using namespace hearth;

int runConvert(const QStringList& args)
{
    QCommandLineParser p;
    p.setApplicationDescription(
        QStringLiteral("Convert a Hugging Face model (config.json, *.safetensors, tokenizer files) to GGUF.\n"
                       "Supported: %1.")
            .arg(QString::fromStdString(convert::supportedArchitectures())));
    p.addPositionalArgument(QStringLiteral("input"), QStringLiteral("The model folder, or its files."),
                            QStringLiteral("DIR_OR_FILES..."));
    const QCommandLineOption output{{QStringLiteral("o"), QStringLiteral("output")},
                                    QStringLiteral("The GGUF file to write."),
                                    QStringLiteral("OUT.gguf")};
    const QCommandLineOption outtype{QStringLiteral("outtype"),
                                     QStringLiteral("Type of the 2-D weights: f32, f16 (default), bf16 or q8_0."),
                                     QStringLiteral("TYPE"), QStringLiteral("f16")};
    const QCommandLineOption pre{QStringLiteral("pre"),
                                 QStringLiteral("Write this tokenizer.ggml.pre instead of detecting it."),
                                 QStringLiteral("NAME")};
    const QCommandLineOption name{QStringLiteral("name"), QStringLiteral("general.name (default: the folder's name)."),
                                  QStringLiteral("NAME")};
    p.addOptions({output, outtype, pre, name});
    int exitCode = 0;
    if (!cli::parseArgs(p, args, exitCode))
        return exitCode;
    const auto type = convert::parseOutType(p.value(outtype).toLower().toStdString());
    if (p.positionalArguments().isEmpty() || !p.isSet(output) || !type) {
        cli::errLine(QStringLiteral("hearth convert: give the model folder (or files), -o OUT.gguf and "
                                    "--outtype f32, f16, bf16 or q8_0"));
        return 2;
    }
    convert::ConvertOptions o;
    for (const QString& a : p.positionalArguments())
        o.inputs.emplace_back(a.toStdString());
    o.output = p.value(output).toStdString();
    o.outType = *type;
    o.preTokenizer = p.value(pre).toStdString();
    o.modelName = p.value(name).toStdString();
    cli::installInterruptHandler();
    o.cancel = &cli::interruptFlag();
    o.progress = [](const convert::ConvertProgress& pr) {
        if (!cli::stderrIsTerminal())
            return;
        if (pr.tensor < pr.tensors)
            std::fprintf(stderr, "\r[%4zu/%4zu] %3d%% %-40s", pr.tensor + 1, pr.tensors,
                         pr.bytesTotal ? static_cast<int>(100 * pr.bytesDone / pr.bytesTotal) : 100, pr.name.c_str());
        else
            std::fprintf(stderr, "\r%-60s\r", "");
        std::fflush(stderr);
    };
    try {
        const convert::ConvertResult r = convert::convertModel(o);
        cli::outLine(QStringLiteral("%1: %2, %3 tensors, %4 parameters, %5 MiB (%6)")
                         .arg(p.value(output), QString::fromStdString(r.architecture))
                         .arg(r.tensors)
                         .arg(r.parameters)
                         .arg(static_cast<double>(r.fileBytes) / (1024.0 * 1024.0), 0, 'f', 2)
                         .arg(QString::fromUtf8(convert::outTypeName(o.outType).data())));
        return 0;
    } catch (const Cancelled&) {
        cli::errLine(QStringLiteral("\nhearth convert: cancelled; nothing was written"));
        return 130;
    } catch (const std::exception& e) {
        cli::errLine(QStringLiteral("\nhearth convert: ") + QString::fromUtf8(e.what()));
        return 1;
    }
}

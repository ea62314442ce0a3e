// hearth pull REPO[:QUANT|:FILE] [--revision R] [--dir D] [--json]
// hearth search QUERY [--sort downloads|likes|updated] [--limit N] [--json]
//
// Both talk to the Hugging Face Hub at $HF_ENDPOINT (default
// https://huggingface.co) with $HF_TOKEN when set. `pull` reads the file's
// GGUF header first (architecture, quant, fit), then downloads it into the
// models folder (<dir>/<owner>/<repo>/), resuming a .part an earlier run
// left. With --json every line on stdout is one JSON object (docs/cli.md).

#include "CliIo.h"
#include "Commands.h"

#include "EngineOptions.h"
#include "ModelPaths.h"
#include "downloads/DownloadManager.h"
#include "downloads/HubClient.h"
#include "engine/FitEstimator.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

void jsonLine(const QJsonObject& o)
{
    cli::outLine(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)));
}

QString bytesText(qint64 b)
{
    if (b >= 1000000000)
        return QString::number(double(b) / 1e9, 'f', 2) + QStringLiteral(" GB");
    if (b >= 1000000)
        return QString::number(double(b) / 1e6, 'f', 1) + QStringLiteral(" MB");
    return QString::number(double(b) / 1e3, 'f', 1) + QStringLiteral(" KB");
}

// Runs `call` and waits for its one callback.
template <typename T, typename F>
T wait(F call)
{
    T out;
    QEventLoop loop;
    call([&](const T& r) {
        out = r;
        loop.quit();
    });
    loop.exec();
    return out;
}

int failWith(bool json, const HubError& e)
{
    if (json)
        jsonLine({{QStringLiteral("event"), QStringLiteral("error")}, {QStringLiteral("message"), e.message}});
    else
        cli::errLine(QStringLiteral("hearth: ") + e.message);
    return 1;
}

void drawBar(const DownloadInfo& info)
{
    const double frac = info.total > 0 ? double(info.received) / double(info.total) : 0.0;
    constexpr int kWidth = 30;
    const int filled = int(frac * kWidth);
    QString eta = QStringLiteral("--:--");
    if (info.etaSeconds >= 0)
        eta = QStringLiteral("%1:%2").arg(info.etaSeconds / 60).arg(info.etaSeconds % 60, 2, 10, QLatin1Char('0'));
    const QString line =
        QStringLiteral("\r[%1%2] %3% %4 / %5  %6/s  ETA %7 ")
            .arg(QString(filled, QLatin1Char('#')), QString(kWidth - filled, QLatin1Char(' ')))
            .arg(int(frac * 100), 3)
            .arg(bytesText(info.received), bytesText(info.total), bytesText(qint64(info.bytesPerSecond)), eta);
    fputs(line.toLocal8Bit().constData(), stderr);
    fflush(stderr);
}

QJsonObject progressJson(const DownloadInfo& info)
{
    return {{QStringLiteral("event"), QStringLiteral("progress")},
            {QStringLiteral("state"), DownloadInfo::stateName(info.state)},
            {QStringLiteral("received"), double(info.received)},
            {QStringLiteral("total"), double(info.total)},
            {QStringLiteral("bytes_per_second"), info.bytesPerSecond},
            {QStringLiteral("eta_seconds"), double(info.etaSeconds)},
            {QStringLiteral("retries"), info.retries}};
}

} // namespace

int runPull(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Download a GGUF model from Hugging Face into the models folder.\n"
        "REPO[:QUANT|:FILE], e.g. bartowski/SmolLM2-135M-Instruct-GGUF:Q4_K_M. Without a quant or file, the\n"
        "recommended one (Q4_K_M when it fits in memory, else the largest that fits). Uses $HF_ENDPOINT and "
        "$HF_TOKEN."));
    parser.addPositionalArgument(QStringLiteral("model"), QStringLiteral("REPO[:QUANT|:FILE]"));
    parser.addOption({QStringLiteral("revision"), QStringLiteral("Branch, tag or commit (default main)."),
                      QStringLiteral("R"), QStringLiteral("main")});
    parser.addOption({QStringLiteral("dir"),
                      QStringLiteral("Models folder (default %1).").arg(ModelPaths::defaultModelsDir()),
                      QStringLiteral("DIR"), ModelPaths::defaultModelsDir()});
    parser.addOption({QStringLiteral("json"), QStringLiteral("JSON lines on stdout instead of text.")});
    // The fit check counts the GPU as a load with this -ngl would use it.
    const cli::GpuOptions gpu;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOption(gpu.layers);
    int code = 0;
    if (!cli::parseArgs(parser, args, code))
        return code;
    int gpuLayers = 0;
    if (!gpu.read(parser, gpuLayers))
        return 2;
    if (parser.positionalArguments().size() != 1) {
        cli::errLine(QStringLiteral("hearth pull: expected one REPO[:QUANT|:FILE]"));
        return 2;
    }
    const bool json = parser.isSet(QStringLiteral("json"));
    const QString ref = parser.positionalArguments().front();
    const QString repo = ref.section(QLatin1Char(':'), 0, 0);
    const QString want = ref.section(QLatin1Char(':'), 1);
    const QString revision = parser.value(QStringLiteral("revision"));

    HubClient hub;
    hub.setFitGpuLayers(gpuLayers);
    const auto files = wait<HubResult<RepoFiles>>([&](auto done) { hub.listFiles(repo, revision, done); });
    if (!files.ok())
        return failWith(json, files.error);
    const QList<ModelFileChoice> choices = HubNames::ggufChoices(files.value.files);
    QStringList names;
    for (const ModelFileChoice& c : choices)
        names.append(c.name);
    if (choices.isEmpty())
        return failWith(json, {HubErrorKind::NotFound, QStringLiteral("%1 holds no GGUF file.").arg(repo)});
    const int index = want.isEmpty() ? HubNames::recommendedChoice(choices, FitEstimator::roughBudget(gpuLayers))
                                     : HubNames::findChoice(choices, want);
    if (index < 0)
        return failWith(json, {HubErrorKind::NotFound, QStringLiteral("No GGUF file in %1 matches '%2'. It has: %3")
                                                           .arg(repo, want, names.join(QStringLiteral(", ")))});
    const ModelFileChoice& choice = choices[index];

    const auto probe = wait<HubResult<HeaderProbe>>([&](auto done) { hub.probeHeader(repo, revision, choice, done); });
    if (!probe.ok())
        return failWith(json, probe.error);
    const ModelFacts& f = probe.value.facts;
    const FitEstimate& fit = probe.value.fit;
    if (json) {
        jsonLine({{QStringLiteral("event"), QStringLiteral("header")},
                  {QStringLiteral("repo"), repo},
                  {QStringLiteral("file"), choice.name},
                  {QStringLiteral("parts"), int(choice.parts.size())},
                  {QStringLiteral("size"), double(choice.size())},
                  {QStringLiteral("architecture"), f.architecture},
                  {QStringLiteral("quant"), f.quant},
                  {QStringLiteral("parameters"), double(f.parameters)},
                  {QStringLiteral("trained_context"), f.trainedContext},
                  {QStringLiteral("chat_template"), f.chatTemplate == QLatin1String("file")},
                  {QStringLiteral("memory_required"), double(fit.requiredBytes)},
                  {QStringLiteral("memory_available"), double(fit.availableBytes)},
                  {QStringLiteral("ram_required"), double(fit.ramRequiredBytes())},
                  {QStringLiteral("gpu_required"), double(fit.gpuRequiredBytes)},
                  {QStringLiteral("gpu_free"), double(fit.gpuAvailableBytes)},
                  {QStringLiteral("gpu_layers"), fit.gpuLayers},
                  {QStringLiteral("layer_count"), fit.layerCount},
                  {QStringLiteral("fit"), FitEstimator::placeName(fit)},
                  {QStringLiteral("fits"), fit.fits()},
                  {QStringLiteral("header_bytes"), double(probe.value.bytesRead)}});
    } else {
        cli::outLine(QStringLiteral("%1 (%2, %3)").arg(choice.name, f.quant, bytesText(choice.size())));
        cli::outLine(QStringLiteral("  %1, %2 parameters, trained context %3, %4 chat template")
                         .arg(f.architecture)
                         .arg(double(f.parameters) / 1e6, 0, 'f', 1)
                         .arg(f.trainedContext)
                         .arg(f.chatTemplate == QLatin1String("file") ? QStringLiteral("with") : QStringLiteral("no")));
        cli::outLine(QStringLiteral("  needs about %1 at context %2: %3 %4")
                         .arg(bytesText(fit.requiredBytes))
                         .arg(f.contextSize)
                         .arg(fit.fits() ? QStringLiteral("fits") : QStringLiteral("does NOT fit"),
                              FitEstimator::describe(fit)));
    }

    DownloadSpec spec;
    spec.repo = repo;
    spec.revision = revision;
    spec.name = choice.name;
    spec.quant = choice.quant;
    spec.parts = choice.parts;
    spec.folder = QDir(parser.value(QStringLiteral("dir"))).filePath(repo);
    DownloadManager manager(&hub);
    const bool bar = !json && cli::stderrIsTerminal();
    QEventLoop loop;
    DownloadInfo last;
    QObject::connect(&manager, &DownloadManager::changed, &manager, [&](const DownloadInfo& info) {
        if (json)
            jsonLine(progressJson(info));
        else if (bar && info.state == DownloadInfo::State::Running)
            drawBar(info);
    });
    QObject::connect(&manager, &DownloadManager::finished, &loop, [&](const DownloadInfo& info) {
        last = info;
        loop.quit();
    });
    manager.start(spec);
    loop.exec();
    if (bar)
        fputs("\n", stderr);
    if (last.state != DownloadInfo::State::Done)
        return failWith(json, last.error);
    if (json)
        jsonLine({{QStringLiteral("event"), QStringLiteral("done")}, {QStringLiteral("path"), last.path}});
    else
        cli::outLine(QStringLiteral("Saved %1").arg(last.path));
    return 0;
}

int runSearch(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Search Hugging Face for repositories with GGUF files (uses $HF_ENDPOINT and $HF_TOKEN)."));
    parser.addPositionalArgument(QStringLiteral("query"), QStringLiteral("Words in the repository name."));
    parser.addOption({QStringLiteral("sort"), QStringLiteral("downloads (default), likes or updated."),
                      QStringLiteral("ORDER"), QStringLiteral("downloads")});
    parser.addOption({QStringLiteral("limit"), QStringLiteral("At most N results (default 20)."), QStringLiteral("N"),
                      QStringLiteral("20")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("One JSON object per line.")});
    int code = 0;
    if (!cli::parseArgs(parser, args, code))
        return code;
    const QString order = parser.value(QStringLiteral("sort"));
    const QStringList orders{QStringLiteral("downloads"), QStringLiteral("likes"), QStringLiteral("updated")};
    if (!orders.contains(order)) {
        cli::errLine(QStringLiteral("hearth search: --sort is downloads, likes or updated, not '%1'").arg(order));
        return 2;
    }
    const HubClient::Sort sort = order == orders[1]   ? HubClient::Sort::Likes
                                 : order == orders[2] ? HubClient::Sort::Updated
                                                      : HubClient::Sort::Downloads;
    const bool json = parser.isSet(QStringLiteral("json"));
    HubClient hub;
    const auto found = wait<HubResult<QList<HubModel>>>([&](auto done) {
        hub.search(parser.positionalArguments().join(QLatin1Char(' ')), sort,
                   parser.value(QStringLiteral("limit")).toInt(), done);
    });
    if (!found.ok())
        return failWith(json, found.error);
    if (!json)
        cli::outLine(QStringLiteral("%1 %2 %3 %4")
                         .arg(QStringLiteral("REPOSITORY"), -56)
                         .arg(QStringLiteral("DOWNLOADS"), 10)
                         .arg(QStringLiteral("LIKES"), 7)
                         .arg(QStringLiteral("UPDATED")));
    for (const HubModel& m : found.value) {
        const QString updated = m.lastModified.isValid() ? m.lastModified.toString(Qt::ISODate) : QString();
        if (json)
            jsonLine({{QStringLiteral("id"), m.id},
                      {QStringLiteral("downloads"), double(m.downloads)},
                      {QStringLiteral("likes"), double(m.likes)},
                      {QStringLiteral("updated"), updated},
                      {QStringLiteral("gated"), m.gated}});
        else
            cli::outLine(QStringLiteral("%1 %2 %3 %4")
                             .arg(m.id, -56)
                             .arg(m.downloads, 10)
                             .arg(m.likes, 7)
                             .arg(updated.left(10)));
    }
    return 0;
}

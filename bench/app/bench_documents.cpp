// bench_documents [PAGES] [--model FILE]: indexing speed of Documents on
// generated PDFs (PAGES pages, 1,000 by default, in files of 50 pages, each
// page a heading and three paragraphs of varied text): pages/s, chunks/s and
// peak memory of a first run; then a second run over the unchanged files,
// which must embed nothing (target: under a second); then a run killed
// half-way (a child process that exits after half the files) and resumed,
// which must redo none of the files finished before the kill.

#include "DocumentCorpus.h"
#include "test_support.h"

#include "cpu/cpu_backend.h"
#include "documents/DocumentStore.h"
#include "documents/Indexer.h"
#include "runtime/embedder.h"

#include <QCoreApplication>
#include <QDir>
#include <QGuiApplication>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>
#include <sys/resource.h>

using namespace documents;

namespace {

QString pageText(int page, int para)
{
    static const QStringList subjects{QStringLiteral("The pump"),         QStringLiteral("Each valve"),
                                      QStringLiteral("The control unit"), QStringLiteral("A sensor"),
                                      QStringLiteral("The operator"),     QStringLiteral("The cooling loop")};
    static const QStringList verbs{QStringLiteral("is checked"), QStringLiteral("is calibrated"),
                                   QStringLiteral("reports its state"), QStringLiteral("is cleaned"),
                                   QStringLiteral("is replaced")};
    QString out;
    for (int s = 0; s < 6; ++s) {
        const int k = page * 7 + para * 3 + s;
        out += QStringLiteral("%1 %2 every %3 hours in section %4, as step %5 of procedure %6 requires. ")
                   .arg(subjects[k % subjects.size()], verbs[(k / 3) % verbs.size()])
                   .arg(10 + k % 90)
                   .arg(page)
                   .arg(s + 1)
                   .arg(para + page * 3);
    }
    return out.trimmed();
}

long peakRssMiB()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024;
}

IndexReport runIndex(const QString& db, const std::string& model, qint64* collection, int exitAfter = -1)
{
    hearth::cpu::CpuBackend backend;
    auto embedder = hearth::Embedder::open(model, backend);
    DocumentStore store(db);
    *collection = store.ensureCollection(QStringLiteral("bench"));
    Indexer indexer(store, *embedder, Indexer::modelIdentity(QString::fromStdString(model)));
    IndexControl control;
    control.progress = [&](const IndexProgress& p) {
        if (exitAfter >= 0 && p.filesDone >= exitAfter)
            std::_Exit(9); // as a kill: no clean-up, no destructors
    };
    return indexer.run(*collection, control);
}

} // namespace

int main(int argc, char** argv)
{
    QGuiApplication app(argc, argv);          // QPdfWriter needs fonts
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // each figure as it comes
    const QStringList args = app.arguments();
    std::string model = testsupport::findModel("all-MiniLM-L6-v2.F16.gguf");
    if (const qsizetype m = args.indexOf(QStringLiteral("--model")); m > 0 && m + 1 < args.size())
        model = args[m + 1].toStdString();
    if (const qsizetype c = args.indexOf(QStringLiteral("--child")); c > 0) {
        // The killed run: index args[c+1] (db) and die after args[c+2] files.
        qint64 id = 0;
        runIndex(args[c + 1], model, &id, args[c + 2].toInt());
        return 0;
    }
    if (model.empty()) {
        std::fprintf(stderr, "all-MiniLM-L6-v2.F16.gguf not found (scripts/convert-models, or --model FILE)\n");
        return 2;
    }
    const int pages = args.size() > 1 && args[1].toInt() > 0 ? args[1].toInt() : 1000;
    QTemporaryDir dir;
    const QString docs = dir.filePath(QStringLiteral("docs"));
    QDir().mkpath(docs);
    int files = 0;
    for (int start = 0; start < pages; start += 50, ++files) {
        QList<corpus::Section> sections;
        for (int p = start; p < std::min(pages, start + 50); ++p)
            sections.append(
                {QStringLiteral("Section %1").arg(p + 1), {pageText(p, 0), pageText(p, 1), pageText(p, 2)}});
        corpus::writePdf(docs + QStringLiteral("/manual-%1.pdf").arg(files, 3, 10, QLatin1Char('0')), sections);
    }
    const QString db = dir.filePath(QStringLiteral("index.sqlite"));
    {
        DocumentStore store(db);
        store.addSource(store.ensureCollection(QStringLiteral("bench")), docs);
    }
    qint64 id = 0;
    const IndexReport first = runIndex(db, model, &id);
    std::printf("first run: %d files, %d pages, %lld chunks in %.2f s: %.1f pages/s, %.1f chunks/s "
                "(embedding %.2f s); peak RSS %ld MiB\n",
                first.indexed, first.pages, static_cast<long long>(first.chunks), first.seconds,
                first.pages / first.seconds, double(first.chunks) / first.seconds, first.embedSeconds, peakRssMiB());
    const IndexReport second = runIndex(db, model, &id);
    std::printf("second run (nothing changed): %d indexed, %d unchanged, %lld chunks embedded, %.3f s\n",
                second.indexed, second.unchanged, static_cast<long long>(second.chunks), second.seconds);

    // Killed half-way, then resumed: a fresh database.
    const QString db2 = dir.filePath(QStringLiteral("killed.sqlite"));
    {
        DocumentStore store(db2);
        store.addSource(store.ensureCollection(QStringLiteral("bench")), docs);
    }
    const int half = files / 2;
    const int code = QProcess::execute(QCoreApplication::applicationFilePath(),
                                       {QStringLiteral("--child"), db2, QString::number(half),
                                        QStringLiteral("--model"), QString::fromStdString(model)});
    const IndexReport resumed = runIndex(db2, model, &id);
    std::printf("killed after %d of %d files (exit %d); the resumed run indexed %d and skipped %d as done: %s\n", half,
                files, code, resumed.indexed, resumed.unchanged,
                resumed.unchanged == half && resumed.indexed == files - half ? "no finished file redone" : "MISMATCH");
    return resumed.unchanged == half && second.chunks == 0 ? 0 : 1;
}

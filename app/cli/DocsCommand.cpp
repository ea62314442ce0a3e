// hearth docs add|index|search|ask|list|remove: Documents from the command
// line, on the app's database (--db FILE for another) and the default
// embedding model (--embedding-model FILE). JSON shapes in docs/cli.md.
//
//   hearth docs add COLLECTION PATH...
//   hearth docs index COLLECTION [--json-progress]
//   hearth docs search COLLECTION "query" [-k 5] [--mode hybrid|bm25|vector] [--json]
//   hearth docs ask COLLECTION "question" -m MODEL.gguf [--json]
//   hearth docs list [COLLECTION] [--json]
//   hearth docs remove COLLECTION [PATH...]

#include "CliIo.h"
#include "Commands.h"
#include "EngineOptions.h"

#include "AppSession.h"
#include "ModelPaths.h"
#include "documents/Citations.h"
#include "documents/DocumentStore.h"
#include "documents/Indexer.h"
#include "documents/Retriever.h"
#include "runtime/chat_session.h"
#include "runtime/embedder.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace documents;

namespace {

struct Common {
    QCommandLineOption db{QStringLiteral("db"), QStringLiteral("Database file (default: the app's)."),
                          QStringLiteral("FILE")};
    QCommandLineOption embedding{QStringLiteral("embedding-model"),
                                 QStringLiteral("Embedding model (default: all-MiniLM-L6-v2 in the models folder)."),
                                 QStringLiteral("FILE")};
    QCommandLineOption json{QStringLiteral("json"), QStringLiteral("Print JSON.")};
    cli::EngineOptions engine; // ask's chat model (-m), and the threads of both models
    void add(QCommandLineParser& p) const
    {
        p.addOptions({db, embedding, json});
        engine.add(p);
    }
    QString dbPath(const QCommandLineParser& p) const
    {
        return p.isSet(db) ? p.value(db) : AppSession::defaultDataDir() + QStringLiteral("/hearth.sqlite");
    }
    QString modelPath(const QCommandLineParser& p) const
    {
        return p.isSet(embedding) ? p.value(embedding) : ModelPaths::defaultEmbeddingModel();
    }
};

void printJson(const QJsonObject& o)
{
    cli::outLine(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)));
}

// Opens the embedder named by the options.
struct Embedding {
    std::unique_ptr<hearth::cpu::CpuBackend> backend;
    std::unique_ptr<hearth::Embedder> embedder;
    QString id;
};

Embedding openEmbedding(const Common& c, const QCommandLineParser& p)
{
    Embedding e;
    const QString path = c.modelPath(p);
    if (!QFileInfo::exists(path))
        throw std::runtime_error("embedding model " + path.toStdString() +
                                 " not found (scripts/convert-models makes it; or --embedding-model FILE)");
    e.backend =
        std::make_unique<hearth::cpu::CpuBackend>(p.isSet(c.engine.threads) ? p.value(c.engine.threads).toInt() : 0);
    e.embedder = hearth::Embedder::open(path.toStdString(), *e.backend);
    e.id = Indexer::modelIdentity(path);
    return e;
}

qint64 requireCollection(DocumentStore& store, const QString& name)
{
    const auto id = store.collectionId(name);
    if (!id)
        throw std::runtime_error("no collection named '" + name.toStdString() + "' (hearth docs add)");
    return *id;
}

QJsonObject passageJson(const Passage& p, int n)
{
    QJsonObject o;
    if (n > 0)
        o[QStringLiteral("n")] = n;
    o[QStringLiteral("file")] = p.path;
    o[QStringLiteral("page")] = p.pageFrom;
    o[QStringLiteral("page_to")] = p.pageTo;
    o[QStringLiteral("page_label")] = p.pageLabel;
    o[QStringLiteral("heading")] = p.heading;
    o[QStringLiteral("line")] = p.line;
    o[QStringLiteral("score")] = p.score;
    o[QStringLiteral("citation")] = citationLabel(p);
    o[QStringLiteral("text")] = p.text;
    return o;
}

QJsonObject reportJson(const IndexReport& r)
{
    QJsonObject o;
    o[QStringLiteral("files")] = r.files;
    o[QStringLiteral("indexed")] = r.indexed;
    o[QStringLiteral("unchanged")] = r.unchanged;
    o[QStringLiteral("removed")] = r.removed;
    o[QStringLiteral("pages")] = r.pages;
    o[QStringLiteral("chunks")] = static_cast<qint64>(r.chunks);
    o[QStringLiteral("seconds")] = r.seconds;
    o[QStringLiteral("embed_seconds")] = r.embedSeconds;
    o[QStringLiteral("cancelled")] = r.cancelled;
    QJsonArray issues;
    for (const FileIssue& i : r.issues)
        issues.append(QJsonObject{{QStringLiteral("file"), i.path},
                                  {QStringLiteral("status"), i.status},
                                  {QStringLiteral("reason"), i.reason}});
    o[QStringLiteral("issues")] = issues;
    return o;
}

int add(const QStringList& args, const Common& c, QCommandLineParser& p)
{
    if (args.size() < 2) {
        cli::errLine(QStringLiteral("usage: hearth docs add COLLECTION PATH..."));
        return 2;
    }
    DocumentStore store(c.dbPath(p));
    const qint64 id = store.ensureCollection(args[0]);
    for (const QString& path : args.mid(1)) {
        const QFileInfo info(path);
        if (!info.exists()) {
            cli::errLine(QStringLiteral("hearth docs add: %1 does not exist").arg(path));
            return 1;
        }
        store.addSource(id, info.absoluteFilePath());
    }
    cli::outLine(QStringLiteral("%1: %2 source(s)").arg(args[0]).arg(store.sources(id).size()));
    return 0;
}

int index(const QStringList& args, const Common& c, QCommandLineParser& p, bool jsonProgress)
{
    if (args.size() != 1) {
        cli::errLine(QStringLiteral("usage: hearth docs index COLLECTION [--json-progress]"));
        return 2;
    }
    DocumentStore store(c.dbPath(p));
    const qint64 id = requireCollection(store, args[0]);
    Embedding e = openEmbedding(c, p);
    Indexer indexer(store, *e.embedder, e.id);
    IndexControl control;
    cli::installInterruptHandler();
    cli::setGenerating(true);
    control.cancel = &cli::interruptFlag();
    control.progress = [&](const IndexProgress& pr) {
        if (jsonProgress) {
            printJson(QJsonObject{{QStringLiteral("files_done"), pr.filesDone},
                                  {QStringLiteral("files_total"), pr.filesTotal},
                                  {QStringLiteral("chunks"), static_cast<qint64>(pr.chunks)},
                                  {QStringLiteral("chunks_per_s"), pr.chunksPerSecond},
                                  {QStringLiteral("eta_s"), pr.etaSeconds},
                                  {QStringLiteral("file"), pr.currentFile}});
            std::fflush(stdout);
        } else if (cli::stderrIsTerminal()) {
            std::fprintf(stderr, "\r%d/%d files, %lld chunks, %.1f chunks/s   ", pr.filesDone, pr.filesTotal,
                         static_cast<long long>(pr.chunks), pr.chunksPerSecond);
        }
    };
    const IndexReport r = indexer.run(id, control);
    cli::setGenerating(false);
    if (jsonProgress || p.isSet(c.json)) {
        QJsonObject o = reportJson(r);
        o[QStringLiteral("done")] = true;
        printJson(o);
    } else {
        if (cli::stderrIsTerminal())
            std::fprintf(stderr, "\n");
        cli::outLine(QStringLiteral("%1 files: %2 indexed, %3 unchanged, %4 removed, %5 with problems; %6 pages, "
                                    "%7 chunks in %8 s")
                         .arg(r.files)
                         .arg(r.indexed)
                         .arg(r.unchanged)
                         .arg(r.removed)
                         .arg(r.issues.size())
                         .arg(r.pages)
                         .arg(r.chunks)
                         .arg(r.seconds, 0, 'f', 2));
        for (const FileIssue& i : r.issues)
            cli::outLine(QStringLiteral("  %1: %2 (%3)").arg(i.status, i.path, i.reason));
    }
    return r.cancelled ? 130 : 0;
}

RankMode modeFrom(const QString& s)
{
    if (s == QLatin1String("bm25"))
        return RankMode::Keyword;
    if (s == QLatin1String("vector"))
        return RankMode::Vector;
    if (s.isEmpty() || s == QLatin1String("hybrid"))
        return RankMode::Hybrid;
    throw std::runtime_error("--mode must be hybrid, bm25 or vector");
}

int search(const QStringList& args, const Common& c, QCommandLineParser& p, int k, const QString& mode)
{
    if (args.size() != 2) {
        cli::errLine(QStringLiteral("usage: hearth docs search COLLECTION \"query\" [-k 5] [--json]"));
        return 2;
    }
    DocumentStore store(c.dbPath(p));
    const qint64 id = requireCollection(store, args[0]);
    Embedding e = openEmbedding(c, p);
    Retriever retriever(store, *e.embedder);
    retriever.load({id});
    SearchParams sp;
    sp.k = k;
    sp.mode = modeFrom(mode);
    const QList<Passage> hits = retriever.search(args[1], sp);
    if (p.isSet(c.json)) {
        QJsonArray a;
        for (const Passage& h : hits)
            a.append(passageJson(h, 0));
        printJson(QJsonObject{{QStringLiteral("query"), args[1]},
                              {QStringLiteral("mode"), rankModeName(sp.mode)},
                              {QStringLiteral("hits"), a}});
    } else {
        for (qsizetype i = 0; i < hits.size(); ++i)
            cli::outLine(QStringLiteral("%1. %2  (%3)\n   %4\n")
                             .arg(i + 1)
                             .arg(citationLabel(hits[i]))
                             .arg(hits[i].score, 0, 'f', 4)
                             .arg(hits[i].text.left(300)));
    }
    return 0;
}

int ask(const QStringList& args, const Common& c, QCommandLineParser& p, int k)
{
    if (args.size() != 2) {
        cli::errLine(QStringLiteral("usage: hearth docs ask COLLECTION \"question\" -m MODEL.gguf"));
        return 2;
    }
    DocumentStore store(c.dbPath(p));
    const qint64 id = requireCollection(store, args[0]);
    Embedding e = openEmbedding(c, p);
    Retriever retriever(store, *e.embedder);
    retriever.load({id});
    SearchParams sp;
    sp.k = k;
    sp.tokenBudget = 900;
    const QList<Passage> passages = retriever.search(args[1], sp);
    cli::Engine engine;
    if (!cli::loadEngine(p, c.engine, engine, 2048))
        return 1;
    hearth::ChatSession chat(engine.model, *engine.context);
    chat.setSystemPrompt(answerInstruction().toStdString());
    const QString user = QStringLiteral("Sources:\n%1\n\nQuestion: %2").arg(contextBlock(passages), args[1]);
    hearth::ChatParams cp;
    cp.generation.maxTokens = 256;
    cp.generation.sampling.temperature = 0.0f;
    const hearth::TextResult r = chat.reply(user.toStdString(), cp, {}, &cli::interruptFlag());
    CitedAnswer answer = checkCitations(QString::fromStdString(r.text), int(passages.size()));
    // A model that cites nothing (small ones seldom do): Hearth matches
    // the answer's sentences to the passages, as the app does.
    bool attributed = false;
    if (answer.cited.isEmpty() && !passages.isEmpty()) {
        QStringList texts;
        for (const Passage& ps : passages)
            texts.append(ps.text);
        const CitedAnswer matched = attributeCitations(*e.embedder, answer.text, texts);
        answer.text = matched.text;
        answer.cited = matched.cited;
        attributed = !answer.cited.isEmpty();
    }
    if (p.isSet(c.json)) {
        QJsonArray cites, sources;
        for (int n : answer.cited)
            cites.append(passageJson(passages[n - 1], n));
        for (qsizetype i = 0; i < passages.size(); ++i)
            sources.append(passageJson(passages[i], int(i + 1)));
        QJsonArray dropped;
        for (int n : answer.dropped)
            dropped.append(n);
        printJson(QJsonObject{{QStringLiteral("question"), args[1]},
                              {QStringLiteral("answer"), answer.text.trimmed()},
                              {QStringLiteral("citations"), cites},
                              {QStringLiteral("dropped_citations"), dropped},
                              {QStringLiteral("citations_matched"), attributed},
                              {QStringLiteral("sources"), sources}});
    } else {
        cli::outLine(answer.text.trimmed());
        if (!answer.cited.isEmpty())
            cli::outLine(attributed ? QStringLiteral("\n(the model cited none; sources matched by Hearth)")
                                    : QString());
        for (int n : answer.cited)
            cli::outLine(QStringLiteral("[%1] %2").arg(n).arg(citationLabel(passages[n - 1])));
    }
    return 0;
}

int list(const QStringList& args, const Common& c, QCommandLineParser& p)
{
    DocumentStore store(c.dbPath(p));
    const bool json = p.isSet(c.json);
    if (args.isEmpty()) {
        QJsonArray a;
        for (const CollectionRow& r : store.collections()) {
            if (json)
                a.append(QJsonObject{{QStringLiteral("name"), r.name},
                                     {QStringLiteral("sources"), QJsonArray::fromStringList(r.sources)},
                                     {QStringLiteral("documents"), r.documents},
                                     {QStringLiteral("indexed"), r.indexed},
                                     {QStringLiteral("problems"), r.failed},
                                     {QStringLiteral("chunks"), static_cast<qint64>(r.chunks)}});
            else
                cli::outLine(QStringLiteral("%1: %2 documents (%3 indexed, %4 with problems), %5 chunks; %6")
                                 .arg(r.name)
                                 .arg(r.documents)
                                 .arg(r.indexed)
                                 .arg(r.failed)
                                 .arg(r.chunks)
                                 .arg(r.sources.join(QStringLiteral(", "))));
        }
        if (json)
            printJson(QJsonObject{{QStringLiteral("collections"), a}});
        return 0;
    }
    const qint64 id = requireCollection(store, args[0]);
    QJsonArray a;
    for (const DocumentRow& d : store.documents(id)) {
        if (json)
            a.append(QJsonObject{{QStringLiteral("file"), d.path},
                                 {QStringLiteral("status"), statusName(d.status)},
                                 {QStringLiteral("error"), d.error},
                                 {QStringLiteral("format"), d.format},
                                 {QStringLiteral("pages"), d.pages},
                                 {QStringLiteral("chunks"), d.chunks},
                                 {QStringLiteral("size"), d.size},
                                 {QStringLiteral("sha256"), d.sha256}});
        else
            cli::outLine(
                QStringLiteral("%1  %2  %3%4")
                    .arg(statusName(d.status), -8)
                    .arg(d.path)
                    .arg(d.status == DocStatus::Indexed ? QStringLiteral("%1 chunks").arg(d.chunks) : QString())
                    .arg(d.error.isEmpty() ? QString() : QStringLiteral("(%1)").arg(d.error)));
    }
    if (json)
        printJson(QJsonObject{{QStringLiteral("collection"), args[0]}, {QStringLiteral("documents"), a}});
    return 0;
}

int remove(const QStringList& args, const Common& c, QCommandLineParser& p)
{
    if (args.isEmpty()) {
        cli::errLine(QStringLiteral("usage: hearth docs remove COLLECTION [PATH...]"));
        return 2;
    }
    DocumentStore store(c.dbPath(p));
    const qint64 id = requireCollection(store, args[0]);
    if (args.size() == 1) {
        store.removeCollection(id);
        cli::outLine(QStringLiteral("removed collection %1").arg(args[0]));
        return 0;
    }
    for (const QString& path : args.mid(1))
        store.removeSource(id, QFileInfo(path).absoluteFilePath());
    cli::outLine(QStringLiteral("%1: %2 source(s) left; run hearth docs index to drop their documents")
                     .arg(args[0])
                     .arg(store.sources(id).size()));
    return 0;
}

} // namespace

int runDocs(const QStringList& args)
{
    static const QStringList subs{QStringLiteral("add"), QStringLiteral("index"), QStringLiteral("search"),
                                  QStringLiteral("ask"), QStringLiteral("list"),  QStringLiteral("remove")};
    if (args.size() < 2 || !subs.contains(args[1])) {
        cli::errLine(
            QStringLiteral("usage: hearth docs add|index|search|ask|list|remove ... (hearth docs SUB --help)"));
        return 2;
    }
    const QString sub = args[1];
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Documents: collections of files to search and ask about."));
    Common c;
    c.add(parser);
    const QCommandLineOption jsonProgress(QStringLiteral("json-progress"),
                                          QStringLiteral("index: one JSON line per file, then the report."));
    const QCommandLineOption k(QStringLiteral("k"), QStringLiteral("Passages (default 5)."), QStringLiteral("N"));
    const QCommandLineOption mode(QStringLiteral("mode"), QStringLiteral("search: hybrid (default), bm25 or vector."),
                                  QStringLiteral("MODE"));
    parser.addOptions({jsonProgress, k, mode});
    parser.addPositionalArgument(QStringLiteral("args"), QStringLiteral("COLLECTION and the sub-command's arguments"));
    int exitCode = 0;
    QStringList rest = args;
    rest.removeAt(1);
    rest[0] = QStringLiteral("hearth docs ") + sub;
    if (!cli::parseArgs(parser, rest, exitCode))
        return exitCode;
    const QStringList pos = parser.positionalArguments();
    const int kValue = parser.isSet(k) ? std::max(1, parser.value(k).toInt()) : 5;
    try {
        if (sub == QLatin1String("add"))
            return add(pos, c, parser);
        if (sub == QLatin1String("index"))
            return index(pos, c, parser, parser.isSet(jsonProgress));
        if (sub == QLatin1String("search"))
            return search(pos, c, parser, kValue, parser.value(mode));
        if (sub == QLatin1String("ask"))
            return ask(pos, c, parser, kValue);
        if (sub == QLatin1String("list"))
            return list(pos, c, parser);
        return remove(pos, c, parser);
    } catch (const std::exception& e) {
        cli::errLine(QStringLiteral("hearth docs %1: %2").arg(sub, QString::fromUtf8(e.what())));
        return 1;
    }
}

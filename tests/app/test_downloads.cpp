// The hub client and the download manager against the fake hub
// (tests/app/fake_hub.py) on loopback: search, file lists, the header-only
// fit check, verified downloads, resume after drops and after a restart,
// and every failure the issue lists (hash mismatch, 401, 404, a stalled
// server, a full disk), each leaving nothing in the models folder.

#include "FakeHub.h"

#include "downloads/DownloadManager.h"
#include "downloads/HubClient.h"
#include "engine/FitEstimator.h"
#include "gguf/gguf.h"
#include "gguf/model_info.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace {

using State = DownloadInfo::State;
const QString kRepo = QStringLiteral("test/Tiny-GGUF");
const QString kQ4 = QStringLiteral("tiny-Q4_K_M.gguf");
constexpr qint64 kFirstRange = 64 * 1024; // the header check's first request

// A .part device that fails like a full disk after `limit` bytes.
class FullDiskFile : public QFile {
public:
    FullDiskFile(const QString& path, qint64 limit) : QFile(path), m_limit(limit) {}

protected:
    qint64 writeData(const char* data, qint64 len) override
    {
        if (m_written + len > m_limit) {
            setErrorString(QStringLiteral("No space left on device"));
            return -1;
        }
        m_written += len;
        return QFile::writeData(data, len);
    }

private:
    qint64 m_limit;
    qint64 m_written = 0;
};

template <typename T>
T await(const std::function<void(std::function<void(const T&)>)>& call)
{
    T out;
    bool done = false;
    call([&](const T& r) {
        out = r;
        done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done, 15000);
    return out;
}

} // namespace

class TestDownloads : public QObject {
    Q_OBJECT

private:
    FakeHub m_hub;
    std::unique_ptr<QTemporaryDir> m_models;
    std::unique_ptr<HubClient> m_client;
    QTemporaryDir m_stateDir;

    std::unique_ptr<DownloadManager> manager()
    {
        auto m = std::make_unique<DownloadManager>(m_client.get());
        m->setRetryDelayMs(10);
        return m;
    }

    HubResult<RepoFiles> files(const QString& repo)
    {
        HubResult<RepoFiles> out;
        bool done = false;
        m_client->listFiles(repo, QStringLiteral("main"), [&](const HubResult<RepoFiles>& r) {
            out = r;
            done = true;
        });
        if (!QTest::qWaitFor([&] { return done; }, 15000))
            out.error = {HubErrorKind::Timeout, QStringLiteral("the test timed out")};
        return out;
    }

    DownloadSpec spec(const QString& repo, const QString& name)
    {
        DownloadSpec s;
        s.repo = repo;
        s.name = name;
        s.folder = m_models->filePath(repo);
        const HubResult<RepoFiles> list = files(repo);
        for (const ModelFileChoice& c : HubNames::ggufChoices(list.value.files))
            if (c.name == name)
                s.parts = c.parts;
        return s;
    }

    // Runs a download to Done or Failed.
    DownloadInfo run(DownloadManager& m, const DownloadSpec& s)
    {
        const QString id = m.start(s);
        if (!QTest::qWaitFor(
                [&] {
                    const State st = m.info(id).state;
                    return st == State::Done || st == State::Failed;
                },
                30000))
            qWarning("download did not finish");
        return m.info(id);
    }

    // Every file under the models folder (partial downloads included).
    QStringList filesOnDisk() const
    {
        QStringList out;
        QDirIterator it(m_models->path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext())
            out.append(QFileInfo(it.next()).fileName());
        out.sort();
        return out;
    }

    static QString sha256Of(const QString& path)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        QCryptographicHash h(QCryptographicHash::Sha256);
        h.addData(&f);
        return QString::fromLatin1(h.result().toHex());
    }

    // Range starts of the blob requests since the last reset.
    QList<qint64> rangeStarts()
    {
        QList<qint64> out;
        for (const QJsonValue& v : m_hub.stats().value(QLatin1String("requests")).toArray()) {
            const QJsonObject r = v.toObject();
            if (!r.value(QLatin1String("path")).toString().startsWith(QLatin1String("/_blobs/")))
                continue;
            const QString range = r.value(QLatin1String("range")).toString();
            out.append(range.isEmpty() ? 0 : range.mid(6).section(QLatin1Char('-'), 0, 0).toLongLong());
        }
        return out;
    }

private slots:
    void initTestCase()
    {
        if (!m_hub.start())
            QSKIP(qPrintable(m_hub.error()));
    }

    void init()
    {
        m_hub.reset();
        m_models = std::make_unique<QTemporaryDir>();
        m_client = std::make_unique<HubClient>();
        m_client->setEndpoint(m_hub.endpoint());
        m_client->setToken({});
    }

    void endpointFromEnvironment()
    {
        qputenv("HF_ENDPOINT", "http://127.0.0.1:9/hub/");
        QCOMPARE(HubClient::defaultEndpoint(), QUrl(QStringLiteral("http://127.0.0.1:9/hub")));
        qunsetenv("HF_ENDPOINT");
        QCOMPARE(HubClient::defaultEndpoint(), QUrl(QStringLiteral("https://huggingface.co")));
        qputenv("HF_TOKEN", "hf_from_env");
        QCOMPARE(HubClient().token(), QStringLiteral("hf_from_env"));
        qunsetenv("HF_TOKEN");
    }

    void quantNames()
    {
        QCOMPARE(HubNames::quantOf(QStringLiteral("SmolLM2-135M-Instruct-Q4_K_M.gguf")), QStringLiteral("Q4_K_M"));
        QCOMPARE(HubNames::quantOf(QStringLiteral("gemma-3-270m-it-IQ3_XXS.gguf")), QStringLiteral("IQ3_XXS"));
        QCOMPARE(HubNames::quantOf(QStringLiteral("Q8_0/model-00001-of-00003.gguf")), QStringLiteral("Q8_0"));
        QCOMPARE(HubNames::quantOf(QStringLiteral("model.bf16.gguf")), QStringLiteral("BF16"));
        QCOMPARE(HubNames::quantOf(QStringLiteral("model.gguf")), QString());
        QVERIFY(HubNames::isLaterSplitPart(QStringLiteral("x-00002-of-00003.gguf")));
        QVERIFY(!HubNames::isLaterSplitPart(QStringLiteral("x-00001-of-00003.gguf")));
    }

    void search()
    {
        bool done = false;
        HubResult<QList<HubModel>> result;
        m_client->search(QStringLiteral("gguf"), HubClient::Sort::Downloads, 10, [&](const auto& r) {
            result = r;
            done = true;
        });
        QTRY_VERIFY(done);
        QVERIFY2(result.ok(), qPrintable(result.error.message));
        QStringList ids;
        for (const HubModel& m : result.value)
            ids.append(m.id);
        // By downloads, and never the private repository.
        QCOMPARE(ids, (QStringList{kRepo, QStringLiteral("test/Wrong-GGUF"), QStringLiteral("test/Split-GGUF"),
                                   QStringLiteral("test/Junk-GGUF")}));
        QCOMPARE(result.value.front().downloads, qint64(1200));
        QCOMPARE(result.value.front().likes, qint64(7));
        QCOMPARE(result.value.front().lastModified, QDateTime(QDate(2025, 3, 4), QTime(5, 6, 7), Qt::UTC));
    }

    void fileList()
    {
        const HubResult<RepoFiles> r = files(kRepo);
        QVERIFY2(r.ok(), qPrintable(r.error.message));
        QCOMPARE(r.value.files.size(), 5);
        const QList<ModelFileChoice> choices = HubNames::ggufChoices(r.value.files);
        QCOMPARE(choices.size(), 3); // the split set is one choice; README.md is not a model
        QCOMPARE(choices[0].name, kQ4);
        QCOMPARE(choices[0].quant, QStringLiteral("Q4_K_M"));
        QCOMPARE(choices[0].parts.front().sha256, m_hub.sha256(kQ4));
        QCOMPARE(choices[0].size(), m_hub.fileSize(kQ4));
        const auto split = std::find_if(choices.begin(), choices.end(), [](const auto& c) { return c.isSplit(); });
        QVERIFY(split != choices.end());
        QCOMPARE(split->parts.size(), 2);
        QCOMPARE(split->quant, QStringLiteral("F16"));
    }

    void headerOnlyFitCheck()
    {
        const ModelFileChoice choice = HubNames::ggufChoices(files(kRepo).value.files).front();
        m_hub.reset();
        bool done = false;
        HubResult<HeaderProbe> r;
        m_client->probeHeader(kRepo, QStringLiteral("main"), choice, [&](const HubResult<HeaderProbe>& p) {
            r = p;
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(done, 15000);
        QVERIFY2(r.ok(), qPrintable(r.error.message));
        QCOMPARE(r.value.facts.architecture, QStringLiteral("llama"));
        QCOMPARE(r.value.facts.quant, QStringLiteral("Q4_K_M"));
        QCOMPARE(r.value.facts.trainedContext, 4096);
        QCOMPARE(r.value.facts.chatTemplate, QStringLiteral("file"));
        QCOMPARE(r.value.facts.parameters, qint64(256 * 2048));
        QVERIFY(r.value.fit.requiredBytes > m_hub.fileSize(kQ4) / 2);
        QVERIFY(r.value.fit.availableBytes > 0);
        // The header (about 150 KB) took more than the first 64 KiB range, and
        // at most twice its size was read; the weights (2 MiB) never moved.
        const qint64 header = qint64(hearth::gguf::File(m_hub.filePath(kQ4).toStdString()).dataOffset());
        const qint64 served = m_hub.bytesServed();
        QCOMPARE(served, r.value.bytesRead);
        QVERIFY2(served >= header && served <= 2 * header,
                 qPrintable(QStringLiteral("%1 of %2").arg(served).arg(header)));
        QVERIFY(rangeStarts().size() >= 2);
    }

    HubResult<HeaderProbe> probe(const QString& repo, const ModelFileChoice& choice)
    {
        HubResult<HeaderProbe> r;
        bool done = false;
        m_client->probeHeader(repo, QStringLiteral("main"), choice, [&](const HubResult<HeaderProbe>& p) {
            r = p;
            done = true;
        });
        if (!QTest::qWaitFor([&] { return done; }, 15000))
            r.error = {HubErrorKind::Timeout, QStringLiteral("the test timed out")};
        return r;
    }

    // A split set: every part's header is read (each lists its own
    // tensors), and where it fits is the engine's own plan for the whole
    // model, the GPU included: the same figures as for the files on disk.
    void headerCheckPlansTheWholeSplitSet()
    {
        const QString repo = QStringLiteral("test/Split-GGUF");
        const QList<ModelFileChoice> choices = HubNames::ggufChoices(files(repo).value.files);
        QCOMPARE(choices.size(), 1);
        QCOMPARE(choices.front().parts.size(), 2);
        const hearth::gguf::File local(m_hub.filePath(QStringLiteral("llama-F32-00001-of-00002.gguf")).toStdString());
        QCOMPARE(local.tensors().size(), size_t(38));
        const int ctx = 2048; // the trained context (under the 8,192 cap)
        const uint64_t GiB = uint64_t(1) << 30;
        struct Case {
            int ngl;
            hearth::DeviceBudget device;
            FitEstimate::Place place;
        };
        const FitEstimate all = FitEstimator::estimate(local, ctx, -1, {true, 64 * GiB}, qint64(64 * GiB));
        // A device whose free memory less the auto margin (a quarter, below
        // 256 MiB) holds two layers: auto offloads two of five.
        const uint64_t twoLayers =
            uint64_t(FitEstimator::estimate(local, ctx, 2, {true, 64 * GiB}, qint64(64 * GiB)).gpuRequiredBytes);
        const hearth::DeviceBudget two{true, (twoLayers * 4 + 2) / 3};
        for (const Case& c :
             {Case{-1, {true, 64 * GiB}, FitEstimate::Place::Gpu}, Case{-1, two, FitEstimate::Place::Split},
              Case{-1, {}, FitEstimate::Place::Ram}, Case{0, {true, 64 * GiB}, FitEstimate::Place::Ram}}) {
            m_client->setFitGpuLayers(c.ngl);
            m_client->setFitDevice(c.device);
            m_hub.reset();
            const HubResult<HeaderProbe> r = probe(repo, choices.front());
            QVERIFY2(r.ok(), qPrintable(r.error.message));
            const FitEstimate want = FitEstimator::estimate(local, ctx, c.ngl, c.device, qint64(64 * GiB));
            QCOMPARE(r.value.fit.place(), c.place);
            QCOMPARE(r.value.fit.gpuLayers, want.gpuLayers);
            QCOMPARE(r.value.fit.layerCount, 5); // 4 layers and the output layer
            QCOMPARE(r.value.fit.requiredBytes, want.requiredBytes);
            QCOMPARE(r.value.fit.gpuRequiredBytes, want.gpuRequiredBytes);
            QCOMPARE(r.value.facts.parameters, hearth::gguf::summarize(local).parameters);
            // Both headers were read, none of the weights.
            QCOMPARE(m_hub.bytesServed(), r.value.bytesRead);
            QVERIFY(r.value.bytesRead >= qint64(local.dataOffset()));
            QVERIFY(r.value.bytesRead <= 2 * kFirstRange);
            QCOMPARE(rangeStarts().size(), 2); // one range per part
        }
        QCOMPARE(all.gpuLayers, 5);
        QCOMPARE(all.place(), FitEstimate::Place::Gpu);
        m_client->setFitGpuLayers(0);
        m_client->setFitDevice(std::nullopt);
    }

    void headerCheckRefusesJunk()
    {
        const HubResult<RepoFiles> list = files(QStringLiteral("test/Junk-GGUF"));
        const ModelFileChoice choice = HubNames::ggufChoices(list.value.files).front();
        bool done = false;
        HubResult<HeaderProbe> r;
        m_client->probeHeader(QStringLiteral("test/Junk-GGUF"), QStringLiteral("main"), choice, [&](const auto& p) {
            r = p;
            done = true;
        });
        QTRY_VERIFY(done);
        QCOMPARE(r.error.kind, HubErrorKind::Invalid);
        QVERIFY2(r.error.message.contains(QLatin1String("not a valid GGUF")), qPrintable(r.error.message));
        QVERIFY(m_hub.bytesServed() <= 64 * 1024);
    }

    void fullDownloadVerified()
    {
        auto m = manager();
        QSignalSpy progress(m.get(), &DownloadManager::changed);
        const DownloadInfo info = run(*m, spec(kRepo, kQ4));
        QVERIFY2(info.state == State::Done, qPrintable(info.error.message));
        QCOMPARE(info.path, m_models->filePath(kRepo + QLatin1Char('/') + kQ4));
        QCOMPARE(sha256Of(info.path), m_hub.sha256(kQ4));
        QCOMPARE(filesOnDisk(), QStringList{kQ4});
        QCOMPARE(m_hub.bytesServed(), m_hub.fileSize(kQ4));
        QCOMPARE(info.received, info.total);
        QVERIFY(progress.size() >= 3);
    }

    void resumesAfterDropsInProcess()
    {
        m_hub.control({{QStringLiteral("cuts"), QJsonArray{0.3, 0.6, 0.9}}});
        auto m = manager();
        const DownloadInfo info = run(*m, spec(kRepo, kQ4));
        QVERIFY2(info.state == State::Done, qPrintable(info.error.message));
        const qint64 size = m_hub.fileSize(kQ4);
        QCOMPARE(sha256Of(info.path), m_hub.sha256(kQ4));
        // Each resume asked for exactly the bytes after a drop. (QtNetwork may
        // itself re-send a request that met a closing connection; those carry
        // the original Range and are left out here.)
        const QList<qint64> cuts{qint64(0.3 * size), qint64(0.6 * size), qint64(0.9 * size)};
        QList<qint64> resumed;
        for (qint64 start : rangeStarts())
            if (start > 0 && (resumed.isEmpty() || start > resumed.last()))
                resumed.append(start);
        for (qint64 start : resumed)
            QVERIFY2(cuts.contains(start), qPrintable(QString::number(start)));
        QVERIFY(resumed.size() >= 2);
        QCOMPARE(info.retries, resumed.size());
        QCOMPARE(filesOnDisk(), QStringList{kQ4});
    }

    void resumesAfterRestart_data()
    {
        QTest::addColumn<double>("cut");
        QTest::newRow("30%") << 0.3;
        QTest::newRow("60%") << 0.6;
        QTest::newRow("90%") << 0.9;
    }

    void resumesAfterRestart()
    {
        QFETCH(double, cut);
        const qint64 size = m_hub.fileSize(kQ4);
        const QString state = m_stateDir.filePath(QStringLiteral("downloads.json"));
        QFile::remove(state);
        const DownloadSpec s = spec(kRepo, kQ4);
        m_hub.control({{QStringLiteral("cuts"), QJsonArray{cut}}});
        {
            auto first = manager();
            first->setMaxRetries(0);
            first->setStateFile(state);
            const DownloadInfo info = run(*first, s);
            QCOMPARE(info.state, State::Failed);
            QVERIFY2(info.error.message.contains(QLatin1String("Resume")), qPrintable(info.error.message));
            QCOMPARE(info.received, qint64(cut * size));
            // Only the hidden partial file: nothing the model library would list.
            QCOMPARE(filesOnDisk(), (QStringList{kQ4 + QLatin1String(".part"), kQ4 + QLatin1String(".part.json")}));
        } // the process ends
        auto second = manager();
        second->setStateFile(state);
        QCOMPARE(second->downloads().size(), 1);
        QCOMPARE(second->downloads().front().state, State::Failed);
        QCOMPARE(second->downloads().front().received, qint64(cut * size));
        second->resume(s.id());
        QTRY_VERIFY_WITH_TIMEOUT(second->info(s.id()).state == State::Done, 20000);
        QCOMPARE(sha256Of(second->info(s.id()).path), m_hub.sha256(kQ4));
        QList<qint64> ranged = rangeStarts();
        ranged.removeAll(0);
        QCOMPARE(ranged, QList<qint64>{qint64(cut * size)}); // from the .part's end, not from zero
        QVERIFY(filesOnDisk().contains(kQ4));
        QVERIFY(!filesOnDisk().contains(kQ4 + QLatin1String(".part")));
    }

    void resumesWhatWasRunningAtQuit()
    {
        const QString state = m_stateDir.filePath(QStringLiteral("downloads.json"));
        QFile::remove(state);
        const DownloadSpec s = spec(kRepo, kQ4);
        m_hub.control({{QStringLiteral("rate"), 4 << 20}}); // about half a second for the file
        {
            auto first = manager();
            first->setStateFile(state);
            first->start(s);
            QTRY_VERIFY_WITH_TIMEOUT(first->info(s.id()).received > s.totalBytes() / 4, 10000);
        } // quit mid-download
        m_hub.control({{QStringLiteral("rate"), QJsonValue::Null}});
        const qint64 left = QFileInfo(s.targetPath(0) + QLatin1String(".part")).size();
        QVERIFY(left > 0);
        auto second = manager();
        second->setStateFile(state); // starts again by itself
        QTRY_VERIFY_WITH_TIMEOUT(second->info(s.id()).state == State::Done, 20000);
        QCOMPARE(sha256Of(s.targetPath(0)), m_hub.sha256(kQ4));
        QCOMPARE(rangeStarts().last(), left);
    }

    void hashMismatchLeavesNothing()
    {
        auto m = manager();
        const DownloadInfo info = run(*m, spec(QStringLiteral("test/Wrong-GGUF"), kQ4));
        QCOMPARE(info.state, State::Failed);
        QCOMPARE(info.error.kind, HubErrorKind::Invalid);
        QVERIFY2(info.error.message.contains(QLatin1String("SHA-256")), qPrintable(info.error.message));
        QCOMPARE(filesOnDisk(), QStringList());
    }

    void unauthorizedThenToken()
    {
        const QString repo = QStringLiteral("test/Private-GGUF");
        const HubResult<RepoFiles> refused = files(repo);
        QCOMPARE(refused.error.kind, HubErrorKind::Auth);
        QVERIFY2(refused.error.message.contains(QLatin1String("token")), qPrintable(refused.error.message));
        m_client->setToken(QStringLiteral("hf_wrong"));
        QCOMPARE(files(repo).error.kind, HubErrorKind::Auth);
        m_client->setToken(FakeHub::token());
        const HubResult<RepoFiles> allowed = files(repo);
        QVERIFY2(allowed.ok(), qPrintable(allowed.error.message));
        auto m = manager();
        const DownloadInfo info = run(*m, spec(repo, kQ4));
        QVERIFY2(info.state == State::Done, qPrintable(info.error.message));
        // And the file request itself needs the token too.
        m_client->setToken({});
        DownloadSpec again = spec(QStringLiteral("test/Tiny-GGUF"), kQ4);
        again.repo = repo;
        again.folder = m_models->filePath(QStringLiteral("other"));
        const DownloadInfo refusedFile = run(*m, again);
        QCOMPARE(refusedFile.error.kind, HubErrorKind::Auth);
        QVERIFY(!QFileInfo::exists(again.targetPath(0)));
    }

    void notFound()
    {
        const HubResult<RepoFiles> r = files(QStringLiteral("test/No-Such-Repo"));
        QCOMPARE(r.error.kind, HubErrorKind::NotFound);
        QVERIFY2(r.error.message.contains(QLatin1String("test/No-Such-Repo")), qPrintable(r.error.message));
        QCOMPARE(files(QStringLiteral("../etc")).error.kind, HubErrorKind::Invalid);
        DownloadSpec s = spec(kRepo, kQ4);
        s.parts.front().path = QStringLiteral("gone.gguf");
        auto m = manager();
        const DownloadInfo info = run(*m, s);
        QCOMPARE(info.error.kind, HubErrorKind::NotFound);
        QVERIFY2(info.error.message.contains(QLatin1String("gone.gguf")), qPrintable(info.error.message));
        QCOMPARE(filesOnDisk(), QStringList());
    }

    void stalledServerTimesOut()
    {
        m_hub.control({{QStringLiteral("stall_after"), 0}}); // headers, then silence
        m_client->setStallTimeoutMs(1000);
        auto m = manager();
        m->setMaxRetries(1);
        QElapsedTimer clock;
        clock.start();
        const DownloadInfo info = run(*m, spec(kRepo, kQ4));
        m_hub.control({{QStringLiteral("stall_after"), QJsonValue::Null}});
        QCOMPARE(info.state, State::Failed);
        QCOMPARE(info.error.kind, HubErrorKind::Timeout);
        QVERIFY2(info.error.message.contains(QLatin1String("sent nothing for 1 s")), qPrintable(info.error.message));
        QVERIFY(clock.elapsed() < 10000);
        QVERIFY(!filesOnDisk().contains(kQ4));
    }

    void notEnoughDiskSpace()
    {
        auto m = manager();
        m->setFreeSpace([](const QString&) { return qint64(1000); });
        const DownloadInfo info = run(*m, spec(kRepo, kQ4));
        QCOMPARE(info.error.kind, HubErrorKind::Disk);
        QVERIFY2(info.error.message.contains(QLatin1String("Not enough disk space")), qPrintable(info.error.message));
        QCOMPARE(rangeStarts(), QList<qint64>());
        QCOMPARE(filesOnDisk(), QStringList());
    }

    void diskFullWhileWriting()
    {
        auto m = manager();
        m->setSinkFactory([](const QString& path) { return std::make_unique<FullDiskFile>(path, 1 << 20); });
        const DownloadInfo info = run(*m, spec(kRepo, kQ4));
        QCOMPARE(info.error.kind, HubErrorKind::Disk);
        QVERIFY2(info.error.message.contains(QLatin1String("No space left on device")), qPrintable(info.error.message));
        QCOMPARE(filesOnDisk(), QStringList());
    }

    void sameFileTwiceIsOneDownload()
    {
        auto m = manager();
        const DownloadSpec s = spec(kRepo, kQ4);
        const QString a = m->start(s);
        const QString b = m->start(s);
        QCOMPARE(a, b);
        QCOMPARE(m->downloads().size(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(m->info(a).state == State::Done, 20000);
        QCOMPARE(filesOnDisk(), QStringList{kQ4});
        QCOMPARE(m_hub.bytesServed(), s.totalBytes());
        // A second process (its own manager) asking meanwhile is refused by the lock.
    }

    void sameFileFromTwoManagers()
    {
        m_hub.control({{QStringLiteral("rate"), 4 << 20}});
        const DownloadSpec s = spec(kRepo, kQ4);
        auto first = manager(), second = manager();
        first->start(s);
        QTRY_VERIFY(first->info(s.id()).state == State::Running);
        const DownloadInfo other = run(*second, s);
        QCOMPARE(other.state, State::Failed);
        QVERIFY2(other.error.message.contains(QLatin1String("another Hearth process")),
                 qPrintable(other.error.message));
        m_hub.control({{QStringLiteral("rate"), QJsonValue::Null}});
        QTRY_VERIFY_WITH_TIMEOUT(first->info(s.id()).state == State::Done, 20000);
        QCOMPARE(filesOnDisk(), QStringList{kQ4});
    }

    void boundedConcurrencyPauseResumeCancel()
    {
        m_hub.control({{QStringLiteral("rate"), 2 << 20}});
        auto m = manager();
        m->setMaxConcurrent(1);
        const DownloadSpec q4 = spec(kRepo, kQ4), q8 = spec(kRepo, QStringLiteral("tiny-Q8_0.gguf"));
        m->start(q4);
        m->start(q8);
        QTRY_VERIFY(m->info(q4.id()).received > 0);
        QCOMPARE(m->info(q8.id()).state, State::Queued);
        QVERIFY(m->info(q4.id()).bytesPerSecond > 0 || m->info(q4.id()).received < 200000);
        m->pause(q4.id());
        QCOMPARE(m->info(q4.id()).state, State::Paused);
        QTRY_VERIFY(m->info(q8.id()).state == State::Running); // the slot went to the next
        m->cancel(q8.id());
        QCOMPARE(m->downloads().size(), 1);
        QTRY_VERIFY(!QFileInfo::exists(q8.targetPath(0) + QLatin1String(".part")));
        m_hub.control({{QStringLiteral("rate"), QJsonValue::Null}});
        const qint64 before = m->info(q4.id()).received;
        QVERIFY(before > 0);
        m->resume(q4.id());
        QTRY_VERIFY_WITH_TIMEOUT(m->info(q4.id()).state == State::Done, 20000);
        QCOMPARE(sha256Of(q4.targetPath(0)), m_hub.sha256(kQ4));
        QCOMPARE(filesOnDisk(), QStringList{kQ4});
    }

    void splitModelAsOne()
    {
        const QString first = QStringLiteral("tiny-F16-00001-of-00002.gguf");
        m_hub.control({{QStringLiteral("cuts"), QJsonArray{0.5}}}); // a drop in the first part
        auto m = manager();
        QStringList seenBeforeDone;
        connect(m.get(), &DownloadManager::changed, this, [&](const DownloadInfo& i) {
            if (i.state != State::Done)
                for (const QString& f : filesOnDisk())
                    if (f.endsWith(QLatin1String(".gguf")))
                        seenBeforeDone.append(f);
        });
        const DownloadInfo info = run(*m, spec(kRepo, first));
        QVERIFY2(info.state == State::Done, qPrintable(info.error.message));
        QCOMPARE(info.path, m_models->filePath(kRepo + QLatin1Char('/') + first));
        QCOMPARE(filesOnDisk(), (QStringList{first, QStringLiteral("tiny-F16-00002-of-00002.gguf")}));
        QCOMPARE(sha256Of(m_models->filePath(kRepo + QLatin1String("/tiny-F16-00002-of-00002.gguf"))),
                 m_hub.sha256(QStringLiteral("tiny-F16-00002-of-00002.gguf")));
        QCOMPARE(seenBeforeDone, QStringList()); // no part was visible before all were verified
    }
};

QTEST_GUILESS_MAIN(TestDownloads)
#include "test_downloads.moc"

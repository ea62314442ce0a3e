// The picker's "Quantize…" job on a synthetic F16 model in a session's
// models folder: each mix's estimate is planQuantize's; a real run writes
// `<base>.<TYPE>.gguf` with the planned types, reports progress, and the file
// joins the library and loads; a cancel mid-way, a full disk and a folder
// that cannot be written leave no file and say why; an existing name is
// never overwritten; an already-quantized source needs allowRequantize; the
// real SmolLM2 file requantized to Q8_0 runs in the real engine.

#include "AppTestSupport.h"
#include "QuantizeFixture.h"

#include "gguf/gguf.h"
#include "models/ModelListModel.h"
#include "models/QuantizeJob.h"
#include "quantize/quantizer.h"
#include "test_support.h"

#ifdef HEARTH_HAVE_CORE_RUNTIME
#include "engine/CoreEngine.h"
#endif

#include <QDirIterator>
#include <QSignalSpy>

using namespace hearth;

namespace {

// Every file in `folder` (names), for "nothing was left" checks.
QStringList filesIn(const QString& folder)
{
    QStringList names;
    QDirIterator it(folder, QDir::Files);
    while (it.hasNext())
        names << QFileInfo(it.next()).fileName();
    names.sort();
    return names;
}

QVariantMap typeOf(const QuantizeJob& job, const QString& name)
{
    for (const QVariant& t : job.types())
        if (t.toMap().value(QStringLiteral("name")).toString() == name)
            return t.toMap();
    return {};
}

bool waitSettled(QuantizeJob& job, int timeoutMs = 60000)
{
    return QTest::qWaitFor([&] { return !job.busy(); }, timeoutMs);
}

} // namespace

class TestQuantizeJob : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestSession> m_session;
    QString m_models, m_source;

    // A job on `source` (the session's F16 model by default), its types listed.
    std::unique_ptr<QuantizeJob> makeJob(const QString& source = {})
    {
        auto job = std::make_unique<QuantizeJob>();
        job->setLibrary(m_session->session->library());
        job->setSource(source.isEmpty() ? m_source : source);
        if (!waitSettled(*job) || job->state() != QuantizeJob::Ready)
            qWarning("estimate: %s", qPrintable(job->error()));
        return job;
    }

private slots:
    void init()
    {
        m_session = std::make_unique<TestSession>();
        m_models = m_session->dir.filePath(QStringLiteral("models"));
        m_source = m_models + QStringLiteral("/Test-Model-F16.gguf");
        testsupport::writeQuantizeModel(m_source.toStdString());
    }

    void cleanup() { m_session.reset(); }

    void baseNames()
    {
        QCOMPARE(QuantizeJob::baseName(QStringLiteral("SmolLM2-135M-Instruct.Q4_1.gguf")),
                 QStringLiteral("SmolLM2-135M-Instruct"));
        QCOMPARE(QuantizeJob::baseName(QStringLiteral("gemma-3-270m-q4_k_m.gguf")), QStringLiteral("gemma-3-270m"));
        QCOMPARE(QuantizeJob::baseName(QStringLiteral("all-MiniLM-L6-v2.F16.gguf")),
                 QStringLiteral("all-MiniLM-L6-v2"));
        QCOMPARE(QuantizeJob::baseName(QStringLiteral("big-Q8_0-00001-of-00003.gguf")), QStringLiteral("big"));
        // Numbers are llama-quantize's ids too, but "phi-2" is no mix.
        QCOMPARE(QuantizeJob::baseName(QStringLiteral("phi-2.gguf")), QStringLiteral("phi-2"));
        QCOMPARE(QuantizeJob::baseName(QStringLiteral("model_IQ2_XXS.gguf")), QStringLiteral("model_IQ2_XXS"));
    }

    void estimatesArePlanQuantizes()
    {
        const auto job = makeJob();
        QCOMPARE(job->state(), QuantizeJob::Ready);
        QVERIFY(!job->sourceQuantized());
        const auto& mixes = quantize::allMixes();
        QCOMPARE(job->types().size(), qsizetype(mixes.size()));
        const qint64 fileSize = QFileInfo(m_source).size();
        for (size_t i = 0; i < mixes.size(); ++i) {
            const QVariantMap t = job->types()[qsizetype(i)].toMap();
            const QString name = QString::fromLatin1(mixes[i].name.data(), qsizetype(mixes[i].name.size()));
            QCOMPARE(t.value(QStringLiteral("name")).toString(), name);
            quantize::QuantizeOptions o;
            o.input = m_source.toStdString();
            o.mix = mixes[i].mix;
            const quantize::QuantizeResult plan = quantize::planQuantize(o);
            QCOMPARE(qint64(t.value(QStringLiteral("tensorBytes")).toDouble()), qint64(plan.bytesOut));
            QCOMPARE(t.value(QStringLiteral("bpw")).toDouble(), plan.bpwOut());
            QCOMPARE(qint64(t.value(QStringLiteral("fileBytes")).toDouble()),
                     fileSize - qint64(plan.bytesIn) + qint64(plan.bytesOut));
            QVERIFY(!t.value(QStringLiteral("sizeText")).toString().isEmpty());
            QVERIFY(!t.value(QStringLiteral("requantize")).toBool());
            // F16 to F16 changes nothing: listed, not offered, with the reason.
            const bool same = mixes[i].mix == quantize::Mix::F16;
            QCOMPARE(t.value(QStringLiteral("available")).toBool(), !same);
            QCOMPARE(t.value(QStringLiteral("reason")).toString().contains(QStringLiteral("already F16")), same);
        }
        QCOMPARE(job->types()[job->recommended()].toMap().value(QStringLiteral("name")).toString(),
                 QStringLiteral("Q4_K_M"));
        QVERIFY(!job->start(QStringLiteral("F16")));
        QVERIFY2(job->error().contains(QStringLiteral("already F16")), qPrintable(job->error()));
        QVERIFY(!job->start(QStringLiteral("Q9_X")));
        QVERIFY2(job->error().contains(QStringLiteral("Q9_X")), qPrintable(job->error()));
    }

    void quantizesIntoTheLibrary()
    {
        const auto job = makeJob();
        const QVariantMap t = typeOf(*job, QStringLiteral("Q4_K_M"));
        const QString expected = m_models + QStringLiteral("/Test-Model.Q4_K_M.gguf");
        QCOMPARE(job->outputPathFor(QStringLiteral("Q4_K_M")), expected);
        QSignalSpy progress(job.get(), &QuantizeJob::progressChanged);
        QSignalSpy added(m_session->session->library(), &ModelLibrary::fileAdded);
        QVERIFY(job->start(QStringLiteral("Q4_K_M")));
        QCOMPARE(job->state(), QuantizeJob::Running);
        QVERIFY(waitSettled(*job));
        QCOMPARE(job->state(), QuantizeJob::Done);
        QCOMPARE(job->error(), QString());
        QCOMPARE(job->resultPath(), expected);
        QVERIFY2(job->message().contains(QStringLiteral("Test-Model.Q4_K_M.gguf")), qPrintable(job->message()));
        QVERIFY(progress.count() >= 2);
        QCOMPARE(job->progress(), 1.0);
        QCOMPARE(job->tensor(), job->tensors());
        QVERIFY2(job->progressText().startsWith(QStringLiteral("Tensor %1 of %1 · ").arg(job->tensors())) &&
                     job->progressText().endsWith(QStringLiteral(" · 100%")),
                 qPrintable(job->progressText()));

        // The planned types, a valid file, about the estimated size.
        quantize::QuantizeOptions o;
        o.input = m_source.toStdString();
        o.mix = quantize::Mix::Q4_K_M;
        const quantize::QuantizeResult plan = quantize::planQuantize(o);
        const gguf::File written(expected.toStdString());
        QCOMPARE(written.tensors().size(), plan.tensors.size());
        for (const quantize::TensorReport& r : plan.tensors)
            QCOMPARE(int(written.findTensor(r.name)->type), int(r.to));
        const qint64 estimate = qint64(t.value(QStringLiteral("fileBytes")).toDouble());
        QVERIFY2(qAbs(QFileInfo(expected).size() - estimate) <= 4096,
                 qPrintable(QStringLiteral("%1 vs %2").arg(QFileInfo(expected).size()).arg(estimate)));
        QVERIFY(!QFileInfo::exists(expected + QStringLiteral(".tmp")));

        // In the library (without a rescan), with its new quant, and loadable.
        QVERIFY(added.wait(10000));
        QCOMPARE(added[0][0].toString(), expected);
        ModelListModel* models = m_session->session->library()->models();
        const int row = models->rowOf(expected);
        QVERIFY(row >= 0);
        QCOMPARE(models->data(models->index(row), ModelListModel::QuantRole).toString(), QStringLiteral("Q4_K_M"));
        QCOMPARE(models->data(models->index(row), ModelListModel::ErrorRole).toString(), QString());
        m_session->session->library()->load(expected);
        QTRY_VERIFY_WITH_TIMEOUT(m_session->session->loader()->loaded(), 10000);
        QCOMPARE(m_session->session->loader()->modelPath(), expected);
    }

    void neverOverwrites()
    {
        const QString taken = m_models + QStringLiteral("/Test-Model.Q8_0.gguf");
        {
            QFile f(taken);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("someone else's file");
        }
        const auto job = makeJob();
        const QString second = m_models + QStringLiteral("/Test-Model.Q8_0-2.gguf");
        QCOMPARE(job->outputPathFor(QStringLiteral("Q8_0")), second);
        QVERIFY(job->start(QStringLiteral("Q8_0")));
        QVERIFY(waitSettled(*job));
        QCOMPARE(job->state(), QuantizeJob::Done);
        QCOMPARE(job->resultPath(), second);
        QFile f(taken);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("someone else's file"));
        QCOMPARE(job->outputPathFor(QStringLiteral("Q8_0")), m_models + QStringLiteral("/Test-Model.Q8_0-3.gguf"));
    }

    void cancelMidwayLeavesNothing()
    {
        testsupport::QuantizeModel big;
        big.layers = 6;
        testsupport::writeQuantizeModel(m_source.toStdString(), big);
        const auto job = makeJob();
        const QStringList before = filesIn(m_models);
        size_t cancelledAt = 0, total = 0;
        job->setObserver([&, j = job.get()](size_t tensor, size_t tensors) {
            if (tensor == 5 && cancelledAt == 0) {
                cancelledAt = tensor;
                total = tensors;
                j->cancel();
            }
        });
        QSignalSpy finished(job.get(), &QuantizeJob::finished);
        QVERIFY(job->start(QStringLiteral("Q4_K_M")));
        QVERIFY(finished.wait(60000));
        QCOMPARE(job->state(), QuantizeJob::Cancelled);
        QCOMPARE(cancelledAt, size_t(5));
        QVERIFY(total > cancelledAt + 1); // mid-way
        QVERIFY(job->tensor() <= 5);
        QCOMPARE(job->error(), QString());
        QVERIFY(job->message().contains(QStringLiteral("nothing was written")));
        QCOMPARE(filesIn(m_models), before);
        QCOMPARE(job->resultPath(), QString());
        // And it can run again afterwards.
        job->setObserver({});
        QVERIFY(job->start(QStringLiteral("Q8_0")));
        QVERIFY(waitSettled(*job));
        QCOMPARE(job->state(), QuantizeJob::Done);
    }

    void refusesWithoutDiskSpace()
    {
        const auto job = makeJob();
        job->setFreeSpace([](const QString&) { return qint64(1000); });
        QVERIFY(!job->start(QStringLiteral("Q8_0")));
        QCOMPARE(job->state(), QuantizeJob::Ready);
        QVERIFY2(job->error().contains(QStringLiteral("Not enough disk space")), qPrintable(job->error()));
        QVERIFY2(job->error().contains(m_models), qPrintable(job->error()));
        QCOMPARE(filesIn(m_models), QStringList({"Test-Model-F16.gguf", "broken.gguf", "tiny.gguf"}));
    }

    void unwritableFolderSaysSo()
    {
        const auto job = makeJob();
        // A path through a file: no user, root included, can create a file under it.
        job->setOutputFolder(m_source + QStringLiteral("/sub"));
        QVERIFY(!job->start(QStringLiteral("Q8_0")));
        QVERIFY2(job->error().contains(QStringLiteral("is not a folder")), qPrintable(job->error()));
        // A folder that goes away between the check and the write: the quantizer's own error.
        const QString gone = m_session->dir.filePath(QStringLiteral("gone"));
        QDir().mkpath(gone);
        job->setOutputFolder(gone);
        job->setFreeSpace([&](const QString&) {
            QDir(gone).removeRecursively();
            return qint64(-1);
        });
        QVERIFY(job->start(QStringLiteral("Q8_0")));
        QVERIFY(waitSettled(*job));
        QCOMPARE(job->state(), QuantizeJob::Failed);
        QVERIFY2(job->error().startsWith(QStringLiteral("Quantizing to Q8_0 failed: ")), qPrintable(job->error()));
        QVERIFY2(job->error().contains(QStringLiteral("gone")), qPrintable(job->error()));
        QVERIFY(!QFileInfo::exists(gone));
    }

    void requantizeNeedsConsent()
    {
        const QString q8 = m_models + QStringLiteral("/Small.Q8_0.gguf");
        testsupport::QuantizeModel m;
        m.weights = GgmlType::Q8_0;
        m.fileType = 7;
        testsupport::writeQuantizeModel(q8.toStdString(), m);
        const auto job = makeJob(q8);
        QCOMPARE(job->state(), QuantizeJob::Ready);
        QVERIFY(job->sourceQuantized());
        const QVariantMap q4 = typeOf(*job, QStringLiteral("Q4_K_M"));
        QVERIFY(q4.value(QStringLiteral("available")).toBool());
        QVERIFY(q4.value(QStringLiteral("requantize")).toBool());
        QVERIFY(q4.value(QStringLiteral("reason")).toString().contains(QStringLiteral("lower quality")));
        QVERIFY(!typeOf(*job, QStringLiteral("Q8_0")).value(QStringLiteral("available")).toBool());
        QVERIFY(!job->start(QStringLiteral("Q4_K_M")));
        QVERIFY2(job->error().contains(QStringLiteral("allow requantizing")), qPrintable(job->error()));
        QVERIFY(job->start(QStringLiteral("Q4_K_M"), /*allowRequantize=*/true));
        QVERIFY(waitSettled(*job));
        QCOMPARE(job->state(), QuantizeJob::Done);
        QCOMPARE(job->resultPath(), m_models + QStringLiteral("/Small.Q4_K_M.gguf"));
    }

    // The real SmolLM2 file (Q4_1, as most downloads are quantized) to Q8_0:
    // the result loads in the real engine and answers. Skips without the model.
    void realModelRequantizedRunsInTheEngine()
    {
#ifndef HEARTH_HAVE_CORE_RUNTIME
        QSKIP("built without core/runtime");
#else
        HEARTH_REQUIRE_MODEL(path, smolLm2Path);
        const auto job = makeJob(QString::fromStdString(path));
        QCOMPARE(job->state(), QuantizeJob::Ready);
        QVERIFY(job->sourceQuantized());
        QVERIFY(typeOf(*job, QStringLiteral("Q8_0")).value(QStringLiteral("requantize")).toBool());
        job->setOutputFolder(m_models); // never the real models folder
        QVERIFY(job->start(QStringLiteral("Q8_0"), /*allowRequantize=*/true));
        QVERIFY(waitSettled(*job, 300000));
        QCOMPARE(job->state(), QuantizeJob::Done);
        QCOMPARE(job->resultPath(), m_models + QStringLiteral("/SmolLM2-135M-Instruct.Q8_0.gguf"));
        const qint64 estimate =
            qint64(typeOf(*job, QStringLiteral("Q8_0")).value(QStringLiteral("fileBytes")).toDouble());
        const qint64 written = QFileInfo(job->resultPath()).size();
        qInfo("SmolLM2 Q4_1 -> Q8_0: estimated %lld bytes, wrote %lld", estimate, written);
        QVERIFY(qAbs(written - estimate) <= 4096);

        CoreEngine engine;
        const std::atomic<bool> never{false};
        const ModelFacts facts = engine.load(job->resultPath(), {512, 2, 0}, {}, never);
        QCOMPARE(facts.quant, QStringLiteral("Q8_0"));
        SamplerSettings greedy;
        greedy.temperature = 0;
        greedy.maxTokens = 8;
        QString text;
        const GenerationStats stats = engine.generate(
            {{ChatTurn::Role::User, QStringLiteral("What is the capital of France?")}}, greedy,
            [&](const QString& piece, const GenerationStats&) { text += piece; }, never);
        QVERIFY(stats.generatedTokens > 0);
        QVERIFY2(!text.trimmed().isEmpty(), qPrintable(text));
#endif
    }

    void badSourceSaysWhy()
    {
        const auto job = makeJob(m_session->brokenPath);
        QCOMPARE(job->state(), QuantizeJob::Failed);
        QVERIFY2(job->error().contains(QStringLiteral("broken.gguf")), qPrintable(job->error()));
        QVERIFY(job->types().isEmpty());
        QVERIFY(!job->start(QStringLiteral("Q8_0")));
    }
};

QTEST_MAIN(TestQuantizeJob)
#include "test_quantize_job.moc"

// `hearth bench`: a quick smoke run on SmolLM2 (tiny tests, one or two
// runs) that checks the llama-bench fields of its JSON, that the figures
// are consistent with each other, the Markdown table's shape, and bad
// arguments. Speed itself is measured by bench/compare, never here.

#include "test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTest>

#include <cmath>

namespace {

struct Run {
    int code = -1;
    QByteArray out;
    QByteArray err;
};

Run runHearth(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(HEARTH_CLI), QStringList{QStringLiteral("bench")} + args);
    if (!p.waitForFinished(180000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
            p.readAllStandardError()};
}

// What the gguf package says about the file (tests/data/info).
QJsonObject infoOf(const char* name)
{
    QFile f(QString::fromStdString(testsupport::dataDir("info")) + QStringLiteral("/") + QLatin1String(name));
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject{};
}

} // namespace

class TestCliBench : public QObject {
    Q_OBJECT

private slots:
    void jsonHasLlamaBenchFields()
    {
        HEARTH_REQUIRE_MODEL(model, smolLm2Path);
        // -b 3: the 8-token prompt goes in batches of 3, 3 and 2.
        const Run r = runHearth({"-m", QString::fromStdString(model), "-p", "8", "-n", "4", "-t", "2", "-r", "2", "-b",
                                 "3", "-o", "json", "--rss"});
        QVERIFY2(r.code == 0, r.err.constData());
        QJsonParseError error{};
        const QJsonArray rows = QJsonDocument::fromJson(r.out, &error).array();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(rows.size(), 2);
        const QJsonObject info = infoOf("smollm2.json");
        QVERIFY(!info.isEmpty());
        for (int i = 0; i < 2; ++i) {
            const QJsonObject o = rows[i].toObject();
            QCOMPARE(o["model_filename"].toString(), QString::fromStdString(model));
            QVERIFY(o["model_type"].toString().startsWith(QStringLiteral("llama 135M")));
            QCOMPARE(o["model_size"].toDouble(), info["tensor_bytes"].toDouble());
            QCOMPARE(o["model_n_params"].toDouble(), info["parameters"].toDouble());
            QCOMPARE(o["n_threads"].toInt(), 2);
            QCOMPARE(o["n_batch"].toInt(), 3);
            QCOMPARE(o["n_prompt"].toInt(), i == 0 ? 8 : 0);
            QCOMPARE(o["n_gen"].toInt(), i == 0 ? 0 : 4);
            QCOMPARE(o["n_ctx"].toInt(), i == 0 ? 8 : 4); // llama-bench's n_prompt + n_gen
            QCOMPARE(o["backends"].toString(), QStringLiteral("CPU"));
            QVERIFY(!o["test_time"].toString().isEmpty());

            const QJsonArray ts = o["samples_ts"].toArray(), ns = o["samples_ns"].toArray();
            QCOMPARE(ts.size(), 2);
            QCOMPARE(ns.size(), 2);
            const int tokens = i == 0 ? 8 : 4;
            double sum = 0;
            for (int k = 0; k < 2; ++k) {
                QVERIFY(ns[k].toDouble() > 0);
                QVERIFY(std::abs(ts[k].toDouble() - 1e9 * tokens / ns[k].toDouble()) < 1e-3 * ts[k].toDouble());
                sum += ts[k].toDouble();
            }
            const double avg = o["avg_ts"].toDouble();
            QVERIFY(std::isfinite(avg) && avg > 0);
            QVERIFY(std::abs(avg - sum / 2) < 1e-4 * avg);
            // Sample standard deviation of two values: |a - b| / sqrt(2).
            const double sd = std::abs(ts[0].toDouble() - ts[1].toDouble()) / std::sqrt(2.0);
            QVERIFY(std::abs(o["stddev_ts"].toDouble() - sd) < 1e-4 * avg + 1e-6);

#if defined(__linux__)
            // The weights are resident (loaded and touched) during the test.
            const double peak = o["peak_rss_bytes"].toDouble(), start = o["start_rss_bytes"].toDouble();
            QVERIFY(start > 0);
            QVERIFY(peak - start > 0.8 * info["tensor_bytes"].toDouble());
            QVERIFY(peak < start + 4.0 * info["tensor_bytes"].toDouble());
            QCOMPARE(o["peak_rss_is_lifetime"].toBool(), false);
#endif
        }
    }

    void markdownTable()
    {
        HEARTH_REQUIRE_MODEL(model, smolLm2Path);
        const Run r =
            runHearth({"-m", QString::fromStdString(model), "-p", "4", "-n", "0", "-t", "1", "-r", "1", "--no-warmup"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QStringList lines = QString::fromUtf8(r.out).split(u'\n');
        QVERIFY(lines.size() >= 3);
        for (const char* column : {"model", "size", "params", "backend", "threads", "test", "t/s"})
            QVERIFY2(lines[0].contains(QLatin1String(column)), column);
        QVERIFY(lines[1].startsWith(QStringLiteral("| ---")));
        QVERIFY(lines[2].contains(QStringLiteral("llama 135M")));
        QVERIFY(lines[2].contains(QStringLiteral("pp4")));
        QVERIFY(lines[2].contains(QStringLiteral("±")));
        QVERIFY(!r.out.contains("tg")); // -n 0: no generation test
    }

    // -d: each test again after D tokens are in the cache (llama-bench's
    // --n-depth): its rows, names and n_ctx, and the cache really holds the
    // depth during the test (one cell fewer than depth + test fails).
    void depthRunsEachTestAfterACachedPrompt()
    {
        HEARTH_REQUIRE_MODEL(model, smolLm2Path);
        const QString file = QString::fromStdString(model);
        const Run r = runHearth({"-m", file, "-p", "8", "-n", "4", "-d", "0,24", "-t", "1", "-r", "2", "-o", "json"});
        QVERIFY2(r.code == 0, r.err.constData());
        const QJsonArray rows = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(rows.size(), 4);
        const int prompt[] = {8, 0, 8, 0}, gen[] = {0, 4, 0, 4}, depth[] = {0, 0, 24, 24};
        for (int i = 0; i < 4; ++i) {
            const QJsonObject o = rows[i].toObject();
            QCOMPARE(o["n_prompt"].toInt(), prompt[i]);
            QCOMPARE(o["n_gen"].toInt(), gen[i]);
            QCOMPARE(o["n_depth"].toInt(), depth[i]);
            QCOMPARE(o["n_ctx"].toInt(), prompt[i] + gen[i] + depth[i]);
            QCOMPARE(o["samples_ts"].toArray().size(), 2);
            QVERIFY(o["avg_ts"].toDouble() > 0);
        }

        // -ctk q8_0: the cache's type in the JSON.
        const Run q8 =
            runHearth({"-m", file, "-p", "8", "-n", "0", "-d", "24", "-r", "1", "-ctk", "q8_0", "-o", "json"});
        QVERIFY2(q8.code == 0, q8.err.constData());
        const QJsonObject q8row = QJsonDocument::fromJson(q8.out).array().at(0).toObject();
        QCOMPARE(q8row["type_k"].toString(), QStringLiteral("q8_0"));
        QCOMPARE(q8row["type_v"].toString(), QStringLiteral("q8_0"));

        const Run md = runHearth({"-m", file, "-p", "8", "-n", "0", "-d", "24", "-t", "1", "-r", "1"});
        QVERIFY2(md.code == 0, md.err.constData());
        QVERIFY2(md.out.contains("pp8 @ d24"), md.out.constData());

        QCOMPARE(runHearth({"-m", file, "-p", "8", "-n", "0", "-d", "24", "-c", "32", "-r", "1"}).code, 0);
        const Run small = runHearth({"-m", file, "-p", "8", "-n", "0", "-d", "24", "-c", "31", "-r", "1"});
        QCOMPARE(small.code, 1);
        QVERIFY2(!small.err.isEmpty(), "a cache too small for depth + test says so");
    }

    void badArguments()
    {
        QCOMPARE(runHearth({"-m", "x.gguf", "-d", "-4"}).code, 2);
        QCOMPARE(runHearth({"-m", "x.gguf", "-ctk", "q4_0"}).code, 2);                // not a KV cache type
        QCOMPARE(runHearth({"-m", "x.gguf", "-ctk", "q8_0", "-ctv", "f16"}).code, 2); // K and V share one
        QCOMPARE(runHearth({"-p", "8"}).code, 2);                                     // no model
        QCOMPARE(runHearth({"-m", "x.gguf", "-o", "csv"}).code, 2);                   // unknown format
        QCOMPARE(runHearth({"-m", "x.gguf", "-p", "8,-1"}).code, 2);
        QCOMPARE(runHearth({"-m", "x.gguf", "-r", "0"}).code, 2);
        const Run missing = runHearth({"-m", "/nonexistent/model.gguf", "-p", "4", "-n", "0"});
        QCOMPARE(missing.code, 1);
        QVERIFY(missing.err.contains("/nonexistent/model.gguf"));
    }
};

QTEST_GUILESS_MAIN(TestCliBench)
#include "test_cli_bench.moc"

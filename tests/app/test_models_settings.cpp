// The model library (header scan, cache by path/size/mtime, a bad file's
// message, files opened from elsewhere remembered) and the settings (global
// defaults, per-model overrides, clamping, the random seed recorded). Every
// list model passes QAbstractItemModelTester.

#include "AppTestSupport.h"
#include "engine/FakeEngine.h"
#include "models/ModelCache.h"
#include "models/ModelListModel.h"
#include "models/ModelScanner.h"
#include "settings/SettingsModel.h"
#include "settings/SettingsStore.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>

class TestModelsSettings : public QObject {
    Q_OBJECT

private slots:
    void scanReadsHeadersAndCaches()
    {
        QTemporaryDir dir;
        QDir(dir.path()).mkpath(QStringLiteral("a/nested"));
        const QString good = dir.filePath(QStringLiteral("a/nested/model.gguf"));
        testsupport::TinyModel spec;
        spec.name = "Nested";
        spec.architecture = "qwen2";
        QVERIFY(testsupport::writeTinyGguf(good.toStdString(), spec));
        QFile junk(dir.filePath(QStringLiteral("a/junk.gguf")));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("not gguf");
        junk.close();
        QFile other(dir.filePath(QStringLiteral("a/readme.txt")));
        QVERIFY(other.open(QIODevice::WriteOnly));
        other.close();

        const QString cacheFile = dir.filePath(QStringLiteral("cache.json"));
        FakeEngine engine;
        std::atomic<bool> cancel{false};
        {
            ModelCache cache(cacheFile);
            const QList<ModelEntry> entries =
                ModelScanner::scan({dir.filePath(QStringLiteral("a"))}, {}, cache, engine, 4096, cancel);
            QCOMPARE(entries.size(), 2);
            const ModelEntry& e = entries[0].isValid() ? entries[0] : entries[1];
            const ModelEntry& bad = entries[0].isValid() ? entries[1] : entries[0];
            QCOMPARE(e.name, QStringLiteral("Nested"));
            QCOMPARE(e.architecture, QStringLiteral("qwen2"));
            QCOMPARE(e.trainedContext, 2048);
            QVERIFY(e.requiredBytes > e.fileSize / 2);
            QVERIFY2(bad.error.contains(QStringLiteral("junk.gguf")), qPrintable(bad.error));
        }
        // Cached by path, size and mtime: found while unchanged...
        ModelCache cache(cacheFile);
        const QFileInfo fi(good);
        QVERIFY(cache.find(fi.canonicalFilePath(), fi.size(), fi.lastModified()).has_value());
        // ...and a changed file is read again.
        QVERIFY(!cache.find(fi.canonicalFilePath(), fi.size() + 1, fi.lastModified()).has_value());
        cache.setSha256(fi.canonicalFilePath(), fi.size(), fi.lastModified(), QStringLiteral("abc"));
        QCOMPARE(cache.sha256(fi.canonicalFilePath(), fi.size(), fi.lastModified()), QStringLiteral("abc"));
        QCOMPARE(ModelScanner::sha256(good, cancel),
                 QString::fromLatin1(QCryptographicHash::hash(
                                         [&] {
                                             QFile f(good);
                                             return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
                                         }(),
                                         QCryptographicHash::Sha256)
                                         .toHex()));
    }

    void libraryOpensFilesAndPassesTheModelTester()
    {
        TestSession test;
        ModelListModel* models = test.session->library()->models();
        QAbstractItemModelTester tester(models, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy scanned(test.session->library(), &ModelLibrary::scanFinished);
        test.session->library()->rescan();
        QVERIFY(scanned.wait(5000));
        QCOMPARE(models->rowCount(), 2);

        // A file outside the folders: validated, listed, loaded, remembered.
        QTemporaryDir elsewhere;
        const QString path = elsewhere.filePath(QStringLiteral("outside.gguf"));
        QVERIFY(testsupport::writeTinyGguf(path.toStdString()));
        test.session->library()->openPath(path);
        QTRY_VERIFY(test.session->loader()->loaded());
        QCOMPARE(models->rowCount(), 3);
        const int row = models->rowOf(QFileInfo(path).canonicalFilePath());
        QVERIFY(row >= 0);
        QVERIFY(models->data(models->index(row), ModelListModel::LoadedRole).toBool());
        QCOMPARE(models->data(models->index(row), ModelListModel::QuantRole).toString(), QStringLiteral("F32"));
        QVERIFY(!models->data(models->index(row), ModelListModel::FitTextRole).toString().isEmpty());
        QSettings settings(test.dataDir + QStringLiteral("/settings.ini"), QSettings::IniFormat);
        QVERIFY(settings.value(QStringLiteral("library/files")).toStringList().contains(models->entries()[row].path));

        // The hash arrives in the background and is cached.
        QTRY_VERIFY(!test.session->loader()->sha256().isEmpty());
        QCOMPARE(test.session->loader()->sha256().size(), 64);

        test.session->library()->openPath(test.brokenPath);
        QTRY_VERIFY(!test.session->library()->error().isEmpty());
        QVERIFY(test.session->loader()->loaded()); // the loaded model stays
    }

    // The picker says where a model fits: the GPU, GPU and RAM, RAM, or
    // not (and why), from the estimate's figures (synthetic budgets here;
    // core's test_fit_plan checks how the engine reaches them).
    void pickerSaysWhereItFits()
    {
        ModelListModel model;
        const qint64 mb = 1000 * 1000;
        ModelEntry e;
        e.path = QStringLiteral("/m/a.gguf");
        e.name = QStringLiteral("A");
        e.requiredBytes = 600 * mb;
        e.availableBytes = 4000 * mb;
        e.layerCount = 31;
        const auto place = [&](const ModelEntry& entry) {
            model.setEntries({entry});
            return model.data(model.index(0), ModelListModel::FitPlaceRole).toString();
        };
        const auto text = [&] { return model.data(model.index(0), ModelListModel::FitTextRole).toString(); };
        const auto fits = [&] { return model.data(model.index(0), ModelListModel::FitsRole).toBool(); };

        QCOMPARE(place(e), QStringLiteral("ram"));
        QVERIFY2(text().startsWith(QStringLiteral("in RAM")), qPrintable(text()));
        QVERIFY(fits());

        e.gpuLayers = 31;
        e.gpuRequiredBytes = 500 * mb;
        e.gpuAvailableBytes = 8000 * mb;
        QCOMPARE(place(e), QStringLiteral("gpu"));
        QVERIFY2(text().startsWith(QStringLiteral("on the GPU")) && text().contains(QStringLiteral("(100 MB in RAM)")),
                 qPrintable(text()));

        e.gpuLayers = 12;
        e.gpuRequiredBytes = 200 * mb;
        QCOMPARE(place(e), QStringLiteral("split"));
        QVERIFY2(text().startsWith(QStringLiteral("12 of 31 layers on the GPU")), qPrintable(text()));

        e.gpuAvailableBytes = 150 * mb; // an explicit -ngl that the device cannot hold
        QCOMPARE(place(e), QStringLiteral("none"));
        QVERIFY(!fits());
        QVERIFY2(text().contains(QStringLiteral("on the GPU")), qPrintable(text()));

        e.gpuAvailableBytes = 8000 * mb;
        e.availableBytes = 300 * mb; // the 400 MB left in RAM do not fit
        QCOMPARE(place(e), QStringLiteral("none"));
        QVERIFY2(text().endsWith(QStringLiteral("available in RAM")), qPrintable(text()));

        e.error = QStringLiteral("broken");
        QCOMPARE(place(e), QString());
    }

    void settingsDefaultsAndOverrides()
    {
        QTemporaryDir dir;
        QSettings qs(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        SettingsStore store(&qs);
        const QString model = QStringLiteral("/models/a.gguf");
        QCOMPARE(store.effective(model, QStringLiteral("temperature")).toDouble(), 0.7);
        store.setGlobalValue(QStringLiteral("temperature"), 1.3);
        store.setModelOverride(model, QStringLiteral("topK"), 5);
        store.setGlobalValue(QStringLiteral("topP"), 7.0); // clamped to [0, 1]
        QCOMPARE(store.sampler(model).temperature, 1.3);
        QCOMPARE(store.sampler(model).topK, 5);
        QCOMPARE(store.sampler(QStringLiteral("/models/b.gguf")).topK, 40);
        QCOMPARE(store.globalValue(QStringLiteral("topP")).toDouble(), 1.0);
        store.clearModelOverride(model, QStringLiteral("topK"));
        QCOMPARE(store.sampler(model).topK, 40);
        // -1: a fresh seed per reply, a real number recorded.
        QCOMPARE(store.globalValue(QStringLiteral("seed")).toLongLong(), -1);
        QVERIFY(store.sampler(model).seed != store.sampler(model).seed || store.sampler(model).seed > 0);
        store.setModelOverride(model, QStringLiteral("seed"), 1234);
        QCOMPARE(store.sampler(model).seed, quint64(1234));
        QCOMPARE(store.loadParams(model).gpuLayers, 0);
        // Persisted.
        qs.sync();
        QSettings again(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        SettingsStore reread(&again);
        QCOMPARE(reread.sampler(model).seed, quint64(1234));
        QCOMPARE(reread.globalValue(QStringLiteral("temperature")).toDouble(), 1.3);
    }

    void settingsModelScopes()
    {
        QTemporaryDir dir;
        QSettings qs(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        SettingsStore store(&qs);
        SettingsModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int topK = model.rowOf(QStringLiteral("topK"));
        const int gpu = model.rowOf(QStringLiteral("gpuLayers"));
        QVERIFY(!model.data(model.index(gpu), SettingsModel::AvailableRole).toBool());
        QVERIFY(!model.data(model.index(gpu), SettingsModel::UnavailableReasonRole).toString().isEmpty());
        QVERIFY(!(model.flags(model.index(gpu)) & Qt::ItemIsEditable));
        QVERIFY(!model.setData(model.index(gpu), 10, SettingsModel::ValueRole));

        model.setModel(QStringLiteral("/m.gguf"), QStringLiteral("M"));
        model.setScope(SettingsModel::Model);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setValue(topK, 9);
        QCOMPARE(changed.size(), 1);
        QVERIFY(model.data(model.index(topK), SettingsModel::OverriddenRole).toBool());
        QCOMPARE(store.globalValue(QStringLiteral("topK")).toInt(), 40);
        model.resetValue(topK);
        QCOMPARE(model.value(QStringLiteral("topK")).toInt(), 40);
        model.setModel({}, {});
        QCOMPARE(model.scope(), SettingsModel::Global); // no model, no model scope
        QVERIFY(!model.data(model.index(topK), SettingsModel::LabelRole).toString().isEmpty());
    }
};

QTEST_MAIN(TestModelsSettings)
#include "test_models_settings.moc"

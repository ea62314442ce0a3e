// hearth quantize against llama.cpp's quantizer itself: for SmolLM2 and
// Gemma 3 (dequantized to F16 first, by Hearth, and checked against
// llama.cpp's F16) and the synthetic Llama-3.2-1B-shaped F16
// (scripts/refs/make_quant_synth_model.py), each of Q4_0, Q8_0, Q4_K_M,
// Q5_K_M, Q6_K and IQ4_XS must give per tensor the same type and the same
// data bytes as llama_model_quantize, the same metadata keys in the same
// order, and the same file, byte for byte. The golden files are
// tests/data/quantize/*.json from scripts/refs/make_quantize_golden.py.

#include "test_support.h"

#include "gguf/gguf.h"
#include "quantize/quantizer.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>
#include <thread>

using namespace hearth;
using namespace hearth::quantize;

namespace {

QByteArray fileSha256(const std::string& path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return h.result().toHex();
}

QJsonObject loadGolden(const QString& model)
{
    QFile f(QString::fromStdString(testsupport::dataDir("quantize")) + QLatin1Char('/') + model +
            QStringLiteral(".json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// "" when `path` matches the golden description, else the differences.
QString compare(const std::string& path, const QJsonObject& want)
{
    const gguf::File f(path);
    QStringList problems;
    QStringList keys;
    for (const gguf::KeyValue& kv : f.metadata())
        keys << QString::fromUtf8(kv.key.data(), static_cast<qsizetype>(kv.key.size()));
    QStringList wantKeys;
    for (const QJsonValue& k : want[QStringLiteral("keys")].toArray())
        wantKeys << k.toString();
    if (keys != wantKeys)
        problems << QStringLiteral("metadata keys differ: %1 vs llama.cpp's %2")
                        .arg(keys.join(QLatin1Char(',')), wantKeys.join(QLatin1Char(',')));
    const QJsonArray tensors = want[QStringLiteral("tensors")].toArray();
    if (static_cast<size_t>(tensors.size()) != f.tensors().size())
        problems << QStringLiteral("%1 tensors, llama.cpp wrote %2").arg(f.tensors().size()).arg(tensors.size());
    int bad = 0;
    for (size_t i = 0; i < f.tensors().size() && i < static_cast<size_t>(tensors.size()); ++i) {
        const gguf::TensorInfo& t = f.tensors()[i];
        const QJsonArray w = tensors[static_cast<qsizetype>(i)].toArray();
        const QString name = QString::fromUtf8(t.name.data(), static_cast<qsizetype>(t.name.size()));
        const QString type = QString::fromUtf8(typeTraits(t.type).name.data()).toLower();
        const QByteArray digest = QCryptographicHash::hash(QByteArrayView(t.data, static_cast<qsizetype>(t.bytes)),
                                                           QCryptographicHash::Sha256)
                                      .toHex()
                                      .left(16);
        if (name != w[0].toString() || type != w[1].toString() || QString::fromLatin1(digest) != w[2].toString()) {
            if (++bad <= 5)
                problems << QStringLiteral("tensor %1: %2 %3 %4, llama.cpp: %5 %6 %7")
                                .arg(i)
                                .arg(name, type, QString::fromLatin1(digest), w[0].toString(), w[1].toString(),
                                     w[2].toString());
        }
    }
    if (bad > 5)
        problems << QStringLiteral("... %1 tensors differ in all").arg(bad);
    if (problems.isEmpty() && fileSha256(path) != want[QStringLiteral("file_sha256")].toString().toLatin1())
        problems << QStringLiteral("same keys and tensors, but the file bytes differ (metadata values or layout)");
    return problems.join(QLatin1Char('\n'));
}

QuantizeOptions options(const std::string& in, const std::string& out, Mix mix)
{
    QuantizeOptions o;
    o.input = in;
    o.output = out;
    o.mix = mix;
    o.allowRequantize = true;
    o.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    return o;
}

} // namespace

class TestQuantizeGolden : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::map<QString, std::string> m_f16; // model -> its F16 (made once)

    // The F16 input of `model`, or "" after QSKIP/QFAIL-worthy trouble in `why`.
    std::string f16Of(const QString& model, const QJsonObject& golden, QString& why)
    {
        if (auto it = m_f16.find(model); it != m_f16.end())
            return it->second;
        const std::string f16 = m_dir.filePath(model + QStringLiteral("-f16.gguf")).toStdString();
        if (model == QStringLiteral("synth")) {
            QProcess py;
            py.start(QString::fromStdString(testsupport::toolPython()),
                     {QString::fromStdString(testsupport::sourceDir() + "/scripts/refs/make_quant_synth_model.py"),
                      QString::fromStdString(f16)});
            if (!py.waitForFinished(600000) || py.exitCode() != 0) {
                why = QStringLiteral("skip:") + QString::fromLatin1(testsupport::kPythonMissing);
                return {};
            }
        } else {
            const std::string src = testsupport::findModel(golden[QStringLiteral("source")].toString().toStdString());
            if (src.empty()) {
                why = QStringLiteral("skip:") + QString::fromLatin1(testsupport::kModelsMissing);
                return {};
            }
            if (fileSha256(src) != golden[QStringLiteral("source_sha256")].toString().toLatin1()) {
                why = QStringLiteral("skip:%1 is not the file the golden data was made from")
                          .arg(QString::fromStdString(src));
                return {};
            }
            quantizeModel(options(src, f16, Mix::F16));
            // Hearth's dequantization to F16 must already be llama.cpp's.
            if (const QString d = compare(f16, golden[QStringLiteral("f16")].toObject()); !d.isEmpty()) {
                why = QStringLiteral("F16: ") + d;
                return {};
            }
        }
        if (model == QStringLiteral("synth") &&
            fileSha256(f16) != golden[QStringLiteral("source_sha256")].toString().toLatin1()) {
            why = QStringLiteral("the synthetic model differs from the one the golden data was made from");
            return {};
        }
        return m_f16[model] = f16;
    }

private slots:
    void matchesLlamaCpp_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("mix");
        for (const char* model : {"smollm2", "gemma3", "synth"})
            for (const char* mix : {"Q4_0", "Q8_0", "Q4_K_M", "Q5_K_M", "Q6_K", "IQ4_XS"})
                QTest::newRow(qPrintable(QStringLiteral("%1/%2").arg(QLatin1String(model), QLatin1String(mix))))
                    << QString::fromLatin1(model) << QString::fromLatin1(mix);
    }

    void matchesLlamaCpp()
    {
        QFETCH(QString, model);
        QFETCH(QString, mix);
        const QJsonObject golden = loadGolden(model);
        if (golden.isEmpty())
            QSKIP("no golden file: run scripts/refs/make_quantize_golden.py with the reference venv");
        QString why;
        const std::string f16 = f16Of(model, golden, why);
        if (why.startsWith(QStringLiteral("skip:")))
            QSKIP(qPrintable(why.mid(5)));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const std::string out = m_dir.filePath(model + QLatin1Char('-') + mix + QStringLiteral(".gguf")).toStdString();
        quantizeModel(options(f16, out, *parseMix(mix.toStdString())));
        const QString diff = compare(out, golden[QStringLiteral("mixes")][mix].toObject());
        std::filesystem::remove(out);
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }
};

QTEST_GUILESS_MAIN(TestQuantizeGolden)
#include "test_quantize_golden.moc"

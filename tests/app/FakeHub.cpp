#include "FakeHub.h"

#include "gguf/gguf_writer.h"

#include <QCryptographicHash>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRandomGenerator>

#include <string>
#include <vector>

namespace {

// A llama-shaped GGUF with a 6,000-token vocabulary (a header of about
// 110 KB, so a header check needs more than one 64 KiB range) and
// `tensorBytes` of F32 weights.
void writeModel(const QString& path, const QString& fileType, qint64 tensorBytes, int splitNo = -1, int splitCount = 0)
{
    using namespace hearth;
    gguf::Writer w;
    w.addString("general.architecture", "llama");
    w.addString("general.name", "Tiny Hub Model");
    w.addUInt32("general.file_type", fileType == QLatin1String("Q8_0") ? 7 : fileType == QLatin1String("F16") ? 1 : 15);
    if (splitCount > 0) {
        w.addUInt16("split.no", uint16_t(splitNo));
        w.addUInt16("split.count", uint16_t(splitCount));
    }
    w.addUInt32("llama.context_length", 4096);
    w.addUInt32("llama.embedding_length", 256);
    w.addUInt32("llama.block_count", 2);
    w.addUInt32("llama.attention.head_count", 4);
    w.addUInt32("llama.attention.head_count_kv", 2);
    w.addUInt32("llama.feed_forward_length", 512);
    w.addString("tokenizer.ggml.model", "llama");
    std::vector<std::string> tokens;
    for (int i = 0; i < 6000; ++i)
        tokens.push_back("tok_" + std::to_string(i) + "_piece");
    w.addStringArray("tokenizer.ggml.tokens", tokens);
    w.addString("tokenizer.chat_template", "{% for m in messages %}{{ m.content }}{% endfor %}");
    const int64_t rows = tensorBytes / (256 * 4);
    std::vector<float> data(size_t(rows * 256));
    for (size_t i = 0; i < data.size(); ++i)
        data[i] = float(QRandomGenerator::global()->generateDouble());
    const int64_t ne[2] = {256, rows};
    w.addTensor("blk." + std::to_string(std::max(splitNo, 0)) + ".ffn_up.weight", GgmlType::F32, ne,
                {reinterpret_cast<const uint8_t*>(data.data()), data.size() * sizeof(float)});
    w.write(path.toStdString());
}

void addF32(hearth::gguf::Writer& w, const std::string& name, std::vector<int64_t> ne)
{
    int64_t n = 1;
    for (const int64_t d : ne)
        n *= d;
    std::vector<float> v(size_t(n), 0.01f);
    w.addTensor(name, hearth::GgmlType::F32, ne,
                {reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(float)});
}

// Part `no` of a two-part llama model the engine can bind (4 layers of
// width 256, every tensor it needs): the embeddings and layers 0-1 in the
// first part, layers 2-3 and the output norm in the second.
void writeLlamaPart(const QString& path, int no)
{
    using namespace hearth;
    constexpr int64_t embd = 256, ff = 512, kv = 128, vocab = 512;
    gguf::Writer w;
    if (no == 0) {
        w.addString("general.architecture", "llama");
        w.addString("general.name", "Split Llama");
        w.addUInt32("general.file_type", 0);
        w.addUInt32("llama.context_length", 2048);
        w.addUInt32("llama.embedding_length", embd);
        w.addUInt32("llama.block_count", 4);
        w.addUInt32("llama.feed_forward_length", ff);
        w.addUInt32("llama.attention.head_count", 4);
        w.addUInt32("llama.attention.head_count_kv", 2);
        w.addFloat32("llama.attention.layer_norm_rms_epsilon", 1e-5f);
        w.addString("tokenizer.ggml.model", "llama");
    }
    w.addUInt16("split.no", uint16_t(no));
    w.addUInt16("split.count", 2);
    w.addInt32("split.tensors.count", 2 + 4 * 9);
    if (no == 0)
        addF32(w, "token_embd.weight", {embd, vocab});
    else
        addF32(w, "output_norm.weight", {embd});
    for (int i = 2 * no; i < 2 * no + 2; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        addF32(w, b + "attn_norm.weight", {embd});
        addF32(w, b + "attn_q.weight", {embd, embd});
        addF32(w, b + "attn_k.weight", {embd, kv});
        addF32(w, b + "attn_v.weight", {embd, kv});
        addF32(w, b + "attn_output.weight", {embd, embd});
        addF32(w, b + "ffn_norm.weight", {embd});
        addF32(w, b + "ffn_gate.weight", {embd, ff});
        addF32(w, b + "ffn_up.weight", {embd, ff});
        addF32(w, b + "ffn_down.weight", {ff, embd});
    }
    w.write(path.toStdString());
}

} // namespace

FakeHub::FakeHub() = default;

FakeHub::~FakeHub()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.closeWriteChannel(); // the script exits when its stdin closes
        if (!m_process.waitForFinished(2000)) {
            m_process.kill();
            m_process.waitForFinished(2000);
        }
    }
}

QString FakeHub::filePath(const QString& name) const
{
    return m_dir.filePath(name);
}

qint64 FakeHub::fileSize(const QString& name) const
{
    return QFileInfo(filePath(name)).size();
}

QString FakeHub::sha256(const QString& name) const
{
    QFile f(filePath(name));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    h.addData(&f);
    return QString::fromLatin1(h.result().toHex());
}

bool FakeHub::start()
{
    const QString script = qEnvironmentVariable("HEARTH_SOURCE_DIR") + QLatin1String("/tests/app/fake_hub.py");
    if (!QFileInfo::exists(script)) {
        m_error = QStringLiteral("missing ") + script;
        return false;
    }
    writeModel(filePath(QStringLiteral("tiny-Q4_K_M.gguf")), QStringLiteral("Q4_K_M"), 2 << 20);
    writeModel(filePath(QStringLiteral("tiny-Q8_0.gguf")), QStringLiteral("Q8_0"), 3 << 20);
    writeModel(filePath(QStringLiteral("tiny-F16-00001-of-00002.gguf")), QStringLiteral("F16"), 1 << 20, 0, 2);
    writeModel(filePath(QStringLiteral("tiny-F16-00002-of-00002.gguf")), QStringLiteral("F16"), 1 << 20, 1, 2);
    writeLlamaPart(filePath(QStringLiteral("llama-F32-00001-of-00002.gguf")), 0);
    writeLlamaPart(filePath(QStringLiteral("llama-F32-00002-of-00002.gguf")), 1);
    {
        QFile junk(filePath(QStringLiteral("junk.gguf")));
        junk.open(QIODevice::WriteOnly);
        QByteArray bytes(200000, '\0');
        for (char& c : bytes)
            c = char(QRandomGenerator::global()->bounded(256));
        junk.write(bytes);
        QFile readme(filePath(QStringLiteral("README.md")));
        readme.open(QIODevice::WriteOnly);
        readme.write("# Tiny\n");
    }
    const auto file = [&](const char* name) { return QJsonValue(filePath(QString::fromLatin1(name))); };
    QJsonObject tiny{
        {QStringLiteral("files"),
         QJsonObject{{QStringLiteral("tiny-Q4_K_M.gguf"), file("tiny-Q4_K_M.gguf")},
                     {QStringLiteral("tiny-Q8_0.gguf"), file("tiny-Q8_0.gguf")},
                     {QStringLiteral("tiny-F16-00001-of-00002.gguf"), file("tiny-F16-00001-of-00002.gguf")},
                     {QStringLiteral("tiny-F16-00002-of-00002.gguf"), file("tiny-F16-00002-of-00002.gguf")},
                     {QStringLiteral("README.md"), file("README.md")}}},
        {QStringLiteral("downloads"), 1200},
        {QStringLiteral("likes"), 7},
        {QStringLiteral("lastModified"), QStringLiteral("2025-03-04T05:06:07.000Z")}};
    const QJsonObject one{{QStringLiteral("tiny-Q4_K_M.gguf"), file("tiny-Q4_K_M.gguf")}};
    QJsonObject repos{
        {QStringLiteral("test/Tiny-GGUF"), tiny},
        {QStringLiteral("test/Private-GGUF"),
         QJsonObject{{QStringLiteral("files"), one}, {QStringLiteral("private"), true}}},
        {QStringLiteral("test/Wrong-GGUF"),
         QJsonObject{{QStringLiteral("files"), one},
                     {QStringLiteral("downloads"), 5},
                     {QStringLiteral("sha256"),
                      QJsonObject{{QStringLiteral("tiny-Q4_K_M.gguf"), QString(64, QLatin1Char('0'))}}}}},
        {QStringLiteral("test/Split-GGUF"),
         QJsonObject{
             {QStringLiteral("files"),
              QJsonObject{{QStringLiteral("llama-F32-00001-of-00002.gguf"), file("llama-F32-00001-of-00002.gguf")},
                          {QStringLiteral("llama-F32-00002-of-00002.gguf"), file("llama-F32-00002-of-00002.gguf")}}},
             {QStringLiteral("downloads"), 3}}},
        {QStringLiteral("test/Junk-GGUF"),
         QJsonObject{{QStringLiteral("files"), QJsonObject{{QStringLiteral("junk.gguf"), file("junk.gguf")}}},
                     {QStringLiteral("downloads"), 1}}},
    };
    QFile config(filePath(QStringLiteral("hub.json")));
    config.open(QIODevice::WriteOnly);
    config.write(
        QJsonDocument(QJsonObject{{QStringLiteral("token"), token()}, {QStringLiteral("repos"), repos}}).toJson());
    config.close();

    m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_process.start(QStringLiteral("python3"), {script, QStringLiteral("--config"), config.fileName()});
    if (!m_process.waitForStarted(10000)) {
        m_error = QStringLiteral("python3 did not start: ") + m_process.errorString();
        return false;
    }
    while (m_process.waitForReadyRead(10000)) {
        const QByteArray line = m_process.readLine().trimmed();
        if (line.startsWith("PORT ")) {
            m_port = line.mid(5).toInt();
            return true;
        }
    }
    m_error = QStringLiteral("the fake hub did not say its port");
    return false;
}

QUrl FakeHub::endpoint() const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port));
}

QJsonObject FakeHub::http(const QByteArray& method, const QString& path, const QByteArray& body)
{
    QNetworkAccessManager network;
    QNetworkRequest r(QUrl(endpoint().toString() + path));
    r.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    QNetworkReply* reply = network.sendCustomRequest(r, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const QJsonObject o = QJsonDocument::fromJson(reply->readAll()).object();
    reply->deleteLater();
    return o;
}

void FakeHub::control(const QJsonObject& settings)
{
    http("POST", QStringLiteral("/_control"), QJsonDocument(settings).toJson());
}

QJsonObject FakeHub::stats()
{
    return http("GET", QStringLiteral("/_stats"), {});
}

qint64 FakeHub::bytesServed()
{
    return qint64(stats().value(QLatin1String("total_bytes")).toDouble());
}

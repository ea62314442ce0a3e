#include "BenchReport.h"

#include "quant/types.h"

#include "CliIo.h"

#include <QStringList>

#include <cmath>
#include <utility>
#include <vector>

namespace cli {

namespace {

// ggml's spelling of the KV cache's type: "f16", "q8_0".
QString kvTypeName(const BenchResult& r)
{
    const std::string_view name = hearth::typeTraits(r.kvType).name;
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

QString jsonString(const QString& s)
{
    QString out = QStringLiteral("\"");
    for (const QChar c : s) {
        if (c == u'"' || c == u'\\')
            out += u'\\', out += c;
        else if (c.unicode() < 0x20)
            out += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out + u'"';
}

// Numbers in the C locale whatever the process locale is.
QString num(double v, int decimals = 6)
{
    return QString::number(v, 'f', decimals);
}

QString num(uint64_t v)
{
    return QString::number(v);
}

QString bytesLabel(uint64_t bytes)
{
    const double mib = static_cast<double>(bytes) / (1024.0 * 1024.0);
    return mib < 1024.0 ? QStringLiteral("%1 MiB").arg(num(mib, 2)) : QStringLiteral("%1 GiB").arg(num(mib / 1024, 2));
}

QString paramsLabel(int64_t params)
{
    const auto p = static_cast<double>(params);
    return p < 1e9 ? QStringLiteral("%1 M").arg(num(p / 1e6, 2)) : QStringLiteral("%1 B").arg(num(p / 1e9, 2));
}

template <typename T>
QString jsonArray(const std::vector<T>& values)
{
    QStringList parts;
    for (const T v : values)
        parts << num(v);
    return QStringLiteral("[ ") + parts.join(QStringLiteral(", ")) + QStringLiteral(" ]");
}

// The fields of one test in llama-bench's order and spelling; values are
// JSON text. Fields llama-bench has that do not apply to Hearth (GPU
// split, CPU masks, polling, ...) are left out rather than made up.
std::vector<std::pair<QString, QString>> fields(const BenchRun& run, const BenchModel& m, const BenchResult& r,
                                                const QString& testTime)
{
    const auto s = [](const QString& v) { return jsonString(v); };
    const auto i = [](int64_t v) { return QString::number(v); };
    std::vector<std::pair<QString, QString>> f{
        {QStringLiteral("build_version"), s(run.version)},
        {QStringLiteral("cpu_info"), s(run.cpuInfo)},
        {QStringLiteral("cpu_isa"), s(run.isa)},
        {QStringLiteral("gpu_info"), s(run.gpuInfo)},
        {QStringLiteral("backends"), s(run.backends)},
        {QStringLiteral("model_filename"), s(QString::fromStdString(m.filename))},
        {QStringLiteral("model_type"), s(QString::fromStdString(m.type))},
        {QStringLiteral("model_size"), num(m.size)},
        {QStringLiteral("model_n_params"), i(m.params)},
        {QStringLiteral("n_batch"), i(r.nBatch)},
        {QStringLiteral("n_ubatch"), i(r.nBatch)}, // one forward pass per batch
        {QStringLiteral("n_threads"), i(r.test.threads)},
        {QStringLiteral("type_k"), s(kvTypeName(r))},
        {QStringLiteral("type_v"), s(kvTypeName(r))},
        {QStringLiteral("n_gpu_layers"), i(r.gpuLayers)},
        {QStringLiteral("load_mode"), s(QStringLiteral("mmap"))},
        {QStringLiteral("embeddings"), QStringLiteral("false")},
        {QStringLiteral("n_prompt"), i(r.test.nPrompt)},
        {QStringLiteral("n_gen"), i(r.test.nGen)},
        {QStringLiteral("n_depth"), i(r.test.nDepth)},
        {QStringLiteral("n_ctx"), i(r.nCtx)},
        {QStringLiteral("test_time"), s(testTime)},
        {QStringLiteral("avg_ns"), num(r.avgNs())},
        {QStringLiteral("stddev_ns"), num(r.stddevNs())},
        {QStringLiteral("avg_ts"), num(r.avgTs())},
        {QStringLiteral("stddev_ts"), num(r.stddevTs())},
    };
    if (run.rss) {
        f.emplace_back(QStringLiteral("peak_rss_bytes"), num(r.peakRss));
        f.emplace_back(QStringLiteral("peak_rss_is_lifetime"),
                       r.peakRssSinceStart ? QStringLiteral("true") : QStringLiteral("false"));
        f.emplace_back(QStringLiteral("start_rss_bytes"), num(run.startRss));
    }
    f.emplace_back(QStringLiteral("samples_ns"), jsonArray(r.samplesNs));
    f.emplace_back(QStringLiteral("samples_ts"), jsonArray(r.samplesTs()));
    return f;
}

class JsonPrinter final : public BenchPrinter {
public:
    explicit JsonPrinter(bool lines) : m_lines(lines) {}
    void header(const BenchRun&) override
    {
        if (!m_lines)
            out(QStringLiteral("["));
    }
    void row(const BenchRun& run, const BenchModel& m, const BenchResult& r, const QString& testTime) override
    {
        QStringList parts;
        for (const auto& [key, value] : fields(run, m, r, testTime))
            parts << QStringLiteral("%1: %2").arg(jsonString(key), value);
        if (m_lines) {
            outLine(QStringLiteral("{") + parts.join(QStringLiteral(", ")) + QStringLiteral("}"));
        } else {
            out(QStringLiteral("%1\n  {\n    %2\n  }")
                    .arg(m_first ? QString() : QStringLiteral(","), parts.join(QStringLiteral(",\n    "))));
            m_first = false;
        }
        std::fflush(stdout);
    }
    void footer(const BenchRun&) override
    {
        if (!m_lines)
            outLine(QStringLiteral("\n]"));
    }

private:
    bool m_lines;
    bool m_first = true;
};

class MarkdownPrinter final : public BenchPrinter {
public:
    void header(const BenchRun& run) override
    {
        m_columns = {{QStringLiteral("model"), -30},   {QStringLiteral("size"), 10},   {QStringLiteral("params"), 10},
                     {QStringLiteral("backend"), -10}, {QStringLiteral("threads"), 7}, {QStringLiteral("test"), 15},
                     {QStringLiteral("t/s"), 20}};
        if (run.backends != QLatin1String("CPU")) // llama-bench shows ngl for GPU backends
            m_columns.insert(m_columns.begin() + 4, {QStringLiteral("ngl"), 3});
        if (run.kvType != hearth::GgmlType::F16) { // llama-bench shows them when not the default
            m_columns.insert(m_columns.end() - 2, {QStringLiteral("type_k"), -6});
            m_columns.insert(m_columns.end() - 2, {QStringLiteral("type_v"), -6});
        }
        if (run.rss)
            m_columns.push_back({QStringLiteral("peak RSS"), 12});
        QStringList names, rules;
        for (const auto& [name, width] : m_columns) {
            names << pad(name, width);
            rules << QString(std::abs(width) - 1, u'-') + (width > 0 ? u':' : u'-');
        }
        outLine(QStringLiteral("| ") + names.join(QStringLiteral(" | ")) + QStringLiteral(" |"));
        outLine(QStringLiteral("| ") + rules.join(QStringLiteral(" | ")) + QStringLiteral(" |"));
    }
    void row(const BenchRun& run, const BenchModel& m, const BenchResult& r, const QString&) override
    {
        QStringList values{QString::fromStdString(m.type), bytesLabel(m.size), paramsLabel(m.params), run.backends};
        if (run.backends != QLatin1String("CPU"))
            values << QString::number(r.gpuLayers);
        values << QString::number(r.test.threads);
        if (run.kvType != hearth::GgmlType::F16)
            values << kvTypeName(r) << kvTypeName(r);
        values << QStringList{testName(r.test), QStringLiteral("%1 ± %2").arg(num(r.avgTs(), 2), num(r.stddevTs(), 2))};
        if (run.rss)
            values << bytesLabel(r.peakRss) + (r.peakRssSinceStart ? QStringLiteral("*") : QString());
        m_lifetimePeak = m_lifetimePeak || r.peakRssSinceStart;
        QStringList cells;
        for (size_t c = 0; c < m_columns.size(); ++c)
            cells << pad(values[static_cast<qsizetype>(c)], m_columns[c].second);
        outLine(QStringLiteral("| ") + cells.join(QStringLiteral(" | ")) + QStringLiteral(" |"));
        std::fflush(stdout);
    }
    void footer(const BenchRun& run) override
    {
        outLine(QStringLiteral("\nhearth %1, ISA level %2 (HEARTH_CPU_ISA caps it), cpu: %3")
                    .arg(run.version, run.isa, run.cpuInfo));
        if (run.rss) {
            outLine(QStringLiteral("peak RSS: the process's, from the test's context creation to its last run "
                                   "(weights loaded); RSS before loading: %1")
                        .arg(bytesLabel(run.startRss)));
            if (m_lifetimePeak)
                outLine(QStringLiteral("* this OS cannot restart the peak: it is the process's lifetime peak"));
        }
    }

private:
    static QString pad(const QString& s, int width)
    {
        return width < 0 ? s.leftJustified(-width) : s.rightJustified(width);
    }
    std::vector<std::pair<QString, int>> m_columns; // name, width (negative: left-aligned)
    bool m_lifetimePeak = false;
};

} // namespace

std::unique_ptr<BenchPrinter> makeBenchPrinter(const QString& format)
{
    if (format == QLatin1String("md"))
        return std::make_unique<MarkdownPrinter>();
    if (format == QLatin1String("json") || format == QLatin1String("jsonl"))
        return std::make_unique<JsonPrinter>(format == QLatin1String("jsonl"));
    return nullptr;
}

QString testName(const BenchTest& t)
{
    const QString name = t.nPrompt > 0 && t.nGen > 0 ? QStringLiteral("pp%1+tg%2").arg(t.nPrompt).arg(t.nGen)
                         : t.nPrompt > 0             ? QStringLiteral("pp%1").arg(t.nPrompt)
                                                     : QStringLiteral("tg%1").arg(t.nGen);
    return t.nDepth > 0 ? name + QStringLiteral(" @ d%1").arg(t.nDepth) : name;
}

std::string sizeLabel(int64_t params)
{
    const auto p = static_cast<double>(params);
    if (p < 1e9)
        return std::to_string(std::llround(p / 1e6)) + "M";
    return QString::number(p / 1e9, 'f', 1).toStdString() + "B";
}

} // namespace cli

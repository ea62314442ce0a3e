#include "highlight/PrismHighlighter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

PrismHighlighter::PrismHighlighter()
{
    QFile order(QStringLiteral(":/hearth/prism/prism-components.txt"));
    if (!order.open(QIODevice::ReadOnly) || !evaluateResource(QStringLiteral(":/hearth/js/regexp-source-shim.js")) ||
        !evaluateResource(QStringLiteral(":/hearth/prism/prism-core.min.js")))
        return;
    const QList<QByteArray> lines = order.readAll().split('\n');
    for (const QByteArray& raw : lines) {
        const QString component = QString::fromUtf8(raw).trimmed();
        if (component.isEmpty() || component.startsWith(QLatin1Char('#')))
            continue;
        if (!evaluateResource(QStringLiteral(":/hearth/prism/prism-%1.min.js").arg(component)))
            return;
        m_components.append(component);
    }
    if (!evaluateResource(QStringLiteral(":/hearth/js/prism-bridge.js")))
        return;
    m_tokens = m_engine.globalObject().property(QStringLiteral("hearthTokens"));
    m_html = m_engine.globalObject().property(QStringLiteral("hearthHighlightHtml"));

    // Every language and alias the components registered, plus common fence
    // words Prism does not know.
    const QJSValue names = m_engine.evaluate(QStringLiteral(
        "Object.keys(Prism.languages).filter(function (k) { return typeof Prism.languages[k] === 'object'; })"));
    const int n = names.property(QStringLiteral("length")).toInt();
    for (int i = 0; i < n; ++i) {
        const QString name = names.property(quint32(i)).toString();
        m_known.insert(name.toLower(), name);
    }
    static const std::pair<const char*, const char*> extra[] = {
        {"c++", "cpp"},          {"cxx", "cpp"},       {"hpp", "cpp"},           {"h", "c"},
        {"zsh", "bash"},         {"console", "bash"},  {"shellsession", "bash"}, {"rs", "rust"},
        {"golang", "go"},        {"jsonc", "json"},    {"json5", "json"},        {"mjs", "javascript"},
        {"cjs", "javascript"},   {"sqlite", "sql"},    {"postgres", "sql"},      {"patch", "diff"},
        {"cmakelists", "cmake"}, {"make", "makefile"}, {"proto", "protobuf"},    {"objective-c", "objectivec"},
    };
    for (const auto& [alias, target] : extra)
        if (m_known.contains(QLatin1String(target)))
            m_known.insert(QLatin1String(alias), m_known.value(QLatin1String(target)));
    m_available = m_tokens.isCallable() && m_html.isCallable();
}

bool PrismHighlighter::evaluateResource(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        qWarning("highlighting disabled: %s is missing (run scripts/setup, which fetches prismjs with npm)",
                 qPrintable(path));
        return false;
    }
    const QJSValue result = m_engine.evaluate(QString::fromUtf8(file.readAll()), path);
    if (result.isError()) {
        qWarning("highlighting disabled: %s: %s", qPrintable(path), qPrintable(result.toString()));
        return false;
    }
    return true;
}

QString PrismHighlighter::resolve(const QString& language) const
{
    return m_available ? m_known.value(language.toLower()) : QString();
}

QList<HighlightSpan> PrismHighlighter::highlight(const QString& code, const QString& language)
{
    const QString resolved = resolve(language);
    if (resolved.isEmpty())
        return {};
    const QJSValue json = m_tokens.call({QJSValue(code), QJSValue(resolved)});
    if (json.isError()) {
        qWarning("prism failed on %s: %s", qPrintable(resolved), qPrintable(json.toString()));
        return {};
    }
    const QJsonArray flat = QJsonDocument::fromJson(json.toString().toUtf8()).array();
    QList<HighlightSpan> spans;
    spans.reserve(flat.size() / 3);
    for (qsizetype i = 0; i + 2 < flat.size(); i += 3)
        spans.append({flat[i].toInt(), flat[i + 1].toInt(), flat[i + 2].toString()});
    return spans;
}

QString PrismHighlighter::highlightHtml(const QString& code, const QString& language)
{
    const QString resolved = resolve(language);
    if (resolved.isEmpty())
        return {};
    return m_html.call({QJSValue(code), QJSValue(resolved)}).toString();
}

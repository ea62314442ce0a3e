#include "highlight/KSyntaxHighlighter.h"

#include <KSyntaxHighlighting/AbstractHighlighter>
#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Format>
#include <KSyntaxHighlighting/Repository>
#include <KSyntaxHighlighting/State>
#include <KSyntaxHighlighting/Theme>

#include <QHash>

namespace KSH = KSyntaxHighlighting;

namespace {

QString kindOf(KSH::Theme::TextStyle style)
{
    using S = KSH::Theme::TextStyle;
    switch (style) {
    case S::Keyword:
    case S::ControlFlow:
    case S::Import: return QStringLiteral("keyword");
    case S::Function: return QStringLiteral("function");
    case S::Variable: return QStringLiteral("variable");
    case S::Operator: return QStringLiteral("operator");
    case S::BuiltIn:
    case S::Extension: return QStringLiteral("builtin");
    case S::Preprocessor: return QStringLiteral("macro");
    case S::Attribute: return QStringLiteral("attr-name");
    case S::Char:
    case S::SpecialChar: return QStringLiteral("char");
    case S::String:
    case S::VerbatimString: return QStringLiteral("string");
    case S::SpecialString: return QStringLiteral("regex");
    case S::DataType: return QStringLiteral("class-name");
    case S::DecVal:
    case S::BaseN:
    case S::Float: return QStringLiteral("number");
    case S::Constant: return QStringLiteral("constant");
    case S::Comment:
    case S::Documentation:
    case S::Annotation:
    case S::CommentVar:
    case S::RegionMarker:
    case S::Information:
    case S::Warning: return QStringLiteral("comment");
    case S::Alert:
    case S::Error: return QStringLiteral("important");
    default: return {};
    }
}

// Collects the formats of one line as spans at a base offset.
class Collector : public KSH::AbstractHighlighter {
public:
    QList<HighlightSpan>* out = nullptr;
    int base = 0;

    KSH::State line(QStringView text, const KSH::State& state) { return highlightLine(text, state); }

protected:
    void applyFormat(int offset, int length, const KSH::Format& format) override
    {
        const QString kind = kindOf(format.textStyle());
        if (kind.isEmpty() || length <= 0)
            return;
        if (!out->isEmpty() && out->last().kinds == kind && out->last().start + out->last().length == base + offset)
            out->last().length += length;
        else
            out->append({base + offset, length, kind});
    }
};

} // namespace

struct KSyntaxHighlighter::Impl {
    KSH::Repository repository;
    QHash<QString, QString> names; // lower-case fence word -> definition name
    Collector collector;
};

KSyntaxHighlighter::KSyntaxHighlighter() : d(std::make_unique<Impl>())
{
    const auto definitions = d->repository.definitions();
    for (const KSH::Definition& def : definitions) {
        d->names.insert(def.name().toLower(), def.name());
        for (const QString& ext : def.extensions()) // "*.py" -> "py"
            if (ext.startsWith(QLatin1String("*.")))
                d->names.insert(ext.mid(2).toLower(), def.name());
    }
    static const std::pair<const char*, const char*> common[] = {
        {"shell", "Bash"}, {"sh", "Bash"},   {"console", "Bash"}, {"js", "JavaScript"},         {"ts", "TypeScript"},
        {"c++", "C++"},    {"golang", "Go"}, {"yml", "YAML"},     {"dockerfile", "Dockerfile"},
    };
    for (const auto& [word, name] : common)
        if (d->repository.definitionForName(QLatin1String(name)).isValid())
            d->names.insert(QLatin1String(word), QLatin1String(name));
}

KSyntaxHighlighter::~KSyntaxHighlighter() = default;

QString KSyntaxHighlighter::resolve(const QString& language) const
{
    return d->names.value(language.toLower());
}

QList<HighlightSpan> KSyntaxHighlighter::highlight(const QString& code, const QString& language)
{
    const KSH::Definition def = d->repository.definitionForName(resolve(language));
    if (!def.isValid())
        return {};
    QList<HighlightSpan> spans;
    d->collector.setDefinition(def);
    d->collector.out = &spans;
    KSH::State state;
    qsizetype lineStart = 0;
    while (lineStart <= code.size()) {
        qsizetype end = code.indexOf(QLatin1Char('\n'), lineStart);
        if (end < 0)
            end = code.size();
        d->collector.base = int(lineStart);
        state = d->collector.line(QStringView(code).mid(lineStart, end - lineStart), state);
        lineStart = end + 1;
    }
    d->collector.out = nullptr;
    return spans;
}

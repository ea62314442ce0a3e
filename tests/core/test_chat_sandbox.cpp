// Hostile chat templates: every one must stop with a clear TemplateError —
// never hang, crash, overflow the stack or exhaust memory. Each case prints
// how long it took to stop; bench/chat/bench_chat_template reports the same
// figures (the target is well under a second; the bound asserted here only
// catches hangs).

#include "chat/chat_template.h"
#include "chat/json.h"

#include <QElapsedTimer>
#include <QTest>

#include <optional>

using namespace hearth;
using namespace hearth::chat;

namespace {

std::string repeat(std::string_view s, int n)
{
    std::string out;
    for (int i = 0; i < n; ++i)
        out += s;
    return out;
}

// Parses and renders `source`; returns the error it stopped with.
std::optional<TemplateError> stopError(const std::string& source, qint64& ms)
{
    QElapsedTimer timer;
    timer.start();
    std::optional<TemplateError> error;
    try {
        ChatTemplate::parse(source).render(Value::array(), RenderOptions{});
    } catch (const TemplateError& e) {
        error = e;
    }
    ms = timer.elapsed();
    return error;
}

} // namespace

class TestChatSandbox : public QObject {
    Q_OBJECT

private slots:
    void hostileTemplatesStop_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("kind");
        const auto row = [](const char* name, const std::string& src, TemplateError::Kind kind) {
            QTest::newRow(name) << QString::fromStdString(src) << static_cast<int>(kind);
        };
        using K = TemplateError::Kind;
        row("unbounded recursion", "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", K::Limit);
        row("recursion through caller",
            "{% macro f() %}{% call f() %}{{ caller() }}{% endcall %}{% endmacro %}{% call f() %}x{% endcall %}",
            K::Limit);
        row("recursive loop without end", "{% for x in [1] recursive %}{{ loop([1]) }}{% endfor %}", K::Limit);
        row("exponential string growth",
            "{% set ns = namespace(s='ab') %}{% for i in range(100) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}"
            "{{ ns.s|length }}",
            K::Limit);
        row("exponential list growth",
            "{% set ns = namespace(l=[1]) %}{% for i in range(100) %}{% set ns.l = ns.l + ns.l %}{% endfor %}",
            K::Limit);
        row("string times a billion", "{{ 'x' * 10**9 }}", K::Limit);
        row("list times a billion", "{{ [0] * 10**9 }}", K::Limit);
        row("range(10**9)", "{% for i in range(10**9) %}{% endfor %}", K::Runtime);
        row("range(10**18, step)", "{{ range(0, 10**18, 10**11)|length }}", K::Runtime);
        row("ten billion iterations",
            "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}", K::Limit);
        row("quadratic list building",
            "{% set ns = namespace(l=[]) %}{% for i in range(100000) %}{% set ns.l = ns.l + [i] %}{% endfor %}",
            K::Limit);
        row("garbage churn",
            "{% set big = 'x' * 1000000 %}{% for i in range(100000) %}{% set t = big ~ i %}{% endfor %}", K::Limit);
        row("output flood", "{% for i in range(100000) %}{{ 'x' * 10000 }}{% endfor %}", K::Limit);
        row("deeply nested data",
            "{% set ns = namespace(x=[]) %}{% for i in range(100000) %}{% set ns.x = [ns.x] %}{% endfor %}", K::Limit);
        row("namespace nested in namespaces",
            "{% set ns = namespace(n=none) %}{% for i in range(100000) %}{% set ns.n = namespace(p=ns.n) %}"
            "{% endfor %}",
            K::Limit);
        row("printing a cycle", "{% set a = namespace() %}{% set a.me = a %}{{ a }}", K::Limit);
        row("printing a huge list", "{% set s = 'x' * 100000 %}{{ [s] * 1000 }}", K::Limit);
        row("huge tojson indent", "{{ [[[[[[[[1]]]]]]]]|tojson(indent=5000000) }}", K::Limit);
        row("huge replace", "{{ ('x' * 100000).replace('', 'y' * 1000) }}", K::Limit);
        row("huge format width", "{{ '%0999999999d' % 1 }}", K::Limit);
        row("huge format-spec width", "{{ '{:>999999999}'.format(1) }}", K::Limit);
        row("huge center", "{{ 'x'|center(999999999) }}", K::Limit);
        row("integer overflow", "{{ 2 ** 70 }}", K::Runtime);
        row("10,000 nested ifs", repeat("{% if true %}", 10000) + "x" + repeat("{% endif %}", 10000), K::Syntax);
        row("10,000 nested fors", repeat("{% for i in [1] %}", 10000) + repeat("{% endfor %}", 10000), K::Syntax);
        row("10,000 nested macros", repeat("{% macro m() %}", 10000) + repeat("{% endmacro %}", 10000), K::Syntax);
        row("10,000 parentheses", "{{ " + repeat("(", 10000) + "1" + repeat(")", 10000) + " }}", K::Syntax);
        row("10,000 brackets", "{{ " + repeat("[", 10000) + repeat("]", 10000) + " }}", K::Syntax);
        row("10,000 braces", "{{ " + repeat("{'a': ", 10000) + "1" + repeat("}", 10000) + " }}", K::Syntax);
        row("10,000 unary minus", "{{ " + repeat("-", 10000) + "1 }}", K::Syntax);
        row("10,000 nots", "{{ " + repeat("not ", 10000) + "1 }}", K::Syntax);
        row("10,000 additions", "{{ 1" + repeat(" + 1", 10000) + " }}", K::Syntax);
        row("10,000 attributes", "{{ x" + repeat(".a", 10000) + " }}", K::Syntax);
        row("10,000 filters", "{{ x" + repeat("|trim", 10000) + " }}", K::Syntax);
        row("10,000 inline ifs", "{{ 1" + repeat(" if 1 else 1", 10000) + " }}", K::Syntax);
        row("10,000 calls", "{{ f" + repeat("()", 10000) + " }}", K::Syntax);
        row("unbalanced megabyte", "{{ " + repeat("(", 1000000), K::Syntax);
    }

    void hostileTemplatesStop()
    {
        QFETCH(QString, source);
        QFETCH(int, kind);
        qint64 ms = 0;
        const std::optional<TemplateError> error = stopError(source.toStdString(), ms);
        QVERIFY2(error.has_value(), "the template was expected to stop with an error");
        qInfo("stopped after %lld ms: %s", static_cast<long long>(ms), error->what());
        QCOMPARE(static_cast<int>(error->kind()), kind);
        QVERIFY2(ms < 10000, "took far too long to stop");
    }

    // Long chains of namespaces made by mutation are freed without deep
    // recursion when the render ends.
    void longNamespaceChainIsFreed()
    {
        const std::string src = "{% set ns = namespace(head=namespace(), cur=none) %}{% set ns.cur = ns.head %}"
                                "{% for i in range(60000) %}{% set n = namespace() %}{% set cur = ns.cur %}"
                                "{% set cur.next = n %}{% set ns.cur = n %}{% endfor %}done";
        QCOMPARE(QString::fromStdString(ChatTemplate::parse(src).render(Value::array(), RenderOptions{})),
                 QStringLiteral("done"));
    }

    void limitsAreConfigurable()
    {
        RenderOptions o;
        o.limits.maxSteps = 1000;
        const ChatTemplate t = ChatTemplate::parse("{% for i in range(5000) %}{% endfor %}");
        QVERIFY_THROWS_EXCEPTION(TemplateError, t.render(Value::array(), o));
        QCOMPARE(QString::fromStdString(t.render(Value::array(), RenderOptions{})), QString());
    }

    void errorsCarryLineAndColumn()
    {
        try {
            ChatTemplate::parse("line one\n{% if x %}\n  {{ 1 + }}\n{% endif %}");
            QFAIL("expected a syntax error");
        } catch (const TemplateError& e) {
            QCOMPARE(e.kind(), TemplateError::Kind::Syntax);
            QCOMPARE(e.line(), 3);
            QCOMPARE(e.column(), 10);
            QVERIFY(QByteArray(e.what()).startsWith("line 3, column 10: "));
        }
        try {
            ChatTemplate::parse("ok\n  {{ messages[0].content.nothing.deeper }}").render(Value::array(), {});
            QFAIL("expected an undefined error");
        } catch (const TemplateError& e) {
            QCOMPARE(e.kind(), TemplateError::Kind::Runtime);
            QCOMPARE(e.line(), 2);
            QVERIFY(e.column() > 3);
        }
        try {
            ChatTemplate::parse("{{ raise_exception('Only user and assistant roles are supported!') }}")
                .render(Value::array(), {});
            QFAIL("expected raise_exception");
        } catch (const TemplateError& e) {
            QCOMPARE(e.kind(), TemplateError::Kind::Raised);
            QCOMPARE(QString::fromStdString(e.detail()),
                     QStringLiteral("Only user and assistant roles are supported!"));
        }
    }

    void deepJsonIsRefused()
    {
        QVERIFY_THROWS_EXCEPTION(Error, Value::fromJson(repeat("[", 100000) + repeat("]", 100000)));
        QVERIFY_THROWS_EXCEPTION(Error, Value::fromJson("{\"a\": [1, 2,]}"));
        QVERIFY_THROWS_EXCEPTION(Error, Value::fromJson("\"unterminated"));
    }
};

QTEST_GUILESS_MAIN(TestChatSandbox)
#include "test_chat_sandbox.moc"

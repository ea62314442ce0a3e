// chat::Value: building, JSON in and out, Python str()/repr() and equality.
// (Template-level semantics are in test_chat_golden's snippets.)

#include "chat/json.h"
#include "chat/template_error.h"
#include "chat/value.h"

#include <QTest>

#include <cmath>

using namespace hearth;
using namespace hearth::chat;

namespace {

// Escapes, a surrogate pair and a huge float.
const char* const kRoundTrip =
    "{\"a\":[1,-2,3.5,1e+300,true,false,null],\"b\":{\"\xc3\xa9\":\"x\\\"\\\\\\n\\u00e9\\ud83d\\ude00\"},\"c\":\"\"}";

} // namespace

class TestChatValue : public QObject {
    Q_OBJECT

private slots:
    void buildsObjectsAndArrays()
    {
        Value msg = Value::object();
        msg.set("role", "user").set("content", "hi");
        msg.set("role", "system"); // replaces, keeps the position
        QCOMPARE(msg.size(), size_t(2));
        QCOMPARE(msg.get("role").asString(), std::string("system"));
        QVERIFY(msg.get("missing").isUndefined());
        QCOMPARE(QString::fromStdString(msg.toJson()), QStringLiteral("{\"role\":\"system\",\"content\":\"hi\"}"));

        Value list = Value::array();
        list.push(msg).push(Value(3)).push(Value(2.5)).push(Value()).push(Value(true));
        QCOMPARE(QString::fromStdString(list.str()),
                 QStringLiteral("[{'role': 'system', 'content': 'hi'}, 3, 2.5, None, True]"));
        QCOMPARE(list.depth(), 2);
    }

    void copiesDoNotShareMutations()
    {
        Value a = Value::array({Value(1)});
        Value b = a;
        b.push(Value(2));
        QCOMPARE(a.size(), size_t(1));
        QCOMPARE(b.size(), size_t(2));
    }

    void jsonRoundTrip()
    {
        const Value v = Value::fromJson(kRoundTrip);
        QCOMPARE(v.get("a").items()[0].type(), Value::Type::Int);
        QCOMPARE(v.get("a").items()[2].type(), Value::Type::Float);
        QCOMPARE(QString::fromStdString(v.get("b").get("é").asString()), QStringLiteral("x\"\\\né😀"));
        QCOMPARE(QString::fromStdString(v.toJson()),
                 QString::fromUtf8("{\"a\":[1,-2,3.5,1e+300,true,false,null],\"b\":{\"\xc3\xa9\":\"x\\\"\\\\\\n"
                                   "\xc3\xa9\xf0\x9f\x98\x80\"},\"c\":\"\"}"));
        // Integers beyond int64 become floats, as JSON numbers.
        QVERIFY(Value::fromJson("123456789012345678901234567890").isFloat());
    }

    void jsonErrorsNameTheOffset()
    {
        try {
            Value::fromJson("[1, 2,, 3]");
            QFAIL("expected an error");
        } catch (const Error& e) {
            QVERIFY(QByteArray(e.what()).contains("byte 6"));
        }
        QVERIFY_THROWS_EXCEPTION(Error, Value::fromJson("{\"a\" 1}"));
        QVERIFY_THROWS_EXCEPTION(Error, Value::fromJson("01"));
        QVERIFY_THROWS_EXCEPTION(Error, Value::fromJson("[1] x"));
        QVERIFY_THROWS_EXCEPTION(Error, Value::fromJson("\"tab\there\""));
        QVERIFY_THROWS_EXCEPTION(Error, Value::fromJson(""));
    }

    void pythonJsonDumps()
    {
        const Value v = Value::fromJson(R"({"b": [1, 2.0, "é"], "a": {}, "c": []})");
        JsonDumpOptions o;
        QCOMPARE(QString::fromStdString(dumpJson(v, o)), QStringLiteral(R"({"b": [1, 2.0, "é"], "a": {}, "c": []})"));
        o.ensureAscii = true;
        o.sortKeys = true;
        QCOMPARE(QString::fromStdString(dumpJson(v, o)),
                 QStringLiteral(R"({"a": {}, "b": [1, 2.0, "\u00e9"], "c": []})"));
        o.indented = true;
        o.indent = "  ";
        QCOMPARE(
            QString::fromStdString(dumpJson(v, o)),
            QStringLiteral("{\n  \"a\": {},\n  \"b\": [\n    1,\n    2.0,\n    \"\\u00e9\"\n  ],\n  \"c\": []\n}"));
        QVERIFY_THROWS_EXCEPTION(TemplateError, dumpJson(Value::undefined(), JsonDumpOptions{}));
    }

    void pythonFloatRepr()
    {
        QCOMPARE(formatPyFloat(1.0), std::string("1.0"));
        QCOMPARE(formatPyFloat(0.1), std::string("0.1"));
        QCOMPARE(formatPyFloat(1e16), std::string("1e+16"));
        QCOMPARE(formatPyFloat(1e15), std::string("1000000000000000.0"));
        QCOMPARE(formatPyFloat(1e-5), std::string("1e-05"));
        QCOMPARE(formatPyFloat(0.0001), std::string("0.0001"));
        QCOMPARE(formatPyFloat(-0.0), std::string("-0.0"));
        QCOMPARE(formatPyFloat(1.0 / 3), std::string("0.3333333333333333"));
        QCOMPARE(formatPyFloat(123456789.125), std::string("123456789.125"));
        QCOMPARE(formatPyFloat(5e-324), std::string("5e-324"));
        QCOMPARE(formatPyFloat(HUGE_VAL), std::string("inf"));
        QCOMPARE(formatPyFloat(std::nan("")), std::string("nan"));
    }

    void pythonStringRepr()
    {
        QCOMPARE(pyStringRepr("it's"), std::string("\"it's\""));
        QCOMPARE(pyStringRepr("say \"hi\""), std::string("'say \"hi\"'"));
        QCOMPARE(pyStringRepr("both ' and \""), std::string("'both \\' and \"'"));
        QCOMPARE(pyStringRepr("a\tb\nc\\\x01\x7f"), std::string("'a\\tb\\nc\\\\\\x01\\x7f'"));
        QCOMPARE(pyStringRepr("é 世 😀"), std::string("'é 世 😀'"));
        QCOMPARE(pyStringRepr("\xc2\xa0\xe2\x80\x8b"), std::string("'\\xa0\\u200b'"));
        QCOMPARE(pyStringRepr("\xff"), std::string("'\\udcff'")); // an invalid byte, as surrogateescape shows it
    }

    void pythonEquality()
    {
        QVERIFY(Value(1) == Value(1.0));
        QVERIFY(Value(true) == Value(1));
        QVERIFY(!(Value("1") == Value(1)));
        QVERIFY(!(Value::array({Value(1)}) == Value::tuple({Value(1)})));
        QVERIFY(Value::fromJson(R"({"a":1,"b":2})") == Value::fromJson(R"({"b":2,"a":1.0})"));
        QVERIFY(Value::undefined() == Value::undefined());
        QVERIFY(!(Value::undefined() == Value()));
        QVERIFY(!Value::fromJson("[]").truthy());
        QVERIFY(Value::fromJson("[0]").truthy());
        QVERIFY(!Value::undefined("x").truthy());
    }

    void nestingIsBounded()
    {
        Value v = Value::array();
        for (int i = 0; i < Value::kMaxNesting - 1; ++i)
            v = Value::array({v});
        QVERIFY_THROWS_EXCEPTION(TemplateError, Value::array({v}));
    }
};

QTEST_GUILESS_MAIN(TestChatValue)
#include "test_chat_value.moc"

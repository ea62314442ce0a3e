// The Tokenizer API beyond encode(): vocabulary facts against llama.cpp
// (special ids, add flags, the end-of-generation set, every token's
// attributes and pieces), the streaming decoder, and concurrent use.

#include "test_support.h"
#include "tokenizer_refs.h"

#include "gguf/gguf.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <QFile>
#include <QTest>

#include <map>
#include <sstream>
#include <thread>

using namespace hearth;

namespace {

uint64_t fnv1a(const void* data, size_t n, uint64_t h)
{
    const auto* p = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < n; ++i)
        h = (h ^ p[i]) * 0x100000001B3ull;
    return h;
}

std::string hex(uint64_t v)
{
    char buffer[17];
    std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(v));
    return buffer;
}

// The facts line of scripts/refs/tokref.py vocab_facts(), computed here.
std::map<std::string, std::string> facts(const Tokenizer& tok)
{
    std::map<std::string, std::string> f;
    f["n"] = std::to_string(tok.vocabSize());
    f["bos"] = std::to_string(tok.bos());
    f["eos"] = std::to_string(tok.eos());
    f["sep"] = std::to_string(tok.sep());
    f["pad"] = std::to_string(tok.pad());
    f["add_bos"] = std::to_string(tok.addBos());
    f["add_eos"] = std::to_string(tok.addEos());
    std::string eog;
    for (const TokenId id : tok.endOfGenerationTokens())
        eog += (eog.empty() ? "" : ",") + std::to_string(id);
    f["eog"] = eog;
    uint64_t attrs = 0xCBF29CE484222325ull, pieces = attrs, plain = attrs;
    for (TokenId id = 0; id < tok.vocabSize(); ++id) {
        const uint32_t a = tok.tokenAttributes(id);
        attrs = fnv1a(&a, 4, attrs);
        for (const bool special : {true, false}) {
            const std::string p = tok.tokenToPiece(id, special);
            const auto length = static_cast<uint32_t>(p.size());
            uint64_t& h = special ? pieces : plain;
            h = fnv1a(&length, 4, h);
            h = fnv1a(p.data(), p.size(), h);
        }
    }
    f["attrs"] = hex(attrs);
    f["pieces"] = hex(pieces);
    f["plain_pieces"] = hex(plain);
    return f;
}

std::string vocabPath(const std::string& name)
{
    if (name == "model/smollm2")
        return testsupport::smolLm2Path();
    if (name == "model/gemma3")
        return testsupport::gemma3Path();
    if (name.rfind("shared/", 0) == 0) {
        const std::string dir = testsupport::testdataDir();
        return dir.empty() ? std::string() : dir + "/vocab/ggml-vocab-" + name.substr(7) + ".gguf";
    }
    return tokrefs::dataPath(name + ".gguf");
}

bool validUtf8(const std::string& s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())).toUtf8() == QByteArray::fromStdString(s);
}

std::unique_ptr<Tokenizer> load(const std::string& path)
{
    return Tokenizer::fromGguf(gguf::File(path));
}

} // namespace

class TestTokenizerApi : public QObject {
    Q_OBJECT

private slots:
    void vocabularyFacts_data()
    {
        QTest::addColumn<QString>("line");
        QFile file(QString::fromStdString(tokrefs::dataPath("facts.txt")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        for (const QByteArray& line : file.readAll().split('\n')) {
            if (!line.isEmpty())
                QTest::newRow(line.left(line.indexOf(' ')).constData()) << QString::fromUtf8(line);
        }
    }

    void vocabularyFacts()
    {
        QFETCH(QString, line);
        std::istringstream in(line.toStdString());
        std::string name, field;
        in >> name;
        std::map<std::string, std::string> want;
        while (in >> field)
            want[field.substr(0, field.find('='))] = field.substr(field.find('=') + 1);
        const std::string path = vocabPath(name);
        if (path.empty())
            QSKIP("vocabulary not available (real models or ../shared/testdata missing)");
        const auto tok = load(path);
        const std::map<std::string, std::string> got = facts(*tok);
        for (const auto& [key, value] : got)
            QCOMPARE(QString::fromStdString(key + "=" + value), QString::fromStdString(key + "=" + want[key]));
        // Which end-of-turn text llama.cpp reports as eot when a vocabulary
        // has several depends on its hash table order; it must be one of
        // the end-of-generation tokens either way.
        const TokenId eot = std::stoi(want["eot"]);
        QCOMPARE(tok->eot() >= 0, eot >= 0);
        if (eot >= 0)
            QVERIFY(tok->isEndOfGeneration(eot) && tok->isEndOfGeneration(tok->eot()));
    }

    void realModelBasics()
    {
        HEARTH_REQUIRE_MODEL(smol, smolLm2Path);
        const auto s = load(smol);
        QCOMPARE(s->type(), Tokenizer::Type::Bpe);
        QCOMPARE(s->preTokenizer(), std::string_view("smollm"));
        QVERIFY(s->isEndOfGeneration(s->findToken("<|im_end|>")));
        QVERIFY(s->isControl(s->findToken("<|im_start|>")));
        QCOMPARE(s->encode("<|im_start|>user", false, true).front(), s->findToken("<|im_start|>"));
        QVERIFY(s->encode("<|im_start|>user", false, false).front() != s->findToken("<|im_start|>"));
        HEARTH_REQUIRE_MODEL(gemma, gemma3Path);
        const auto g = load(gemma);
        QCOMPARE(g->type(), Tokenizer::Type::Spm);
        QVERIFY(g->addBos());
        QCOMPARE(g->encode("hi", true, false).front(), g->bos());
        QVERIFY(g->isEndOfGeneration(g->findToken("<end_of_turn>")));
        QCOMPARE(g->tokenToPiece(g->bos(), false), std::string());
        QCOMPARE(g->tokenToPiece(g->bos(), true), std::string("<bos>"));
        QVERIFY_THROWS_EXCEPTION(hearth::Error, g->tokenToPiece(-1, true));
        QVERIFY_THROWS_EXCEPTION(hearth::Error, g->decode(std::vector<TokenId>{0, 1 << 30}, false));
    }

    // Pieces that split a character (byte fallback, byte-level BPE) come
    // out only when the character is complete.
    void streamingDecoderEmitsWholeCharacters()
    {
        const auto tok = load(tokrefs::dataPath("synthetic/spm-phi3.gguf"));
        const std::string text =
            "caf\xC3\xA9 \xE4\xBD\xA0\xE5\xA5\xBD \xF0\x9F\xA6\x99 \xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7 ok";
        const std::vector<TokenId> ids = tok->encode(text, false, false);
        StreamingDecoder stream(*tok);
        std::string joined;
        for (const TokenId id : ids) {
            const std::string chunk = stream.push(id);
            QVERIFY2(validUtf8(chunk), chunk.c_str());
            joined += chunk;
        }
        joined += stream.flush();
        std::string pieces;
        for (const TokenId id : ids)
            pieces += tok->tokenToPiece(id, false);
        QCOMPARE(joined, pieces);
        QCOMPARE(joined, " " + text); // SPM's space prefix is kept when streaming

        const TokenId e4 = tok->findToken("<0xE4>"), bd = tok->findToken("<0xBD>"), a0 = tok->findToken("<0xA0>");
        StreamingDecoder bytes(*tok);
        QCOMPARE(bytes.push(e4), std::string());
        QCOMPARE(bytes.push(bd), std::string());
        QCOMPARE(bytes.push(a0), std::string("\xE4\xBD\xA0"));
        QCOMPARE(bytes.push(tok->findToken("<0xFF>")), std::string("\xEF\xBF\xBD"));
        QCOMPARE(bytes.push(e4), std::string());
        QCOMPARE(bytes.push(tok->findToken("a")), std::string("\xEF\xBF\xBD"
                                                              "a"));
        QCOMPARE(bytes.push(e4), std::string());
        QCOMPARE(bytes.flush(), std::string("\xEF\xBF\xBD"));
        QCOMPARE(bytes.flush(), std::string());
        StreamingDecoder special(*tok, /*renderSpecial=*/true);
        QCOMPARE(special.push(tok->findToken("<|user|>")), std::string("<|user|>"));
    }

    // Code points past U+10FFFF make llama.cpp abort; here they are U+FFFD.
    void beyondUnicodeDoesNotCrash_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* name : {"spm-phi3", "spm-mask", "ugm", "ugm-charsmap", "gemma4"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }
    void beyondUnicodeDoesNotCrash()
    {
        QFETCH(QString, name);
        const auto tok = load(tokrefs::dataPath("synthetic/" + name.toStdString() + ".gguf"));
        for (const char* text : {"a\xF4\x90\x80\x80"
                                 "b",
                                 "\xF7\xBF\xBF\xBF", "\xF5\x80\x80\x80 x"}) {
            const std::vector<TokenId> ids = tok->encode(text, true, true);
            QVERIFY(!ids.empty());
            QVERIFY(validUtf8(tok->decode(ids, false)) || name.startsWith(QLatin1String("spm")));
        }
    }

    void concurrentEncodingAgrees()
    {
        const auto tok = load(tokrefs::dataPath("synthetic/gemma4.gguf"));
        const std::vector<std::string> corpus = tokrefs::readCorpus(tokrefs::dataPath("corpus.bin"));
        std::vector<std::vector<TokenId>> expected;
        for (size_t i = 0; i < 400; ++i)
            expected.push_back(tok->encode(corpus[i], true, true));
        std::vector<std::thread> threads;
        std::vector<int> mismatches(4, 0);
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&, t] {
                for (size_t i = static_cast<size_t>(t); i < expected.size(); i += 2)
                    mismatches[static_cast<size_t>(t)] += tok->encode(corpus[i], true, true) != expected[i];
            });
        }
        for (std::thread& th : threads)
            th.join();
        QCOMPARE(mismatches, std::vector<int>(4, 0));
    }
};

QTEST_GUILESS_MAIN(TestTokenizerApi)
#include "test_tokenizer_api.moc"

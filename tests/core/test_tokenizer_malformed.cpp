// Broken vocabulary metadata: every hand-broken file is refused with a
// hearth::Error that names the key; randomly generated vocabularies (odd
// types, ids, merges, texts) and random input never crash (run under ASan
// with the `asan` label).

#include "gguf_bytes.h"

#include "gguf/gguf.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

using namespace hearth;
using ggufbytes::Builder;

namespace {

std::vector<std::string> spmTokens()
{
    std::vector<std::string> t = {"<unk>", "<s>", "</s>"};
    static constexpr char kHex[] = "0123456789ABCDEF";
    for (int b = 0; b < 256; ++b)
        t.push_back(std::string("<0x") + kHex[b >> 4] + kHex[b & 15] + ">");
    for (const char* s : {"\xE2\x96\x81", "a", "b", "c",
                          "\xE2\x96\x81"
                          "a",
                          "ab", "abc"})
        t.push_back(s);
    return t;
}

Builder spmBase(const std::vector<std::string>& tokens)
{
    Builder b;
    b.str("general.architecture", "llama")
        .str("tokenizer.ggml.model", "llama")
        .strings("tokenizer.ggml.tokens", tokens);
    return b;
}

// The loader's error for `b`, or "" when it loads.
std::string loadError(const QTemporaryDir& dir, const Builder& b, std::vector<std::string>* warnings = nullptr)
{
    const std::string path = dir.filePath(QStringLiteral("vocab.gguf")).toStdString();
    b.write(path);
    try {
        const gguf::File file(path);
        const auto tok = Tokenizer::fromGguf(file);
        if (warnings)
            *warnings = tok->warnings();
        return {};
    } catch (const hearth::Error& e) {
        return e.what();
    }
}

std::string randomBytes(std::mt19937& rng, size_t maxLength)
{
    static const std::vector<std::string> kPieces = {"a",   "b",    " ",    "\n",   "\xE2\x96\x81",
                                                     "<s>", "</s>", "\xC3", "\xA9", "\xF0\x9F\x98\x80",
                                                     "'s",  "12",   "\t",   "<|x|>"};
    std::string s;
    const size_t n = rng() % (maxLength + 1);
    while (s.size() < n) {
        if (rng() % 3 == 0)
            s += static_cast<char>(rng() % 256);
        else
            s += kPieces[rng() % kPieces.size()];
    }
    return s;
}

// A vocabulary of random shape: any model, pre-tokenizer, token types,
// scores, merges and special ids, texts with invalid UTF-8 and duplicates.
Builder randomVocab(std::mt19937& rng)
{
    static const char* kModels[] = {"llama", "gpt2", "bert", "t5", "gemma4"};
    static const char* kPres[] = {"gpt-2",  "llama3",   "qwen2",    "deepseek-llm", "deepseek-v3", "gpt-4o",
                                  "tekken", "tiny_aya", "superbpe", "chameleon",    "default",     "viking"};
    Builder b;
    b.str("general.architecture", rng() % 5 ? "llama" : "phi3");
    b.str("general.name", rng() % 4 ? "random" : "phi-3 random");
    b.str("tokenizer.ggml.model", kModels[rng() % 5]);
    if (rng() % 4)
        b.str("tokenizer.ggml.pre", kPres[rng() % 12]);
    const size_t n = 1 + rng() % 300;
    std::vector<std::string> tokens;
    const bool allowDuplicates = rng() % 10 == 0;
    for (size_t i = 0; i < n; ++i) {
        std::string token = randomBytes(rng, 6);
        if (!allowDuplicates && std::find(tokens.begin(), tokens.end(), token) != tokens.end())
            token += "#" + std::to_string(i);
        tokens.push_back(token);
    }
    b.strings("tokenizer.ggml.tokens", tokens);
    std::vector<int32_t> types;
    std::vector<float> scores;
    for (size_t i = 0; i < n; ++i) {
        types.push_back(static_cast<int32_t>(rng() % 9) - 1);
        const int k = static_cast<int>(rng() % 20);
        scores.push_back(k == 0 ? NAN : k == 1 ? INFINITY : -static_cast<float>(rng() % 1000) / 10.0f);
    }
    if (rng() % 5)
        b.array("tokenizer.ggml.token_type", ggufbytes::I32, types);
    if (rng() % 5)
        b.array("tokenizer.ggml.scores", ggufbytes::F32, scores);
    std::vector<std::string> merges;
    for (size_t i = 0, m = rng() % 400; i < m; ++i)
        merges.push_back(tokens[rng() % n] + (rng() % 10 ? " " : "") + tokens[rng() % n]);
    if (rng() % 6)
        b.strings("tokenizer.ggml.merges", merges);
    for (const char* key : {"tokenizer.ggml.bos_token_id", "tokenizer.ggml.eos_token_id",
                            "tokenizer.ggml.unknown_token_id", "tokenizer.ggml.seperator_token_id"}) {
        if (rng() % 3 == 0)
            b.u32(key, static_cast<uint32_t>(rng() % (n + 2)));
    }
    if (rng() % 3 == 0)
        b.boolean("tokenizer.ggml.add_bos_token", rng() % 2);
    if (rng() % 3 == 0)
        b.boolean("tokenizer.ggml.add_eos_token", rng() % 2);
    if (rng() % 3 == 0)
        b.boolean("tokenizer.ggml.add_space_prefix", rng() % 2);
    if (rng() % 3 == 0)
        b.boolean("tokenizer.ggml.remove_extra_whitespaces", rng() % 2);
    if (rng() % 3 == 0) {
        std::vector<uint8_t> map(rng() % 64);
        for (uint8_t& byte : map)
            byte = static_cast<uint8_t>(rng());
        if (map.size() >= 4)
            map[0] = static_cast<uint8_t>(rng() % 48), map[1] = map[2] = map[3] = 0;
        b.array("tokenizer.ggml.precompiled_charsmap", ggufbytes::U8, map);
    }
    return b;
}

} // namespace

class TestTokenizerMalformed : public QObject {
    Q_OBJECT

private slots:
    void brokenKeyIsNamed_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("key");
        const char* rows[][2] = {
            {"no model", "tokenizer.ggml.model"},
            {"unknown model", "tokenizer.ggml.model"},
            {"model not a string", "tokenizer.ggml.model"},
            {"no tokens", "tokenizer.ggml.tokens"},
            {"tokens of ints", "tokenizer.ggml.tokens"},
            {"tokens not an array", "tokenizer.ggml.tokens"},
            {"no tokens in array", "tokenizer.ggml.tokens"},
            {"duplicate token", "tokenizer.ggml.tokens"},
            {"short scores", "tokenizer.ggml.scores"},
            {"scores of strings", "tokenizer.ggml.scores"},
            {"short token types", "tokenizer.ggml.token_type"},
            {"float token types", "tokenizer.ggml.token_type"},
            {"bpe without merges", "tokenizer.ggml.merges"},
            {"merges of ints", "tokenizer.ggml.merges"},
            {"unknown pre", "tokenizer.ggml.pre"},
            {"bos out of range", "tokenizer.ggml.bos_token_id"},
            {"eos negative", "tokenizer.ggml.eos_token_id"},
            {"unk as string", "tokenizer.ggml.unknown_token_id"},
            {"add bos without bos", "tokenizer.ggml.add_bos_token"},
            {"add bos not bool", "tokenizer.ggml.add_bos_token"},
            {"charsmap too short", "tokenizer.ggml.precompiled_charsmap"},
            {"charsmap past end", "tokenizer.ggml.precompiled_charsmap"},
        };
        int i = 0;
        for (const auto& row : rows)
            QTest::newRow(row[0]) << i++ << QString::fromLatin1(row[1]);
    }

    void brokenKeyIsNamed()
    {
        QFETCH(int, which);
        QFETCH(QString, key);
        QTemporaryDir dir;
        const std::vector<std::string> tokens = spmTokens();
        std::vector<std::string> dup = tokens;
        dup.push_back("ab");
        const std::vector<float> scores(tokens.size(), 0.0f);
        Builder b;
        switch (which) {
        case 0: b.str("general.architecture", "llama").strings("tokenizer.ggml.tokens", tokens); break;
        case 1: b.str("tokenizer.ggml.model", "nonsense").strings("tokenizer.ggml.tokens", tokens); break;
        case 2: b.str("general.architecture", "llama").u32("tokenizer.ggml.model", 3); break;
        case 3: b.str("general.architecture", "llama").str("tokenizer.ggml.model", "llama"); break;
        case 4:
            b.str("tokenizer.ggml.model", "llama")
                .array("tokenizer.ggml.tokens", ggufbytes::I32, std::vector<int32_t>{1});
            break;
        case 5: b.str("tokenizer.ggml.model", "llama").str("tokenizer.ggml.tokens", "a"); break;
        case 6: b.str("tokenizer.ggml.model", "llama").strings("tokenizer.ggml.tokens", {}); break;
        case 7: b = spmBase(dup); break;
        case 8: b = spmBase(tokens).array("tokenizer.ggml.scores", ggufbytes::F32, std::vector<float>{1.0f}); break;
        case 9: b = spmBase(tokens).strings("tokenizer.ggml.scores", tokens); break;
        case 10:
            b = spmBase(tokens).array("tokenizer.ggml.token_type", ggufbytes::I32, std::vector<int32_t>{1, 1});
            break;
        case 11: b = spmBase(tokens).array("tokenizer.ggml.token_type", ggufbytes::F32, scores); break;
        case 12:
            b.str("tokenizer.ggml.model", "gpt2")
                .str("tokenizer.ggml.pre", "gpt-2")
                .strings("tokenizer.ggml.tokens", tokens);
            break;
        case 13:
            b.str("tokenizer.ggml.model", "gpt2")
                .strings("tokenizer.ggml.tokens", tokens)
                .array("tokenizer.ggml.merges", ggufbytes::I32, std::vector<int32_t>{1});
            break;
        case 14:
            b.str("tokenizer.ggml.model", "gpt2")
                .str("tokenizer.ggml.pre", "no-such-pre")
                .strings("tokenizer.ggml.tokens", tokens)
                .strings("tokenizer.ggml.merges", {"a b"});
            break;
        case 15: b = spmBase(tokens).u32("tokenizer.ggml.bos_token_id", 100000); break;
        case 16: b = spmBase(tokens).i32("tokenizer.ggml.eos_token_id", -1); break;
        case 17: b = spmBase(tokens).str("tokenizer.ggml.unknown_token_id", "0"); break;
        case 18:
            b.str("tokenizer.ggml.model", "gpt2")
                .str("tokenizer.ggml.pre", "gpt-2")
                .strings("tokenizer.ggml.tokens", {"a", "b"})
                .strings("tokenizer.ggml.merges", {"a b"})
                .boolean("tokenizer.ggml.add_bos_token", true);
            break;
        case 19: b = spmBase(tokens).u32("tokenizer.ggml.add_bos_token", 1); break;
        case 20:
            b.str("tokenizer.ggml.model", "t5")
                .strings("tokenizer.ggml.tokens", tokens)
                .array("tokenizer.ggml.precompiled_charsmap", ggufbytes::U8, std::vector<uint8_t>{1, 0});
            break;
        case 21:
            b.str("tokenizer.ggml.model", "t5")
                .strings("tokenizer.ggml.tokens", tokens)
                .array("tokenizer.ggml.precompiled_charsmap", ggufbytes::U8, std::vector<uint8_t>{200, 0, 0, 0, 1, 2});
            break;
        }
        const std::string error = loadError(dir, b);
        QVERIFY2(!error.empty(), "the broken file loaded");
        QVERIFY2(error.find(key.toStdString()) != std::string::npos, error.c_str());
    }

    // llama.cpp loads these with a warning; so does Hearth.
    void toleratedWithWarning()
    {
        QTemporaryDir dir;
        std::vector<std::string> warnings;
        QCOMPARE(loadError(dir, spmBase(spmTokens()).u32("tokenizer.ggml.padding_token_id", 99999), &warnings), "");
        QCOMPARE(warnings.size(), size_t(1));
        const std::vector<std::string> bytes = {"a", "b", "ab"};
        Builder noPre;
        noPre.str("tokenizer.ggml.model", "gpt2")
            .strings("tokenizer.ggml.tokens", bytes)
            .strings("tokenizer.ggml.merges", {"a b"});
        QCOMPARE(loadError(dir, noPre, &warnings), "");
        QVERIFY(!warnings.empty() && warnings[0].find("tokenizer.ggml.pre") != std::string::npos);
    }

    void randomVocabulariesNeverCrash()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("random.gguf")).toStdString();
        std::mt19937 rng(1234);
        int loaded = 0;
        for (int round = 0; round < 400; ++round) {
            randomVocab(rng).write(path);
            std::unique_ptr<Tokenizer> tok;
            try {
                const gguf::File file(path);
                tok = Tokenizer::fromGguf(file);
            } catch (const hearth::Error&) {
                continue;
            }
            ++loaded;
            for (int t = 0; t < 8; ++t) {
                const std::string text = randomBytes(rng, 40);
                const std::vector<TokenId> ids = tok->encode(text, t & 1, t & 2);
                for (const TokenId id : ids)
                    QVERIFY(id >= 0 && id < tok->vocabSize());
                (void)tok->decode(ids, t & 4);
                StreamingDecoder stream(*tok, t & 1);
                for (const TokenId id : ids)
                    (void)stream.push(id);
                (void)stream.flush();
            }
            QVERIFY_THROWS_EXCEPTION(hearth::Error, tok->tokenToPiece(tok->vocabSize(), true));
        }
        QVERIFY(loaded > 50);
    }
};

QTEST_GUILESS_MAIN(TestTokenizerMalformed)
#include "test_tokenizer_malformed.moc"

// The gpt2 (byte-level BPE) and bert (WordPiece) vocabularies: llama.cpp's
// get_vocab_base(), which reads the tokenizer as transformers' AutoTokenizer
// presents it, then the pre-tokenizer hash and the special vocabulary.
#include "convert/pre_tokenizer_detect.h"
#include "convert/special_vocab.h"
#include "convert/vocab.h"

#include "gguf/gguf.h"
#include "gguf/gguf_writer.h"
#include "tokenizer/pretokenizer.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace hearth::convert {

namespace {

constexpr int32_t kNormal = 1, kControl = 3, kUserDefined = 4, kUnused = 5;
const std::string kSpaceMark = "\xe2\x96\x81"; // U+2581

struct AddedToken {
    int64_t id = 0;
    std::string content;
    bool special = false;
};

Json member(const Json& obj, const char* key)
{
    if (!obj.is_object())
        return Json();
    const auto it = obj.find(key);
    return it == obj.end() ? Json() : *it;
}

// tokenizer.json's added_tokens, overlaid with tokenizer_config.json's
// added_tokens_decoder (transformers reads both; the config wins).
std::vector<AddedToken> addedTokens(const HfFolder& folder)
{
    std::map<int64_t, AddedToken> byId;
    if (const Json* tok = folder.tokenizerJson())
        if (const Json list = member(*tok, "added_tokens"); list.is_array())
            for (const Json& a : list)
                if (member(a, "id").is_number_integer() && member(a, "content").is_string())
                    byId[a["id"].get<int64_t>()] = {a["id"].get<int64_t>(), a["content"].get<std::string>(),
                                                    member(a, "special") == Json(true)};
    if (const Json* cfg = folder.tokenizerConfig())
        if (const Json dec = member(*cfg, "added_tokens_decoder"); dec.is_object())
            for (const auto& [key, a] : dec.items()) {
                char* end = nullptr;
                const long long id = std::strtoll(key.c_str(), &end, 10);
                if (end == key.c_str() || *end || id < 0 || !member(a, "content").is_string())
                    continue;
                byId[id] = {id, a["content"].get<std::string>(), member(a, "special") == Json(true)};
            }
    std::vector<AddedToken> out;
    for (auto& [id, t] : byId)
        out.push_back(std::move(t));
    return out;
}

std::string readText(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to)
{
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

struct BaseVocab {
    std::vector<std::string> tokens;
    std::vector<int32_t> types;
};

// get_vocab_base(): ids 0..vocabSize-1, holes as [PADi] (unused), added
// tokens as control (special, or looking special) or user-defined.
BaseVocab baseVocab(const HfFolder& folder, const std::map<std::string, int64_t>& vocab,
                    std::optional<int64_t> vocabSize)
{
    const std::vector<AddedToken> added = addedTokens(folder);
    std::map<int64_t, std::string> reverse;
    std::map<std::string, int64_t> all = vocab;
    for (const auto& [text, id] : vocab)
        reverse[id] = text;
    for (const AddedToken& a : added) {
        all[a.content] = a.id;
        reverse[a.id] = a.content;
    }
    const int64_t size = vocabSize.value_or(static_cast<int64_t>(all.size()));
    if (!reverse.empty() && reverse.rbegin()->first >= size)
        throw Error(folder.path("config.json").string() + ": vocab_size " + std::to_string(size) +
                    " is smaller than the tokenizer's largest id " + std::to_string(reverse.rbegin()->first));
    if (size <= 0 || size > 16'000'000)
        throw Error(folder.dir().string() + ": vocabulary size " + std::to_string(size) + " is out of range");
    std::map<std::string, const AddedToken*> addedByText;
    for (const AddedToken& a : added)
        addedByText[a.content] = &a;
    BaseVocab out;
    out.tokens.reserve(static_cast<size_t>(size));
    for (int64_t i = 0; i < size; ++i) {
        const auto it = reverse.find(i);
        if (it == reverse.end()) {
            out.tokens.push_back("[PAD" + std::to_string(i) + "]");
            out.types.push_back(kUnused);
            continue;
        }
        std::string token = it->second;
        const auto a = addedByText.find(token);
        if (a == addedByText.end()) {
            out.types.push_back(kNormal);
        } else if (a->second->special || tokenLooksSpecial(token)) {
            out.types.push_back(kControl);
        } else {
            token = replaceAll(token, kSpaceMark, " "); // pre-normalized user-defined spaces
            out.types.push_back(kUserDefined);
        }
        out.tokens.push_back(std::move(token));
    }
    return out;
}

std::map<std::string, int64_t> vocabObject(const Json& v, const std::string& where)
{
    if (!v.is_object())
        throw Error(where + ": the model's vocab is not an object of token -> id");
    std::map<std::string, int64_t> out;
    for (const auto& [k, id] : v.items()) {
        if (!id.is_number_integer() || id.get<int64_t>() < 0)
            throw Error(where + ": token '" + k + "' has no valid id");
        out[k] = id.get<int64_t>();
    }
    return out;
}

// The ids Hugging Face's encode() gives `ids` once its post-processor has
// added the special tokens (single sequence).
std::vector<int32_t> withPostProcessor(const Json* tok, const std::vector<int32_t>& ids, bool wordPiece,
                                       const std::function<int32_t(const std::string&)>& idOf)
{
    const Json post = tok ? member(*tok, "post_processor") : Json();
    if (post.is_null()) {
        if (!wordPiece || tok)
            return ids;
        std::vector<int32_t> out{idOf("[CLS]")}; // BertTokenizer without tokenizer.json
        out.insert(out.end(), ids.begin(), ids.end());
        out.push_back(idOf("[SEP]"));
        return out;
    }
    std::vector<int32_t> out = ids;
    const Json list = member(post, "processors");
    for (const Json& p : list.is_array() ? list : Json::array({post})) {
        const Json type = member(p, "type");
        if (type == Json("BertProcessing") || type == Json("RobertaProcessing")) {
            const Json cls = member(p, "cls"), sep = member(p, "sep");
            if (cls.size() == 2 && sep.size() == 2 && cls[1].is_number_integer() && sep[1].is_number_integer()) {
                out.insert(out.begin(), cls[1].get<int32_t>());
                out.push_back(sep[1].get<int32_t>());
            }
        } else if (type == Json("TemplateProcessing")) {
            std::vector<int32_t> t;
            const Json specials = member(p, "special_tokens");
            for (const Json& e : member(p, "single")) {
                if (member(e, "Sequence").is_object()) {
                    t.insert(t.end(), out.begin(), out.end());
                } else if (const Json id = member(member(e, "SpecialToken"), "id"); id.is_string()) {
                    for (const Json& i : member(member(specials, id.get<std::string>().c_str()), "ids"))
                        if (i.is_number_integer())
                            t.push_back(i.get<int32_t>());
                }
            }
            out = std::move(t);
        }
    }
    return out;
}

// tokenizer.ggml.pre by the check-text hash (see pre_tokenizer_detect.h).
std::string detectPre(const HfFolder& folder, std::string_view model, const BaseVocab& v,
                      const std::vector<std::string>& merges)
{
    gguf::Writer w;
    w.addString("general.architecture", "llama");
    w.addString("tokenizer.ggml.model", model);
    w.addString("tokenizer.ggml.pre", model == "bert" ? "default" : "gpt-2");
    w.addStringArray("tokenizer.ggml.tokens", std::span<const std::string>(v.tokens));
    w.addArray("tokenizer.ggml.token_type", v.types);
    if (!merges.empty())
        w.addStringArray("tokenizer.ggml.merges", std::span<const std::string>(merges));
    for (size_t i = 0; i < v.tokens.size(); ++i) // WPM needs its unknown token
        if (v.tokens[i] == "[UNK]")
            w.addUInt32("tokenizer.ggml.unknown_token_id", static_cast<uint32_t>(i));
    const std::vector<uint8_t> bytes = w.bytes();
    const gguf::File file("vocabulary of " + folder.dir().string(), bytes);
    const std::function<int32_t(const std::string&)> idOf = [&](const std::string& t) {
        for (size_t i = 0; i < v.tokens.size(); ++i)
            if (v.tokens[i] == t)
                return static_cast<int32_t>(i);
        return int32_t{0};
    };
    std::set<const tok::PreTokenizerDef*> tried;
    std::vector<std::string> hashes;
    for (std::string_view name :
         model == "bert" ? std::vector<std::string_view>{"default"} : preTokenizerTableNames()) {
        const tok::PreTokenizerDef* def = tok::findPreTokenizer(name);
        if (!def || !tried.insert(def).second)
            continue;
        const auto tokenizer = Tokenizer::fromGguf(file, Tokenizer::Options{std::string(name)});
        const std::vector<int32_t> ids =
            withPostProcessor(folder.tokenizerJson(),
                              tokenizer->encode(preTokenizerCheckText(), /*addSpecial=*/false, /*parseSpecial=*/false),
                              model == "bert", idOf);
        const std::string hash = sha256Hex(pythonListString(ids));
        if (const auto found = preTokenizerForHash(hash))
            return std::string(*found);
        hashes.push_back(hash);
    }
    throw Error(folder.dir().string() + ": the tokenizer's pre-tokenizer is not one llama.cpp knows (check-text hash " +
                (hashes.empty() ? std::string("?") : hashes.front()) +
                "); llama.cpp's converter refuses it too. Name one with --pre if you know it");
}

void writeBase(gguf::Writer& w, std::string_view model, const std::string& pre, const BaseVocab& v)
{
    w.addString("tokenizer.ggml.model", model);
    w.addString("tokenizer.ggml.pre", pre);
    w.addStringArray("tokenizer.ggml.tokens", std::span<const std::string>(v.tokens));
    w.addArray("tokenizer.ggml.token_type", v.types);
}

} // namespace

bool tokenLooksSpecial(std::string_view t)
{
    if (t == "<pad>" || t == "<mask>" || t == "<2mass>" || t == "[@BOS@]")
        return true;
    if (t.starts_with("<|") && t.ends_with("|>"))
        return true;
    if (t.starts_with("<\xef\xbd\x9c") && t.ends_with("\xef\xbd\x9c>")) // <｜ ... ｜> (deepseek)
        return true;
    return t.starts_with("<unused") && t.ends_with(">");
}

void writeVocabGpt2(const HfFolder& folder, gguf::Writer& w, const VocabOptions& options)
{
    std::map<std::string, int64_t> vocab;
    if (folder.hasFile("vocab.json")) { // a "slow" tokenizer
        vocab = vocabObject(readJsonFile(folder.path("vocab.json")), folder.path("vocab.json").string());
    } else if (const Json* tok = folder.tokenizerJson()) {
        const Json model = member(*tok, "model");
        if (member(model, "type") != Json("BPE"))
            throw VocabNotFound(folder.path("tokenizer.json").string() + ": not a BPE tokenizer");
        vocab = vocabObject(member(model, "vocab"), folder.path("tokenizer.json").string());
    } else {
        throw VocabNotFound(folder.dir().string() + ": no tokenizer.json or vocab.json");
    }
    const BaseVocab v = baseVocab(folder, vocab, options.vocabSize);
    SpecialVocab special(folder, /*loadMerges=*/true, std::nullopt);
    if (special.merges.empty())
        throw Error(folder.dir().string() + ": the BPE tokenizer has no merges");
    const std::string pre =
        options.preTokenizer.empty() ? detectPre(folder, "gpt2", v, special.merges) : options.preTokenizer;
    writeBase(w, "gpt2", pre, v);
    special.addToGguf(w);
}

void writeVocabBert(const HfFolder& folder, gguf::Writer& w, const VocabOptions& options)
{
    std::map<std::string, int64_t> vocab;
    if (const Json* tok = folder.tokenizerJson(); tok && member(member(*tok, "model"), "type") == Json("WordPiece")) {
        vocab = vocabObject(member(member(*tok, "model"), "vocab"), folder.path("tokenizer.json").string());
    } else if (folder.hasFile("vocab.txt")) {
        std::istringstream in(readText(folder.path("vocab.txt")));
        std::string line;
        for (int64_t id = 0; std::getline(in, line); ++id)
            vocab[line] = id; // a repeated line takes its last id, as BERT's load_vocab
    } else {
        throw VocabNotFound(folder.dir().string() + ": no WordPiece tokenizer.json or vocab.txt");
    }
    BaseVocab v = baseVocab(folder, vocab, options.vocabSize);
    for (size_t i = 0; i < v.tokens.size(); ++i) { // llama.cpp's phantom-space form
        std::string& t = v.tokens[i];
        if (v.types[i] == kControl)
            continue;
        t = t.starts_with("##") ? t.substr(2) : kSpaceMark + t;
    }
    const std::string pre = options.preTokenizer.empty() ? detectPre(folder, "bert", v, {}) : options.preTokenizer;
    const JsonObject& cfg = folder.config();
    w.addUInt32("tokenizer.ggml.token_type_count", static_cast<uint32_t>(cfg.findInt("type_vocab_size").value_or(1)));
    writeBase(w, "bert", pre, v);
    SpecialVocab(folder, /*loadMerges=*/false, static_cast<int64_t>(v.tokens.size())).addToGguf(w);
}

} // namespace hearth::convert

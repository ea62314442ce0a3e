// The pre-tokenizers by `tokenizer.ggml.pre` name: their regexes (those of
// the models' tokenizer.json files, as llama.cpp adapts them: (?i:...)
// spelled out as [sS] classes, case classes of the gpt-4o family as
// "letter but not a-z") and the options each name implies. Non-ASCII
// characters in regexes are written as \x{...} escapes.
#include "tokenizer/pretokenizer.h"

#include <algorithm>

namespace hearth::tok {

namespace {

constexpr std::string_view kGpt2 = R"re('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S))re";
constexpr std::string_view kLlama3 =
    R"re((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
constexpr std::string_view kQwen2 =
    R"re((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
constexpr std::string_view kDeepseek3Main =
    R"re([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
constexpr std::string_view kCjkKana = R"re([\x{4E00}-\x{9FA5}\x{3040}-\x{309F}\x{30A0}-\x{30FF}]+)re";
constexpr std::string_view kCjkHangul = R"re([\x{4E00}-\x{9FA5}\x{800}-\x{4E00}\x{AC00}-\x{D7FF}]+)re";
constexpr std::string_view kPoro = R"re( ?[^(\s|.,!?\x{2026}\x{3002}\x{FF0C}\x{3001}\x{964}\x{6D4}\x{60C})]+)re";

// Deepseek LLM's cased letters, and its ASCII / full-width punctuation.
constexpr std::string_view kDeepseekLetters =
    R"re(\s?[A-Za-z\x{B5}\x{C0}-\x{D6}\x{D8}-\x{F6}\x{F8}-\x{1BA}\x{1BC}-\x{1BF}\x{1C4}-\x{293}\x{295}-\x{2AF})re"
    R"re(\x{370}-\x{373}\x{376}\x{377}\x{37B}-\x{37D}\x{37F}\x{386}\x{388}-\x{38A}\x{38C}\x{38E}-\x{3A1})re"
    R"re(\x{3A3}-\x{3F5}\x{3F7}-\x{481}\x{48A}-\x{52F}\x{531}-\x{556}\x{10A0}-\x{10C5}\x{13A0}-\x{13F5})re"
    R"re(\x{13F8}-\x{13FD}\x{1C90}-\x{1CBA}\x{1CBD}-\x{1CBF}\x{1D00}-\x{1D2B}\x{1D6B}-\x{1D77}\x{1D79}-\x{1D9A})re"
    R"re(\x{1E00}-\x{1F15}\x{1F18}-\x{1F1D}\x{1F20}-\x{1F45}\x{1F48}-\x{1F4D}\x{1F50}-\x{1F57}\x{1F59}\x{1F5B})re"
    R"re(\x{1F5D}\x{1F5F}-\x{1F7D}\x{1F80}-\x{1FB4}\x{1FB6}-\x{1FBC}\x{1FBE}\x{1FC2}-\x{1FC4}\x{1FC6}-\x{1FCC})re"
    R"re(\x{1FD0}-\x{1FD3}\x{1FD6}-\x{1FDB}\x{1FE0}-\x{1FEC}\x{1FF2}-\x{1FF4}\x{1FF6}-\x{1FFC}\x{2102}\x{2107})re"
    R"re(\x{210A}-\x{2113}\x{2115}\x{2119}-\x{211D}\x{2124}\x{2126}\x{2128}\x{212A}-\x{212D}\x{212F}-\x{2134})re"
    R"re(\x{2139}\x{213C}-\x{213F}\x{2145}-\x{2149}\x{214E}\x{2183}\x{2184}\x{2C00}-\x{2C7B}\x{2C7E}-\x{2CE4})re"
    R"re(\x{2CEB}-\x{2CEE}\x{2CF2}\x{2CF3}\x{A640}-\x{A66D}\x{A680}-\x{A69B}\x{A722}-\x{A76F}\x{A771}-\x{A787})re"
    R"re(\x{A78B}-\x{A78E}\x{AB70}-\x{ABBF}\x{FB00}-\x{FB06}\x{FB13}-\x{FB17}\x{FF21}-\x{FF3A}\x{FF41}-\x{FF5A})re"
    R"re(\x{10400}-\x{1044F}\x{104B0}-\x{104D3}\x{104D8}-\x{104FB}\x{10C80}-\x{10CB2}\x{10CC0}-\x{10CF2})re"
    R"re(\x{118A0}-\x{118DF}\x{1E900}-\x{1E943}]+)re";
constexpr std::string_view kDeepseekPunct =
    R"re(\s?[!-/:-~\x{FF01}-\x{FF0F}\x{FF1A}-\x{FF5E}\x{2018}-\x{201F}\x{3000}-\x{3002}]+)re";

// The gpt-4o family: [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+...
// with "upper" read as "letter but not a-z" and "lower" as "letter but not A-Z".
constexpr std::string_view kGpt4o =
    R"re([^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
constexpr std::string_view kTekken =
    R"re([^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+|[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
constexpr std::string_view kGraniteMulti =
    R"re([^\r\n\p{L}\p{N}]?((?=[\p{L}\p{M}])([^a-z]))*((?=[\p{L}\p{M}])([^A-Z]))+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?((?=[\p{L}\p{M}])([^a-z]))+((?=[\p{L}\p{M}])([^A-Z]))*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
constexpr std::string_view kTinyAya =
    R"re([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
constexpr std::string_view kYoutuCjk =
    R"re([\x{AC00}-\x{D7A3}\x{3131}-\x{318E}]+|[\x{FF01}\x{2026}\x{201C}\x{201D}\x{2018}\x{2019}\x{2014}\x{FF1A}\x{FF1B}\x{FF0C}\x{3001}-\x{303F}\x{FE30}-\x{FE4F}]+|[\x{3105}-\x{312F}]+|[\x{4E00}-\x{9FA5}\x{3040}-\x{309F}\x{30A0}-\x{30FF}]+)re";
constexpr std::string_view kYoutuMain =
    R"re([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
constexpr std::string_view kJais2 =
    R"re((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s{512}(?!\S)|\s{256}(?!\S)|\s{128}(?!\S)|\s{64}(?!\S)|\s{32}(?!\S)|\s{16}(?!\S)|\s{8}(?!\S)|\s{4}(?!\S)|\s{1,2}(?!\S)|\s{1})re";
constexpr std::string_view kQwen35 =
    R"re((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
constexpr std::string_view kBailing =
    R"re('(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+)re";
constexpr std::string_view kSeedCoder =
    R"re((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1}| ?[^\s\p{L}\p{N}\r\n]+|\s*[\r\n]+|\s+(?!\S)|\s+)re";
constexpr std::string_view kUfakzeka =
    R"re([^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
constexpr std::string_view kExaoneMoe =
    R"re((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?(?:\p{L}\p{M}*(?: \p{L}\p{M}*)*)+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]?|\s*[\r\n]|\s+(?!\S)|\s+)re";
constexpr std::string_view kMinicpm5 =
    R"re((?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}+| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)re";
// AFMoE (Arcee): CJK, kana, Thai, Lao, Khmer, Myanmar and Hangul runs.
constexpr std::string_view kAfmoeAsian =
    R"re([\x{4E00}-\x{9FFF}\x{3400}-\x{4DBF}\x{F900}-\x{FAFF}\x{3040}-\x{309F}\x{30A0}-\x{30FF}\x{FF65}-\x{FF9F})re"
    R"re(\x{2F00}-\x{2FDF}\x{E00}-\x{E7F}\x{E80}-\x{EFF}\x{1780}-\x{17FF}\x{1000}-\x{109F}\x{AA60}-\x{AA7F})re"
    R"re(\x{A9E0}-\x{A9FF}\x{AC00}-\x{D7AF}\x{1100}-\x{11FF}]+)re";
constexpr std::string_view kLines = R"re([^\n]+|[\n]+)re";
// Numbers in groups of three from the right (1234567 -> 1 234 567). Cohere's
// tokenizer.json says \d{1,3}(?=(?:\d{3})*\b); llama.cpp groups every run of
// \p{N} this way whatever follows it, and so does this.
constexpr std::string_view kDigitGroups = R"re(\p{N}{1,3}(?=(?:\p{N}{3})*(?!\p{N})))re";

const std::vector<PreTokenizerDef>& table()
{
    static const std::vector<PreTokenizerDef> defs = {
        {"default", {"default"}, {R"re([\p{P}\$\+<=>\^~\|]+)re", kGpt2, R"re(\p{N}+)re", "[0-9][0-9][0-9]"}, 0},
        {"llama3",
         {"llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral", "midm-2.0", "lfm2", "jina-v5-nano"},
         {kLlama3},
         PreIgnoreMerges | PreAddBos},
        {"dbrx", {"dbrx", "smaug-bpe"}, {kLlama3}, 0},
        {"chatglm4", {"glm4", "chatglm-bpe"}, {kLlama3}, PreNoBos},
        {"jais-2", {"jais-2"}, {kJais2}, 0},
        {"deepseek-llm",
         {"deepseek-llm"},
         {"[\\r\\n]", kDeepseekLetters, kDeepseekPunct, "\\s+$", kCjkHangul, "\\p{N}+"},
         PreKeepSpaces},
        {"deepseek-coder",
         {"deepseek-coder"},
         {"[\\r\\n]", "\\s?\\p{L}+", "\\s?\\p{P}+", kCjkHangul, "\\p{N}"},
         PreKeepSpaces},
        {"deepseek-v3",
         {"deepseek-v3", "hunyuan-dense", "joyai-llm", "hy_v4"},
         {"\\p{N}{1,3}", kCjkKana, kDeepseek3Main},
         PreKeepSpaces},
        {"spark2_5",
         {"spark2_5"},
         {"\\p{N}{1,3}", kCjkKana,
          R"re([!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+|[\r\n]|\s+(?!\S)|\s+)re",
          "\\p{N}"},
         PreKeepSpaces},
        {"youtu", {"youtu"}, {kYoutuCjk, kYoutuMain}, PreKeepSpaces | PreIgnoreMerges},
        {"falcon", {"falcon"}, {R"re([\p{P}\$\+<=>\^~\|`]+)re", kGpt2, "[0-9][0-9][0-9]"}, 0},
        {"starcoder", {"starcoder", "refact", "codeshell", "exaone", "minerva-7b", "mellum2"}, {"\\p{N}", kGpt2}, 0},
        {"command-r", {"command-r", "smollm"}, {"\\p{N}", kGpt2}, PreKeepSpaces},
        {"gpt-2",
         {"gpt-2", "phi-2", "jina-es", "jina-de", "gigachat", "jina-v2-es", "jina-v2-de", "a.x-4.0", "mellum",
          "modern-bert", "exaone4", "mpt", "olmo", "jais"},
         {kGpt2},
         0},
        {"roberta-bpe", {"jina-v1-en", "jina-v2-code", "roberta-bpe"}, {kGpt2}, PreAddSep},
        {"gpt-2-keep-spaces", {"trillion", "granite-docling"}, {kGpt2}, PreKeepSpaces},
        {"qwen2",
         {"qwen2", "deepseek-r1-qwen", "kormo", "f2llmv2", "hunyuan", "solar-open", "grok-2"},
         {kQwen2},
         PreKeepSpaces},
        {"stablelm2", {"stablelm2", "megrez"}, {kQwen2}, 0},
        {"qwen35", {"qwen35"}, {kQwen35}, PreKeepSpaces},
        {"bloom", {"bloom", "gpt3-finnish"}, {kPoro}, 0},
        {"poro-chat", {"poro-chat"}, {kPoro}, PreKeepSpaces},
        {"viking", {"viking"}, {kPoro, "\\p{N}"}, PreKeepSpaces},
        {"tekken", {"tekken"}, {kTekken}, PreKeepSpaces | PreIgnoreMerges | PreAddBos},
        {"chameleon",
         {"chameleon"},
         {"<sentinel:[0-9]+>", "(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z", "([\\t\\n]|    |  )", "\\p{N}",
          R"re([\p{P}!-/:-@\[-`{-~])re", kGpt2},
         PreKeepSpaces | PreAddBos},
        {"gpt-4o", {"gpt-4o", "llama4", "kanana2", "talkie", "minimax-m2"}, {kGpt4o}, PreKeepSpaces},
        {"granite-embed-multi-97m", {"granite-embed-multi-97m"}, {kGraniteMulti}, PreKeepSpaces | PreIgnoreMerges},
        {"tiny_aya", {"tiny_aya", "cohere2moe"}, {kDigitGroups, kTinyAya}, PreKeepSpaces},
        {"superbpe", {"superbpe"}, {"\\p{N}+", R"re((?=(\d{3})+(?!\d)))re"}, PreKeepSpaces},
        {"bailingmoe", {"bailingmoe", "bailingmoe2", "llada-moe"}, {kBailing}, PreKeepSpaces},
        {"seed-coder", {"seed-coder"}, {kSeedCoder}, PreKeepSpaces},
        {"ufakzeka", {"ufakzeka"}, {kUfakzeka}, PreKeepSpaces},
        {"laguna", {"laguna"}, {kLines, kQwen2}, PreKeepSpaces},
        {"exaone-moe", {"exaone-moe"}, {kExaoneMoe}, 0},
        {"minicpm5", {"minicpm5"}, {"\\p{N}{1,3}", kMinicpm5}, PreIgnoreMerges},
        {"afmoe", {"afmoe"}, {kDigitGroups, kAfmoeAsian, kDeepseek3Main}, PreKeepSpaces},
        {"gemma4",
         {"gemma4", "granite-embed-multi-311m"},
         {kLines},
         PreEscapeSpaces | PreRawBytes | PreAddBos | PreNewlineWords},
        {"sarvam-moe", {"sarvam-moe"}, {kLines}, PreEscapeSpaces | PreRawBytes | PreKeepSpaces},
    };
    return defs;
}

} // namespace

const PreTokenizerDef* findPreTokenizer(std::string_view name)
{
    for (const PreTokenizerDef& def : table()) {
        if (std::find(def.aliases.begin(), def.aliases.end(), name) != def.aliases.end())
            return &def;
    }
    return nullptr;
}

std::vector<std::string_view> knownPreTokenizerNames()
{
    std::vector<std::string_view> names;
    for (const PreTokenizerDef& def : table())
        names.insert(names.end(), def.aliases.begin(), def.aliases.end());
    return names;
}

} // namespace hearth::tok

#include "tokenizer/pretokenizer.h"

#include "tokenizer/unicode.h"
#include "util/error.h"

#include <pcre2.h>

#include <array>

namespace hearth::tok {

namespace {

// Bytes standing for non-ASCII code points in the collapsed text.
constexpr char kCollapsedOther = '\xD0';
constexpr char kCollapsedNumber = '\xD1';
constexpr char kCollapsedLetter = '\xD2';
constexpr char kCollapsedPunct = '\xD3';
constexpr char kCollapsedMark = '\xD4';
constexpr char kCollapsedSymbol = '\xD5';

struct Category {
    std::string_view name;
    char collapsed;
    std::string_view ascii; // class members below 128, as llama.cpp lists them
};

constexpr std::array<Category, 10> kCategories{{
    {"\\p{N}", kCollapsedNumber, "0-9"},
    {"\\p{L}", kCollapsedLetter, "A-Za-z"},
    {"\\p{P}", kCollapsedPunct, "!-#%-*,-/:-;?-@\\[-\\]_\\{\\}"},
    {"\\p{M}", kCollapsedMark, ""},
    {"\\p{S}", kCollapsedSymbol, "\\$\\+<->^`\\|~"},
    {"\\p{Lu}", kCollapsedLetter, "A-Za-z"},
    {"\\p{Ll}", kCollapsedLetter, "A-Za-z"},
    {"\\p{Lt}", kCollapsedLetter, "A-Za-z"},
    {"\\p{Lm}", kCollapsedLetter, "A-Za-z"},
    {"\\p{Lo}", kCollapsedLetter, "A-Za-z"},
}};

bool usesCategories(std::string_view regex)
{
    for (const Category& c : kCategories) {
        if (regex.find(c.name) != std::string_view::npos)
            return true;
    }
    return false;
}

void replaceAll(std::string& s, std::string_view from, std::string_view to)
{
    for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
        s.replace(pos, from.size(), to);
}

// Rewrites \p{X} for the collapsed text: a class of X's byte and X's ASCII
// members (merged into the enclosing class when inside one).
std::string collapseRegex(std::string_view regex)
{
    std::string out;
    bool inside = false;
    for (size_t i = 0; i < regex.size(); ++i) {
        if (regex[i] == '[' && (i == 0 || regex[i - 1] != '\\')) {
            out += '[';
            inside = true;
            continue;
        }
        if (inside && regex[i] == ']' && regex[i - 1] != '\\') {
            out += ']';
            inside = false;
            continue;
        }
        if (regex[i] == '\\' && i + 3 < regex.size() && regex[i + 1] == 'p' && regex[i + 2] == '{') {
            const size_t close = regex.find('}', i + 3);
            const Category* category = nullptr;
            if (close != std::string_view::npos && close <= i + 10) {
                for (const Category& c : kCategories) {
                    if (regex.substr(i, close - i + 1) == c.name)
                        category = &c;
                }
            }
            if (category) {
                out += inside ? "" : "[";
                out += category->collapsed;
                out += category->ascii;
                out += inside ? "" : "]";
                i = close;
                continue;
            }
        }
        out += regex[i];
    }
    // "A letter but not a-z" (an upper-case letter, as llama.cpp approximates
    // it) is one class in the collapsed text; saying so keeps PCRE2 from
    // backtracking through a group per character.
    replaceAll(out,
               "((?=[\xD2"
               "A-Za-z])([^a-z]))",
               "[\xD2"
               "A-Z]");
    replaceAll(out,
               "((?=[\xD2"
               "A-Za-z])([^A-Z]))",
               "[\xD2"
               "a-z]");
    replaceAll(out,
               "((?=[\xD2"
               "A-Za-z\xD4])([^a-z]))",
               "[\xD2\xD4"
               "A-Z]");
    replaceAll(out,
               "((?=[\xD2"
               "A-Za-z\xD4])([^A-Z]))",
               "[\xD2\xD4"
               "a-z]");
    return out;
}

char collapsedByte(uint32_t cp)
{
    if (cp < 128)
        return static_cast<char>(cp);
    const uint16_t flags = codepointFlags(cp);
    if (flags & CpWhitespace)
        return '\x0B';
    switch (flags & CpCategoryMask) {
    case CpNumber: return kCollapsedNumber;
    case CpLetter: return kCollapsedLetter;
    case CpPunctuation: return kCollapsedPunct;
    case CpMark: return kCollapsedMark;
    case CpSymbol: return kCollapsedSymbol;
    default: return kCollapsedOther;
    }
}

// Per-thread PCRE2 match state: match data and a JIT stack large enough for
// long words.
struct MatchState {
    pcre2_match_data* data = nullptr;
    pcre2_match_context* context = nullptr;
    pcre2_jit_stack* stack = nullptr;
    MatchState()
    {
        data = pcre2_match_data_create(1, nullptr);
        context = pcre2_match_context_create(nullptr);
        stack = pcre2_jit_stack_create(32 * 1024, 4 * 1024 * 1024, nullptr);
        if (context && stack)
            pcre2_jit_stack_assign(context, nullptr, stack);
    }
    ~MatchState()
    {
        pcre2_jit_stack_free(stack);
        pcre2_match_context_free(context);
        pcre2_match_data_free(data);
    }
    MatchState(const MatchState&) = delete;
    MatchState& operator=(const MatchState&) = delete;
};

MatchState& matchState()
{
    thread_local MatchState state;
    if (!state.data || !state.context)
        throw Error("tokenizer: out of memory for PCRE2 match data");
    return state;
}

} // namespace

struct PreTokenizer::Regex {
    pcre2_code* code = nullptr;
    bool collapsed = false;
    ~Regex() { pcre2_code_free(code); }
};

PreTokenizer::PreTokenizer(const PreTokenizerDef& def)
{
    for (std::string_view source : def.regexes) {
        auto regex = std::make_unique<Regex>();
        regex->collapsed = usesCategories(source);
        const std::string pattern = regex->collapsed ? collapseRegex(source) : std::string(source);
        const uint32_t options = PCRE2_DOLLAR_ENDONLY | PCRE2_NO_AUTO_CAPTURE | (regex->collapsed ? 0 : PCRE2_UTF);
        int error = 0;
        PCRE2_SIZE offset = 0;
        regex->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), options, &error,
                                    &offset, nullptr);
        if (!regex->code) {
            std::array<PCRE2_UCHAR, 256> message{};
            pcre2_get_error_message(error, message.data(), message.size());
            throw Error("pre-tokenizer '" + std::string(def.name) + "': regex does not compile at offset " +
                        std::to_string(offset) + ": " + reinterpret_cast<const char*>(message.data()));
        }
        pcre2_jit_compile(regex->code, PCRE2_JIT_COMPLETE); // falls back to the interpreter when JIT is absent
        m_needCollapsed |= regex->collapsed;
        m_needUtf |= !regex->collapsed;
        m_regexes.push_back(std::move(regex));
    }
}

PreTokenizer::~PreTokenizer() = default;

namespace {

// One subject for PCRE2: bytes, and the code point index of each byte offset
// (identity for the collapsed text).
struct Subject {
    std::string bytes;
    std::vector<uint32_t> cpOfByte; // empty when one byte per code point
    std::vector<uint32_t> byteOfCp; // idem
    size_t byteAt(uint32_t cp) const { return byteOfCp.empty() ? cp : byteOfCp[cp]; }
    uint32_t cpAt(size_t byte) const { return cpOfByte.empty() ? static_cast<uint32_t>(byte) : cpOfByte[byte]; }
};

// Runs one regex over the piece [begin, end) of the subject and appends the
// ends of its matches and of the text between them to `ends`.
void splitPiece(const pcre2_code* code, bool utf, const Subject& subject, uint32_t begin, uint32_t end,
                std::vector<uint32_t>& ends)
{
    MatchState& state = matchState();
    const size_t base = subject.byteAt(begin);
    const auto* text = reinterpret_cast<PCRE2_SPTR>(subject.bytes.data() + base);
    const size_t length = subject.byteAt(end) - base;
    const uint32_t noCheck = utf ? PCRE2_NO_UTF_CHECK : 0;
    const auto push = [&](size_t byteEnd) {
        const uint32_t cp = subject.cpAt(base + byteEnd);
        if (cp > (ends.empty() ? 0 : ends.back()) && cp > begin)
            ends.push_back(cp);
    };
    const auto match = [&](size_t start, uint32_t options) {
        int rc = pcre2_match(code, text, length, start, options | noCheck, state.data, state.context);
        if (rc < 0 && rc != PCRE2_ERROR_NOMATCH) // JIT stack exhausted: retry with the interpreter's heap
            rc = pcre2_match(code, text, length, start, options | noCheck | PCRE2_NO_JIT, state.data, nullptr);
        return rc;
    };
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(state.data);
    size_t pos = 0;
    while (pos <= length) {
        if (match(pos, 0) < 0)
            break; // no more matches (or a match too costly: the rest stays one piece)
        size_t s = ovector[0], e = ovector[1];
        if (s == e) {
            // An empty match only marks a cut; like std::regex_iterator, look
            // for a non-empty match at the same place before moving on.
            push(s);
            if (match(s, PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED) < 0) {
                pos = s + (s < length ? (utf ? utf8SequenceLength(text[s]) : 1) : 1);
                continue;
            }
            s = ovector[0];
            e = ovector[1];
        }
        push(s);
        push(e);
        pos = e;
    }
    if (ends.empty() || ends.back() < end)
        ends.push_back(end);
}

void buildCollapsed(std::span<const uint32_t> cps, Subject& subject)
{
    subject.bytes.resize(cps.size());
    for (size_t i = 0; i < cps.size(); ++i)
        subject.bytes[i] = collapsedByte(cps[i]);
}

// The code points as UTF-8, non-ASCII white space as \v, values UTF-8 cannot
// carry (surrogates, above U+10FFFF) as U+FFFD.
void buildUtf(std::span<const uint32_t> cps, Subject& subject)
{
    subject.bytes.clear();
    subject.byteOfCp.resize(cps.size() + 1);
    subject.cpOfByte.clear();
    for (size_t i = 0; i < cps.size(); ++i) {
        uint32_t cp = cps[i];
        if (cp >= 0x80 && isWhitespace(cp))
            cp = 0x0B;
        else if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
            cp = kReplacementChar;
        subject.byteOfCp[i] = static_cast<uint32_t>(subject.bytes.size());
        appendUtf8(subject.bytes, cp);
        subject.cpOfByte.resize(subject.bytes.size(), static_cast<uint32_t>(i));
    }
    subject.byteOfCp[cps.size()] = static_cast<uint32_t>(subject.bytes.size());
    subject.cpOfByte.push_back(static_cast<uint32_t>(cps.size()));
}

} // namespace

void PreTokenizer::split(std::span<const uint32_t> cps, std::vector<uint32_t>& ends) const
{
    ends.clear();
    if (cps.empty())
        return;
    Subject collapsed, utf;
    if (m_needCollapsed)
        buildCollapsed(cps, collapsed);
    if (m_needUtf)
        buildUtf(cps, utf);
    ends.push_back(static_cast<uint32_t>(cps.size()));
    std::vector<uint32_t> next;
    for (const auto& regex : m_regexes) {
        next.clear();
        next.reserve(ends.size() * 2);
        uint32_t begin = 0;
        for (const uint32_t end : ends) {
            splitPiece(regex->code, !regex->collapsed, regex->collapsed ? collapsed : utf, begin, end, next);
            begin = end;
        }
        ends.swap(next);
    }
}

} // namespace hearth::tok

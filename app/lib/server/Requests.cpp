#include "Requests.h"

#include <cmath>
#include <limits>

namespace hearth::server {

using nlohmann::json;

namespace {

const char* typeName(const json& v)
{
    switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::binary: return "binary";
    case json::value_t::discarded: return "invalid";
    default: return "a number";
    }
}

std::string showNumber(double v)
{
    json j = v;
    return j.dump();
}

// Typed access to the fields of one JSON object; every failure names the
// field (with its path, e.g. "messages[2].content").
class Fields {
public:
    Fields(const json& object, std::string prefix = {}) : m_o(object), m_prefix(std::move(prefix)) {}

    std::string path(std::string_view name) const { return m_prefix + std::string(name); }

    const json* get(std::string_view name) const
    {
        const auto it = m_o.find(name);
        if (it == m_o.end() || it->is_null())
            return nullptr;
        return &*it;
    }

    [[noreturn]] void wrongType(std::string_view name, const json& v, const char* wanted) const
    {
        throw badRequest("'" + path(name) + "' must be " + wanted + ", not " + typeName(v), path(name));
    }

    std::optional<double> number(std::string_view name, double lo, double hi) const
    {
        const json* v = get(name);
        if (!v)
            return std::nullopt;
        if (!v->is_number())
            wrongType(name, *v, "a number");
        const double d = v->get<double>();
        if (!std::isfinite(d) || d < lo || d > hi)
            throw badRequest("'" + path(name) + "' is " + (std::isfinite(d) ? showNumber(d) : "not finite") +
                                 ": it must be between " + showNumber(lo) + " and " + showNumber(hi),
                             path(name));
        return d;
    }

    std::optional<int64_t> integer(std::string_view name, int64_t lo, int64_t hi) const
    {
        const json* v = get(name);
        if (!v)
            return std::nullopt;
        return toInteger(*v, path(name), lo, hi);
    }

    static int64_t toInteger(const json& v, const std::string& where, int64_t lo, int64_t hi)
    {
        const auto range = [&](const std::string& shown) {
            return badRequest("'" + where + "' is " + shown + ": it must be an integer from " + std::to_string(lo) +
                                  " to " + std::to_string(hi),
                              where);
        };
        if (v.is_number_unsigned()) {
            const uint64_t u = v.get<uint64_t>();
            if (u > static_cast<uint64_t>(hi) || (lo > 0 && u < static_cast<uint64_t>(lo)))
                throw range(std::to_string(u));
            return static_cast<int64_t>(u);
        }
        if (v.is_number_integer()) {
            const int64_t i = v.get<int64_t>();
            if (i < lo || i > hi)
                throw range(std::to_string(i));
            return i;
        }
        if (v.is_number_float()) { // 5.0 from a client that only has doubles
            const double d = v.get<double>();
            if (!std::isfinite(d) || std::floor(d) != d)
                throw badRequest("'" + where + "' must be an integer, not " + showNumber(d), where);
            if (d < static_cast<double>(lo) || d > static_cast<double>(hi))
                throw range(showNumber(d));
            return static_cast<int64_t>(d);
        }
        throw badRequest("'" + where + "' must be an integer, not " + typeName(v), where);
    }

    std::optional<bool> boolean(std::string_view name) const
    {
        const json* v = get(name);
        if (!v)
            return std::nullopt;
        if (!v->is_boolean())
            wrongType(name, *v, "true or false");
        return v->get<bool>();
    }

    std::optional<std::string> string(std::string_view name) const
    {
        const json* v = get(name);
        if (!v)
            return std::nullopt;
        if (!v->is_string())
            wrongType(name, *v, "a string");
        return v->get<std::string>();
    }

    const json* object(std::string_view name) const
    {
        const json* v = get(name);
        if (v && !v->is_object())
            wrongType(name, *v, "an object");
        return v;
    }

    const json* array(std::string_view name) const
    {
        const json* v = get(name);
        if (v && !v->is_array())
            wrongType(name, *v, "an array");
        return v;
    }

private:
    const json& m_o;
    std::string m_prefix;
};

template <typename T>
void setIf(T& out, const std::optional<double>& v)
{
    if (v)
        out = static_cast<T>(*v);
}

std::vector<std::string> parseStop(const Fields& f)
{
    const json* v = f.get("stop");
    if (!v)
        return {};
    if (v->is_string())
        return {v->get<std::string>()};
    if (!v->is_array())
        f.wrongType("stop", *v, "a string or an array of strings");
    if (v->size() > 16)
        throw badRequest("'stop' has " + std::to_string(v->size()) + " strings; at most 16 are allowed", "stop");
    std::vector<std::string> out;
    for (const json& s : *v) {
        if (!s.is_string())
            throw badRequest("'stop' must hold strings only, not " + std::string(typeName(s)), "stop");
        if (!s.get_ref<const std::string&>().empty())
            out.push_back(s.get<std::string>());
    }
    return out;
}

std::vector<std::pair<int32_t, float>> parseLogitBias(const Fields& f)
{
    const json* v = f.object("logit_bias");
    if (!v)
        return {};
    if (v->size() > 1024)
        throw badRequest("'logit_bias' has more than 1024 entries", "logit_bias");
    std::vector<std::pair<int32_t, float>> out;
    for (const auto& [key, bias] : v->items()) {
        const std::string where = "logit_bias." + key;
        size_t used = 0;
        long long id = -1;
        try {
            id = std::stoll(key, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != key.size() || key.empty() || id < 0 || id > std::numeric_limits<int32_t>::max())
            throw badRequest("'logit_bias' keys must be token ids, not '" + key + "'", "logit_bias");
        if (!bias.is_number())
            throw badRequest("'" + where + "' must be a number, not " + typeName(bias), "logit_bias");
        const double b = bias.get<double>();
        if (!std::isfinite(b) || b < -100 || b > 100)
            throw badRequest("'" + where + "' must be between -100 and 100", "logit_bias");
        // -100 bans the token, as in OpenAI's API.
        out.emplace_back(static_cast<int32_t>(id),
                         b <= -100 ? -std::numeric_limits<float>::infinity() : static_cast<float>(b));
    }
    return out;
}

SamplingFields parseSampling(const Fields& f, bool chat)
{
    SamplingFields s;
    setIf(s.temperature, f.number("temperature", 0, 2));
    setIf(s.topP, f.number("top_p", 0, 1));
    if (auto v = f.integer("top_k", 0, 1 << 20))
        s.topK = static_cast<int32_t>(*v);
    setIf(s.minP, f.number("min_p", 0, 1));
    setIf(s.typicalP, f.number("typical_p", 0, 1));
    setIf(s.repeatPenalty, f.number("repeat_penalty", 0, 10));
    setIf(s.presencePenalty, f.number("presence_penalty", -2, 2));
    setIf(s.frequencyPenalty, f.number("frequency_penalty", -2, 2));
    if (auto v = f.integer("repeat_last_n", -1, 1 << 20))
        s.repeatLastN = static_cast<int32_t>(*v);
    s.seed = f.integer("seed", std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max());
    s.stop = parseStop(f);
    const int64_t maxInt = std::numeric_limits<int32_t>::max();
    std::optional<int64_t> maxTokens = f.integer("max_tokens", 0, maxInt);
    if (auto v = f.integer("max_completion_tokens", 0, maxInt))
        maxTokens = v;
    if (auto v = f.integer("n_predict", -1, maxInt)) // llama-server's name
        maxTokens = v;
    if (maxTokens)
        s.maxTokens = static_cast<int32_t>(*maxTokens);
    if (auto v = f.integer("n", 1, 64))
        s.n = static_cast<int>(*v);
    if (chat) {
        s.logprobs = f.boolean("logprobs").value_or(false);
        if (auto v = f.integer("top_logprobs", 0, 20)) {
            if (!s.logprobs)
                throw badRequest("'top_logprobs' needs 'logprobs': true", "top_logprobs");
            s.topLogprobs = static_cast<int>(*v);
        }
    } else if (auto v = f.integer("logprobs", 0, 5)) { // completions: the number of alternatives
        s.logprobs = true;
        s.topLogprobs = static_cast<int>(*v);
    }
    s.logitBias = parseLogitBias(f);
    s.stream = f.boolean("stream").value_or(false);
    if (const json* so = f.object("stream_options")) {
        if (!s.stream)
            throw badRequest("'stream_options' is only allowed with 'stream': true", "stream_options");
        s.includeUsage = Fields(*so, "stream_options.").boolean("include_usage").value_or(false);
    }
    return s;
}

// A message's content: a string, or an array of {"type":"text","text":...}
// parts (joined), or null (an assistant message with tool calls only).
std::string parseContent(const json& m, const std::string& where)
{
    const auto it = m.find("content");
    if (it == m.end() || it->is_null())
        return {};
    if (it->is_string())
        return it->get<std::string>();
    if (!it->is_array())
        throw badRequest("'" + where + ".content' must be a string or an array of parts, not " + typeName(*it),
                         where + ".content");
    std::string text;
    for (size_t i = 0; i < it->size(); ++i) {
        const json& part = (*it)[i];
        const std::string pw = where + ".content[" + std::to_string(i) + "]";
        if (!part.is_object())
            throw badRequest("'" + pw + "' must be an object, not " + typeName(part), pw);
        const Fields pf(part, pw + ".");
        const std::optional<std::string> type = pf.string("type");
        if (type != "text")
            throw badRequest("'" + pw + ".type' " + (type ? "'" + *type + "' is not supported" : "is missing") +
                                 ": this server takes text parts only",
                             pw + ".type");
        text += pf.string("text").value_or("");
    }
    return text;
}

std::vector<ChatMessageIn> parseMessages(const Fields& f)
{
    const json* v = f.array("messages");
    if (!v)
        throw badRequest("'messages' is required", "messages");
    if (v->empty())
        throw badRequest("'messages' must not be empty", "messages");
    std::vector<ChatMessageIn> out;
    for (size_t i = 0; i < v->size(); ++i) {
        const json& m = (*v)[i];
        const std::string where = "messages[" + std::to_string(i) + "]";
        if (!m.is_object())
            throw badRequest("'" + where + "' must be an object, not " + typeName(m), where);
        const Fields mf(m, where + ".");
        const std::optional<std::string> role = mf.string("role");
        if (!role)
            throw badRequest("'" + where + ".role' is required", where + ".role");
        if (*role != "system" && *role != "user" && *role != "assistant" && *role != "tool" && *role != "developer")
            throw badRequest("'" + where + ".role' '" + *role +
                                 "' is not one of system, developer, user, assistant, tool",
                             where + ".role");
        // The templates know "system"; OpenAI's newer name means the same.
        out.push_back(ChatMessageIn{*role == "developer" ? "system" : *role, parseContent(m, where)});
    }
    return out;
}

std::optional<bool> parseThinking(const Fields& f)
{
    if (const json* kw = f.object("chat_template_kwargs"))
        return Fields(*kw, "chat_template_kwargs.").boolean("enable_thinking");
    return std::nullopt;
}

std::vector<int32_t> parseTokenArray(const json& v, const std::string& where)
{
    std::vector<int32_t> out;
    out.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i)
        out.push_back(static_cast<int32_t>(
            Fields::toInteger(v[i], where + "[" + std::to_string(i) + "]", 0, std::numeric_limits<int32_t>::max())));
    return out;
}

} // namespace

json parseBody(std::string_view body)
{
    if (body.empty())
        throw badRequest("the request has no body: a JSON object is expected");
    // The depth limit stops the parse itself, before a deep document is built.
    const json::parser_callback_t depthLimit = [](int depth, json::parse_event_t, json&) {
        if (depth > kMaxJsonDepth)
            throw badRequest("the JSON is nested more than " + std::to_string(kMaxJsonDepth) + " levels deep");
        return true;
    };
    json j;
    try {
        j = json::parse(body.begin(), body.end(), depthLimit);
    } catch (const json::exception& e) {
        // A syntax error, or a number beyond a double (out_of_range.406,
        // "number overflow parsing '1e400'"). e.what() is
        // "[json.exception.parse_error.101] parse error at line 1, column 5: ..."
        std::string why = e.what();
        if (const size_t at = why.find("] "); at != std::string::npos)
            why = why.substr(at + 2);
        throw badRequest("the body is not valid JSON: " + why);
    }
    if (!j.is_object())
        throw badRequest(std::string("the body must be a JSON object, not ") + typeName(j));
    return j;
}

ChatRequest parseChatRequest(const json& body)
{
    const Fields f(body);
    ChatRequest r;
    r.model = f.string("model").value_or("");
    r.messages = parseMessages(f);
    r.sampling = parseSampling(f, /*chat=*/true);
    r.enableThinking = parseThinking(f);
    return r;
}

CompletionRequest parseCompletionRequest(const json& body)
{
    const Fields f(body);
    CompletionRequest r;
    r.model = f.string("model").value_or("");
    const json* p = f.get("prompt");
    if (!p)
        throw badRequest("'prompt' is required", "prompt");
    // A string, token ids, or a batch of one of either.
    const json* one = p;
    if (p->is_array() && p->size() == 1 && ((*p)[0].is_string() || (*p)[0].is_array()))
        one = &(*p)[0];
    else if (p->is_array() && !p->empty() && ((*p)[0].is_string() || (*p)[0].is_array()))
        throw badRequest("'prompt' holds " + std::to_string(p->size()) +
                             " prompts; send one per request (use 'n' for several completions)",
                         "prompt");
    if (one->is_string())
        r.text = one->get<std::string>();
    else if (one->is_array() && !one->empty())
        r.tokens = parseTokenArray(*one, "prompt");
    else if (one->is_array())
        throw badRequest("'prompt' must not be empty", "prompt");
    else
        f.wrongType("prompt", *one, "a string or an array of token ids");
    r.sampling = parseSampling(f, /*chat=*/false);
    r.echo = f.boolean("echo").value_or(false);
    return r;
}

TokenizeRequest parseTokenizeRequest(const json& body)
{
    const Fields f(body);
    TokenizeRequest r;
    const std::optional<std::string> content = f.string("content");
    if (!content)
        throw badRequest("'content' is required", "content");
    r.content = *content;
    r.addSpecial = f.boolean("add_special").value_or(false);
    r.withPieces = f.boolean("with_pieces").value_or(false);
    return r;
}

DetokenizeRequest parseDetokenizeRequest(const json& body)
{
    const Fields f(body);
    const json* t = f.array("tokens");
    if (!t)
        throw badRequest("'tokens' is required", "tokens");
    return DetokenizeRequest{parseTokenArray(*t, "tokens")};
}

TemplateRequest parseTemplateRequest(const json& body)
{
    const Fields f(body);
    return TemplateRequest{parseMessages(f), parseThinking(f)};
}

ModelNameRequest parseModelNameRequest(const json& body)
{
    const Fields f(body);
    const std::optional<std::string> m = f.string("model");
    if (!m || m->empty())
        throw badRequest("'model' is required", "model");
    return ModelNameRequest{*m};
}

EmbeddingRequest parseEmbeddingRequest(const json& body)
{
    const Fields f(body);
    EmbeddingRequest r;
    r.model = f.string("model").value_or("");
    const char* shapes = "a string, an array of strings, an array of token ids or an array of token id arrays";
    const json* in = f.get("input");
    if (!in)
        throw badRequest("'input' is required", "input");
    if (in->is_string()) {
        if (in->get_ref<const std::string&>().empty())
            throw badRequest("'input' is an empty string: there is nothing to embed", "input");
        r.texts.push_back(in->get<std::string>());
    } else if (in->is_array()) {
        if (in->empty())
            throw badRequest("'input' is an empty array: there is nothing to embed", "input");
        if (in->size() > kMaxEmbeddingInputs)
            throw badRequest("'input' has " + std::to_string(in->size()) + " entries; at most " +
                                 std::to_string(kMaxEmbeddingInputs) + " are allowed per request",
                             "input");
        const json& first = in->front();
        if (first.is_number()) { // one text as token ids
            r.tokens.push_back(parseTokenArray(*in, "input"));
        } else {
            for (size_t i = 0; i < in->size(); ++i) {
                const json& v = (*in)[i];
                const std::string where = "input[" + std::to_string(i) + "]";
                if (first.is_string() && v.is_string()) {
                    if (v.get_ref<const std::string&>().empty())
                        throw badRequest("'" + where + "' is an empty string: there is nothing to embed", where);
                    r.texts.push_back(v.get<std::string>());
                } else if (first.is_array() && v.is_array()) {
                    if (v.empty())
                        throw badRequest("'" + where + "' is an empty array: there is nothing to embed", where);
                    r.tokens.push_back(parseTokenArray(v, where));
                } else {
                    throw badRequest("'" + where + "' is " + typeName(v) + ": 'input' must be " + shapes +
                                         ", all entries of one kind",
                                     where);
                }
            }
        }
    } else {
        f.wrongType("input", *in, shapes);
    }
    if (const std::optional<std::string> format = f.string("encoding_format")) {
        if (*format != "float" && *format != "base64")
            throw badRequest("'encoding_format' is '" + *format + "': it must be 'float' or 'base64'",
                             "encoding_format");
        r.base64 = *format == "base64";
    }
    r.dimensions = f.integer("dimensions", 1, 1 << 20);
    return r;
}

} // namespace hearth::server

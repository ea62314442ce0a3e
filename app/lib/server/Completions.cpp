// POST /v1/chat/completions and /v1/completions: the request becomes one
// job per choice in the model's BatchEngine; the reply is one JSON object,
// or (stream: true) Server-Sent Events exactly as OpenAI sends them: a role
// chunk, content deltas, a finish chunk per choice, with
// stream_options.include_usage a last chunk with empty choices and the
// usage, then "data: [DONE]". While nothing comes, an SSE comment keeps the
// connection alive; an error after the first chunk is one
// `data: {"error": ...}` and the stream ends without [DONE]. A client that
// goes away cancels its jobs (the slot is free within one token).
#include "ApiServer.h"
#include "HttpUtil.h"
#include "Requests.h"

#include "chat/template_error.h"
#include "chat/value.h"
#include "hearth_version.h"

#include <chrono>
#include <random>

namespace hearth::server {

using nlohmann::json;

namespace {

int64_t unixNow()
{
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string randomId(const char* prefix)
{
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    static const char* hex = "0123456789abcdef";
    std::string id = prefix;
    for (int i = 0; i < 24; ++i)
        id += hex[rng() & 15];
    return id;
}

const char* fingerprint()
{
    return "hearth-" HEARTH_VERSION;
}

SamplerParams samplerParams(const SamplingFields& s, int choice)
{
    SamplerParams p;
    p.temperature = s.temperature;
    p.topK = s.topK;
    p.topP = s.topP;
    p.minP = s.minP;
    p.typicalP = s.typicalP;
    p.repeatPenalty = s.repeatPenalty;
    p.presencePenalty = s.presencePenalty;
    p.frequencyPenalty = s.frequencyPenalty;
    p.penaltyLastN = s.repeatLastN;
    if (s.seed) {
        // Any 64-bit seed maps to the sampler's 32 bits; choice i draws
        // with seed + i so the choices differ.
        const auto bits = static_cast<uint64_t>(*s.seed) + static_cast<uint64_t>(choice);
        p.seed = static_cast<uint32_t>(bits ^ (bits >> 32));
        if (p.seed == 0xFFFFFFFFu) // the sampler's "random" marker
            p.seed = 0xFFFFFFFEu;
    }
    p.logitBias = s.logitBias;
    return p;
}

std::string renderChat(const LoadedModel& model, const std::vector<ChatMessageIn>& messages,
                       std::optional<bool> thinking)
{
    chat::Value list = chat::Value::array();
    for (const ChatMessageIn& m : messages) {
        chat::Value v = chat::Value::object();
        v.set("role", chat::Value(m.role));
        v.set("content", chat::Value(m.content));
        list.push(std::move(v));
    }
    const Tokenizer& tok = model.tokenizer();
    chat::RenderOptions options;
    options.addGenerationPrompt = true;
    options.enableThinking = thinking;
    if (tok.bos() >= 0)
        options.bosToken = std::string(tok.tokenText(tok.bos()));
    if (tok.eos() >= 0)
        options.eosToken = std::string(tok.tokenText(tok.eos()));
    try {
        return model.chatTemplate().render(list, options);
    } catch (const chat::TemplateError& e) {
        throw badRequest(std::string("the model's chat template refused these messages: ") + e.what(), "messages");
    }
}

json bytesOf(const std::string& s)
{
    json b = json::array();
    for (const unsigned char c : s)
        b.push_back(static_cast<int>(c));
    return b;
}

json timingsJson(const JobSummary& s)
{
    const auto evaluated = static_cast<double>(s.promptTokens - s.cachedTokens);
    const auto predicted = static_cast<double>(s.generatedTokens);
    return json{
        {"cache_n", s.cachedTokens},
        {"prompt_n", s.promptTokens - s.cachedTokens},
        {"prompt_ms", s.promptMs},
        {"prompt_per_token_ms", evaluated > 0 ? s.promptMs / evaluated : 0.0},
        {"prompt_per_second", s.promptMs > 0 ? 1000.0 * evaluated / s.promptMs : 0.0},
        {"predicted_n", s.generatedTokens},
        {"predicted_ms", s.generationMs},
        {"predicted_per_token_ms", predicted > 1 ? s.generationMs / (predicted - 1) : 0.0},
        {"predicted_per_second", s.generationMs > 0 && predicted > 1 ? 1000.0 * (predicted - 1) / s.generationMs : 0.0},
        {"queue_ms", s.queueMs},
        {"slot", s.slot}};
}

// What one request turned into.
struct Prepared {
    bool chat = true;
    std::unique_ptr<ModelRouter::Lease> lease;
    std::shared_ptr<EventChannel> channel;
    std::vector<std::shared_ptr<Job>> jobs;
    SamplingFields sampling;
    std::string id, model, echo;
    int64_t created = 0;
    int64_t promptTokens = 0;

    void cancel()
    {
        for (const auto& j : jobs)
            j->cancel();
    }
};

class Formatter {
public:
    explicit Formatter(const Prepared& p) : m_p(p), m_tok(p.lease->engine().model().tokenizer()) {}

    json logprobs(const std::vector<TokenInfo>& tokens) const
    {
        if (m_p.chat) {
            json content = json::array();
            for (const TokenInfo& t : tokens) {
                json top = json::array();
                for (const TokenLogprob& a : t.top) {
                    const std::string piece = m_tok.tokenToPiece(a.token, /*renderSpecial=*/true);
                    top.push_back({{"token", piece}, {"logprob", a.logprob}, {"bytes", bytesOf(piece)}});
                }
                const std::string piece = m_tok.tokenToPiece(t.chosen.token, /*renderSpecial=*/true);
                content.push_back({{"token", piece},
                                   {"logprob", t.chosen.logprob},
                                   {"bytes", bytesOf(piece)},
                                   {"top_logprobs", top}});
            }
            return json{{"content", content}};
        }
        json tokensOut = json::array(), lps = json::array(), tops = json::array();
        for (const TokenInfo& t : tokens) {
            tokensOut.push_back(m_tok.tokenToPiece(t.chosen.token, true));
            lps.push_back(t.chosen.logprob);
            json top = json::object();
            for (const TokenLogprob& a : t.top)
                top[m_tok.tokenToPiece(a.token, true)] = a.logprob;
            tops.push_back(top);
        }
        return json{{"tokens", tokensOut}, {"token_logprobs", lps}, {"top_logprobs", tops}};
    }

    json chunk(json choices) const
    {
        json c = {{"id", m_p.id},
                  {"object", m_p.chat ? "chat.completion.chunk" : "text_completion"},
                  {"created", m_p.created},
                  {"model", m_p.model},
                  {"system_fingerprint", fingerprint()},
                  {"choices", std::move(choices)}};
        if (m_p.sampling.includeUsage)
            c["usage"] = nullptr;
        return c;
    }

    json deltaChoice(int index, const std::string& text, const std::vector<TokenInfo>& tokens) const
    {
        json choice = {{"index", index}, {"finish_reason", nullptr}};
        choice["logprobs"] = m_p.sampling.logprobs && !tokens.empty() ? logprobs(tokens) : json(nullptr);
        if (m_p.chat)
            choice["delta"] = {{"content", text}};
        else
            choice["text"] = text;
        return choice;
    }

    json finishChoice(int index, const JobSummary& s) const
    {
        json choice = {{"index", index}, {"finish_reason", s.finishReason}, {"logprobs", nullptr}};
        if (m_p.chat)
            choice["delta"] = json::object();
        else
            choice["text"] = "";
        return choice;
    }

    json usage(const std::vector<JobSummary>& sums) const
    {
        int64_t completion = 0, cached = 0;
        for (const JobSummary& s : sums) {
            completion += s.generatedTokens;
            cached = std::max(cached, s.cachedTokens);
        }
        return json{{"prompt_tokens", m_p.promptTokens},
                    {"completion_tokens", completion},
                    {"total_tokens", m_p.promptTokens + completion},
                    {"prompt_tokens_details", {{"cached_tokens", cached}}}};
    }

private:
    const Prepared& m_p;
    const Tokenizer& m_tok;
};

Prepared prepare(ModelRouter& router, bool chat, const json& body)
{
    Prepared p;
    p.chat = chat;
    std::string modelName;
    ChatRequest cr;
    CompletionRequest tr;
    if (chat) {
        cr = parseChatRequest(body);
        p.sampling = cr.sampling;
        modelName = cr.model;
    } else {
        tr = parseCompletionRequest(body);
        p.sampling = tr.sampling;
        modelName = tr.model;
    }
    p.lease = router.acquire(modelName);
    BatchEngine& engine = p.lease->engine();
    const LoadedModel& model = engine.model();
    std::vector<TokenId> prompt;
    if (chat) {
        prompt = model.tokenizePrompt(renderChat(model, cr.messages, cr.enableThinking));
    } else if (tr.text) {
        prompt = model.tokenizePrompt(*tr.text);
        if (tr.echo)
            p.echo = *tr.text;
    } else {
        prompt = tr.tokens;
        if (tr.echo)
            for (const TokenId t : prompt)
                if (t >= 0 && t < model.tokenizer().vocabSize())
                    p.echo += model.tokenizer().tokenToPiece(t, /*renderSpecial=*/false);
    }
    p.promptTokens = static_cast<int64_t>(prompt.size());
    p.channel = std::make_shared<EventChannel>();
    for (int i = 0; i < p.sampling.n; ++i) {
        JobParams jp;
        jp.prompt = prompt;
        jp.generation.maxTokens = p.sampling.maxTokens;
        jp.generation.sampling = samplerParams(p.sampling, i);
        jp.stop = p.sampling.stop;
        jp.logprobs = p.sampling.logprobs ? p.sampling.topLogprobs : -1;
        p.jobs.push_back(std::make_shared<Job>(std::move(jp), p.channel, i));
    }
    engine.submit(p.jobs);
    p.id = randomId(chat ? "chatcmpl-" : "cmpl-");
    p.model = p.lease->id();
    p.created = unixNow();
    return p;
}

// The state of one whole (non-streaming) reply while its tokens come.
struct Whole {
    Prepared p;
    std::vector<std::string> texts;
    std::vector<std::vector<TokenInfo>> infos;
    std::vector<JobSummary> sums;
    size_t done = 0;
};

json wholeBody(const Whole& w)
{
    const Prepared& p = w.p;
    const Formatter f(p);
    json choices = json::array();
    for (size_t i = 0; i < p.jobs.size(); ++i) {
        json c = {{"index", i}, {"finish_reason", w.sums[i].finishReason}};
        c["logprobs"] = p.sampling.logprobs ? f.logprobs(w.infos[i]) : json(nullptr);
        if (p.chat)
            c["message"] = {{"role", "assistant"}, {"content", w.texts[i]}};
        else
            c["text"] = w.texts[i];
        choices.push_back(std::move(c));
    }
    return {{"id", p.id},
            {"object", p.chat ? "chat.completion" : "text_completion"},
            {"created", p.created},
            {"model", p.model},
            {"system_fingerprint", fingerprint()},
            {"choices", choices},
            {"usage", f.usage(w.sums)},
            {"timings", timingsJson(w.sums.front())}};
}

// One wait for the next event of a whole reply. False when the client has
// gone: looked at after every token and every quiet second, without writing
// (httplib's is_writable peeks at the socket), so its slots are freed at once.
bool wholeStep(Whole& w, httplib::DataSink& sink)
{
    if (!sink.is_writable())
        return false;
    JobEvent ev;
    if (!w.p.channel->next(ev, std::chrono::seconds(1)))
        return true;
    const auto i = static_cast<size_t>(ev.index);
    switch (ev.kind) {
    case JobEvent::Kind::Piece:
        w.texts[i] += ev.text;
        w.infos[i].insert(w.infos[i].end(), ev.tokens.begin(), ev.tokens.end());
        return true;
    case JobEvent::Kind::Done: {
        w.sums[i] = ev.summary;
        if (++w.done < w.p.jobs.size())
            return true;
        const std::string body = dumpJson(wholeBody(w));
        if (!sink.write(body.data(), body.size()))
            return false;
        sink.done();
        return true;
    }
    case JobEvent::Kind::Failed: {
        // The status line has gone out: the fault is the body, OpenAI's error object.
        w.p.cancel();
        const std::string body = dumpJson(serverError(ev.error).body());
        sink.write(body.data(), body.size());
        sink.done();
        return true;
    }
    }
    return false;
}

// A whole reply is sent chunked once it is ready, so that the wait for it
// can see the client leave (httplib 0.11 shows a handler no socket; its
// content provider can look). Every client error was found before this, in
// prepare(), and has its 4xx.
void replyWhole(Prepared p, const httplib::Request& req, httplib::Response& res)
{
    auto w = std::make_shared<Whole>();
    const auto n = p.jobs.size();
    w->texts.assign(n, p.echo);
    w->infos.resize(n);
    w->sums.resize(n);
    w->p = std::move(p);
    res.status = 200;
    auto step = [w](size_t, httplib::DataSink& sink) {
        if (wholeStep(*w, sink))
            return true;
        w->p.cancel(); // the client went away: free the slots
        return false;
    };
    auto release = [w](bool) {
        w->p.cancel();
        w->p.lease.reset();
    };
    // HTTP/1.0 has no chunks: the body then ends with the connection.
    if (req.version == "HTTP/1.0")
        res.set_content_provider("application/json; charset=utf-8", step, release);
    else
        res.set_chunked_content_provider("application/json; charset=utf-8", step, release);
}

// The state of one streaming reply, shared by httplib's provider calls.
struct Stream {
    Prepared p;
    bool started = false;
    size_t done = 0;
    std::vector<JobSummary> sums;
};

bool writeEvent(httplib::DataSink& sink, const std::string& payload)
{
    const std::string line = "data: " + payload + "\n\n";
    return sink.write(line.data(), line.size());
}

bool streamStep(Stream& st, httplib::DataSink& sink)
{
    const Formatter f(st.p);
    const auto n = st.p.jobs.size();
    if (!st.started) {
        st.started = true;
        st.sums.resize(n);
        for (size_t i = 0; i < n; ++i) {
            json choice;
            if (st.p.chat)
                choice = {{"index", i},
                          {"delta", {{"role", "assistant"}, {"content", ""}}},
                          {"logprobs", nullptr},
                          {"finish_reason", nullptr}};
            else if (!st.p.echo.empty())
                choice = f.deltaChoice(static_cast<int>(i), st.p.echo, {});
            else
                continue;
            if (!writeEvent(sink, dumpJson(f.chunk(json::array({choice})))))
                return false;
        }
        return true;
    }
    JobEvent ev;
    if (!st.p.channel->next(ev, std::chrono::seconds(10))) {
        static const char ping[] = ": keep-alive\n\n";
        return sink.write(ping, sizeof ping - 1);
    }
    const int i = ev.index;
    switch (ev.kind) {
    case JobEvent::Kind::Piece:
        return writeEvent(sink, dumpJson(f.chunk(json::array({f.deltaChoice(i, ev.text, ev.tokens)}))));
    case JobEvent::Kind::Done: {
        st.sums[static_cast<size_t>(i)] = ev.summary;
        json c = f.chunk(json::array({f.finishChoice(i, ev.summary)}));
        c["timings"] = timingsJson(ev.summary);
        if (!writeEvent(sink, dumpJson(c)))
            return false;
        if (++st.done < n)
            return true;
        if (st.p.sampling.includeUsage) {
            json u = f.chunk(json::array());
            u["usage"] = f.usage(st.sums);
            if (!writeEvent(sink, dumpJson(u)))
                return false;
        }
        static const char doneLine[] = "data: [DONE]\n\n";
        if (!sink.write(doneLine, sizeof doneLine - 1))
            return false;
        sink.done();
        return true;
    }
    case JobEvent::Kind::Failed:
        st.p.cancel();
        writeEvent(sink, dumpJson(serverError(ev.error).body()));
        sink.done();
        return true;
    }
    return false;
}

void replyStream(Prepared p, httplib::Response& res)
{
    auto st = std::make_shared<Stream>();
    st->p = std::move(p);
    res.status = 200;
    res.set_header("Cache-Control", "no-cache");
    res.set_header("X-Accel-Buffering", "no");
    res.set_chunked_content_provider(
        "text/event-stream",
        [st](size_t, httplib::DataSink& sink) {
            if (streamStep(*st, sink))
                return true;
            st->p.cancel(); // the client went away: free the slots
            return false;
        },
        [st](bool) {
            st->p.cancel();
            st->p.lease.reset();
        });
}

void complete(ModelRouter& router, bool chat, const httplib::Request& req, httplib::Response& res)
{
    const json body = parseBody(req.body);
    Prepared p = prepare(router, chat, body);
    if (p.sampling.stream)
        replyStream(std::move(p), res);
    else
        replyWhole(std::move(p), req, res);
}

} // namespace

void ApiServer::chat(const httplib::Request& req, httplib::Response& res)
{
    complete(m_router, /*chat=*/true, req, res);
}

void ApiServer::completion(const httplib::Request& req, httplib::Response& res)
{
    complete(m_router, /*chat=*/false, req, res);
}

} // namespace hearth::server

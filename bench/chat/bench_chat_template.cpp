// bench_chat_template [TEMPLATE.jinja] [--renders N]
//
// Renders a 50-message conversation with the Llama 3.1 chat template
// (../shared/testdata/chat-templates/meta-llama-Llama-3.1-8B-Instruct.jinja
// by default, or the built-in llama3 format when that is absent): parses
// once, renders many times, prints the parse time and the per-render time
// (min / median / mean). Then times how long hostile templates take to be
// stopped by the sandbox. Target: a render well under 2 ms; a hostile
// template stopped well under 1 s.

#include "chat/chat_template.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace hearth;
using namespace hearth::chat;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return {};
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// System prompt, then 49 alternating user / assistant turns of ordinary
// chat length (a few sentences each).
Value conversation()
{
    Value messages = Value::array();
    messages.push(Value::object()
                      .set("role", "system")
                      .set("content", "You are a helpful, concise assistant. Answer in plain English."));
    for (int i = 1; i < 50; ++i) {
        const bool user = i % 2 == 1;
        std::string text = user ? "Question " + std::to_string(i) +
                                      ": could you explain how a transformer's attention works, and why the "
                                      "key/value cache makes generation faster?"
                                : "Answer " + std::to_string(i) +
                                      ": attention compares each token's query with every earlier key, "
                                      "weights the values by the softmax of those scores, and sums them. "
                                      "Caching keys and values means each new token only computes its own.";
        messages.push(Value::object().set("role", user ? "user" : "assistant").set("content", text));
    }
    return messages;
}

void renderBenchmark(const ChatTemplate& t, const std::string& label, int renders)
{
    const Value messages = conversation();
    RenderOptions options;
    options.bosToken = "<|begin_of_text|>";
    options.eosToken = "<|eot_id|>";
    options.now = calendarTime(2025, 7, 15, 10, 30, 0);
    std::string out;
    for (int i = 0; i < 20; ++i) // warm up
        out = t.render(messages, options);
    std::vector<double> times;
    times.reserve(static_cast<size_t>(renders));
    for (int i = 0; i < renders; ++i) {
        const auto start = Clock::now();
        out = t.render(messages, options);
        times.push_back(msSince(start));
    }
    std::sort(times.begin(), times.end());
    double sum = 0;
    for (const double x : times)
        sum += x;
    std::printf("render  %s, 50 messages -> %zu bytes: min %.3f ms, median %.3f ms, mean %.3f ms (%d renders)\n",
                label.c_str(), out.size(), times.front(), times[times.size() / 2], sum / static_cast<double>(renders),
                renders);
}

void hostileBenchmark()
{
    const std::pair<const char*, std::string> cases[] = {
        {"unbounded recursion", "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}"},
        {"exponential string growth",
         "{% set ns = namespace(s='ab') %}{% for i in range(100) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}"},
        {"range(10**9)", "{% for i in range(10**9) %}{% endfor %}"},
        {"10^10 loop iterations", "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}"},
        {"10^10 iterations, no allocation",
         "{% set ns = namespace(i=0) %}{% for a in range(100000) %}{% for b in range(100000) %}"
         "{% set ns.i = ns.i + 1 %}{% endfor %}{% endfor %}"},
        {"output flood", "{% for i in range(100000) %}{{ 'x' * 10000 }}{% endfor %}"},
        {"10,000-deep nesting", std::string(10000 * 13, ' ')},
    };
    for (const auto& [name, src] : cases) {
        std::string source = src;
        if (std::string(name) == "10,000-deep nesting") {
            source.clear();
            for (int i = 0; i < 10000; ++i)
                source += "{% if true %}";
        }
        const auto start = Clock::now();
        std::string error;
        try {
            ChatTemplate::parse(source).render(Value::array(), RenderOptions{});
            error = "(no error!)";
        } catch (const TemplateError& e) {
            error = e.what();
        }
        std::printf("hostile %-32s stopped in %8.1f ms: %s\n", name, msSince(start), error.c_str());
    }
}

} // namespace

int main(int argc, char** argv)
{
    std::string path;
    int renders = 2000;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--renders") == 0 && i + 1 < argc)
            renders = std::max(1, std::atoi(argv[++i]));
        else
            path = argv[i];
    }
    if (path.empty()) {
        const char* dir = std::getenv("HEARTH_TESTDATA_DIR");
        path = std::string(dir ? dir : HEARTH_DEFAULT_TESTDATA_DIR) +
               "/chat-templates/meta-llama-Llama-3.1-8B-Instruct.jinja";
    }
    try {
        std::string source = readFile(path);
        std::string label = path.substr(path.find_last_of('/') + 1);
        const auto start = Clock::now();
        const ChatTemplate t = source.empty() ? ChatTemplate::builtin("llama3") : ChatTemplate::parse(source);
        if (source.empty())
            label = "built-in llama3 (" + path + " not found)";
        std::printf("parse   %s: %.3f ms\n", label.c_str(), msSince(start));
        renderBenchmark(t, label, renders);
        hostileBenchmark();
    } catch (const Error& e) {
        std::fprintf(stderr, "bench_chat_template: %s\n", e.what());
        return 1;
    }
    return 0;
}

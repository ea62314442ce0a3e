// libFuzzer target for the server's request parser (scripts/fuzz-server-
// request runs it). Each input is an HTTP body: parseBody() and every
// request parser may refuse it, but only with ApiError (a 4xx); any other
// exception (a misused JSON accessor would throw nlohmann's type_error),
// crash, ASan/UBSan report or hang is a finding, since in the server it
// would be a 500 or worse.

#include "Requests.h"

#include <cstdint>
#include <string_view>

using namespace hearth::server;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    nlohmann::json j;
    try {
        j = parseBody(body);
    } catch (const ApiError& e) {
        if (e.status() != 400)
            __builtin_trap();
        return 0;
    }
    const auto each = [&](auto parse) {
        try {
            parse(j);
        } catch (const ApiError& e) {
            if (e.status() != 400)
                __builtin_trap();
        }
    };
    each(parseChatRequest);
    each(parseCompletionRequest);
    each(parseTokenizeRequest);
    each(parseDetokenizeRequest);
    each(parseTemplateRequest);
    each(parseModelNameRequest);
    each(parseEmbeddingRequest);
    return 0;
}

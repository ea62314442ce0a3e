#include "Commands.h"

#include <array>

std::span<const CliCommand> cliCommands()
{
    static const std::array commands{
        CliCommand{"info", "Show a GGUF model's metadata and tensors", runInfo},
        CliCommand{"template", "Render a chat template with a conversation", runTemplate},
    };
    return commands;
}

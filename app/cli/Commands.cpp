#include "Commands.h"

#include <array>

std::span<const CliCommand> cliCommands()
{
    static const std::array commands{
        CliCommand{"info", "Show a GGUF model's metadata and tensors", runInfo},
    };
    return commands;
}

#include "Commands.h"

#include <array>

std::span<const CliCommand> cliCommands()
{
    static const std::array commands{
        CliCommand{"info", "Show a GGUF model's metadata and tensors", runInfo},
        CliCommand{"run", "Generate text from a prompt", runRun},
        CliCommand{"chat", "Chat with a model on the terminal", runChat},
        CliCommand{"perplexity", "Measure a model's perplexity on a text", runPerplexity},
        CliCommand{"bench", "Measure prompt and generation speed (as llama-bench)", runBench},
        CliCommand{"tokenize", "Print the token ids of the text on stdin", runTokenize},
        CliCommand{"detokenize", "Print the text of the token ids on stdin", runDetokenize},
        CliCommand{"template", "Render a chat template with a conversation", runTemplate},
        CliCommand{"pull", "Download a GGUF model from Hugging Face", runPull},
        CliCommand{"search", "Search Hugging Face for GGUF models", runSearch},
        CliCommand{"embed", "Print sentence embeddings of stdin's lines (bert models)", runEmbed},
        CliCommand{"docs", "Documents: add, index, search and ask collections of files", runDocs},
        CliCommand{"serve", "Serve models over an OpenAI-compatible HTTP API", runServe},
        CliCommand{"convert", "Convert a Hugging Face model (safetensors) to GGUF", runConvert},
        CliCommand{"quantize", "Quantize a GGUF model (Q4_K_M, Q8_0, ...) as llama-quantize does", runQuantize},
    };
    return commands;
}

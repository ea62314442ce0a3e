// hearth tokenize --model FILE [--ids-only] [--no-add-special] [--parse-special]
// hearth detokenize --model FILE [--render-special]
// The output formats are documented in docs/cli.md and kept stable: tests and
// tools parse them.

#include "CliIo.h"
#include "Commands.h"

#include "gguf/gguf.h"
#include "tokenizer/tokenizer.h"
#include "util/error.h"

#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#ifdef _WIN32
#include <fcntl.h>
#include <io.h>
#endif

using namespace hearth;

namespace {

// All of stdin, byte for byte (binary mode on Windows: no CRLF translation).
std::string readStdin()
{
#ifdef _WIN32
    _setmode(_fileno(stdin), _O_BINARY);
#endif
    std::string data;
    char buffer[1 << 16];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, stdin)) > 0)
        data.append(buffer, n);
    return data;
}

void setBinaryStdout()
{
#ifdef _WIN32
    _setmode(_fileno(stdout), _O_BINARY);
#endif
}

// Length of the well-formed UTF-8 character at `i` (0 if there is none).
size_t utf8CharLength(const std::string& s, size_t i)
{
    const auto b = static_cast<unsigned char>(s[i]);
    const size_t n = b >= 0xF0 && b <= 0xF4 ? 4 : b >= 0xE0 ? (b <= 0xEF ? 3 : 0) : b >= 0xC2 ? 2 : 0;
    if (n == 0 || i + n > s.size())
        return 0;
    const QString decoded = QString::fromUtf8(s.data() + i, static_cast<qsizetype>(n));
    return decoded.size() >= 1 && !decoded.contains(QChar::ReplacementCharacter) ? n : 0;
}

// A piece shown on one line: printable UTF-8 as is, the rest escaped.
std::string escapePiece(const std::string& piece)
{
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (size_t i = 0; i < piece.size(); ++i) {
        const auto c = static_cast<unsigned char>(piece[i]);
        switch (c) {
        case '\n': out += "\\n"; continue;
        case '\r': out += "\\r"; continue;
        case '\t': out += "\\t"; continue;
        case '\\': out += "\\\\"; continue;
        case '\'': out += "\\'"; continue;
        default: break;
        }
        if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
            continue;
        }
        if (const size_t n = c >= 0x80 ? utf8CharLength(piece, i) : 0; n > 0) {
            out.append(piece, i, n);
            i += n - 1;
            continue;
        }
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 15];
    }
    return out;
}

std::unique_ptr<Tokenizer> openTokenizer(const QString& command, const QString& path)
{
    const gguf::File file(path.toStdString());
    auto tokenizer = Tokenizer::fromGguf(file);
    for (const std::string& warning : tokenizer->warnings())
        cli::errLine(command + QStringLiteral(": warning: ") + QString::fromStdString(warning));
    return tokenizer;
}

// Ids separated by spaces, commas or newlines ("[1, 2]" works too); throws
// hearth::Error for a word that is not an id of the vocabulary.
std::vector<TokenId> parseIds(const std::string& input, int32_t vocabSize)
{
    std::vector<TokenId> ids;
    std::string word;
    const auto flushWord = [&]() {
        if (word.empty())
            return;
        size_t used = 0;
        long long value = -1;
        try {
            value = std::stoll(word, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != word.size() || value < 0 || value >= vocabSize)
            throw Error("'" + word + "' is not a token id of this model (0.." + std::to_string(vocabSize - 1) + ")");
        ids.push_back(static_cast<TokenId>(value));
        word.clear();
    };
    for (const char c : input) {
        if (c == ' ' || c == ',' || c == '\n' || c == '\r' || c == '\t' || c == '[' || c == ']')
            flushWord();
        else
            word += c;
    }
    flushWord();
    return ids;
}

bool parseModelArgs(QCommandLineParser& parser, const QStringList& args, const QCommandLineOption& model, int& code)
{
    if (!cli::parseArgs(parser, args, code))
        return false;
    if (!parser.isSet(model) || !parser.positionalArguments().isEmpty()) {
        cli::errLine(QStringLiteral("%1: expected --model FILE and no other arguments (see --help)").arg(args[0]));
        code = 2;
        return false;
    }
    return true;
}

} // namespace

int runTokenize(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Print the token ids of the text on stdin (read byte for byte: a trailing newline is part of the text)."));
    const QCommandLineOption model(QStringLiteral("model"), QStringLiteral("The GGUF model file."),
                                   QStringLiteral("FILE"));
    const QCommandLineOption idsOnly(QStringLiteral("ids-only"),
                                     QStringLiteral("Print only the ids, separated by single spaces."));
    const QCommandLineOption noAddSpecial(QStringLiteral("no-add-special"),
                                          QStringLiteral("Do not add BOS/EOS (or [CLS]/[SEP]) as the model asks."));
    const QCommandLineOption parseSpecial(
        QStringLiteral("parse-special"),
        QStringLiteral("Turn the text of control tokens (e.g. <|im_start|>) into those tokens."));
    parser.addOptions({model, idsOnly, noAddSpecial, parseSpecial});
    int code = 0;
    if (!parseModelArgs(parser, args, model, code))
        return code;
    try {
        const auto tokenizer = openTokenizer(args[0], parser.value(model));
        const std::string text = readStdin();
        const std::vector<TokenId> ids =
            tokenizer->encode(text, !parser.isSet(noAddSpecial), parser.isSet(parseSpecial));
        std::string out;
        if (parser.isSet(idsOnly)) {
            for (size_t i = 0; i < ids.size(); ++i) {
                if (i)
                    out += ' ';
                out += std::to_string(ids[i]);
            }
            out += '\n';
        } else {
            for (const TokenId id : ids)
                out += std::to_string(id) + " '" + escapePiece(tokenizer->tokenToPiece(id, true)) + "'\n";
        }
        cli::outBytes(out);
    } catch (const hearth::Error& e) {
        cli::errLine(args[0] + QStringLiteral(": ") + QString::fromUtf8(e.what()));
        return 1;
    }
    return 0;
}

int runDetokenize(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Print the text of the token ids on stdin (separated by spaces, commas or newlines)."));
    const QCommandLineOption model(QStringLiteral("model"), QStringLiteral("The GGUF model file."),
                                   QStringLiteral("FILE"));
    const QCommandLineOption renderSpecial(QStringLiteral("render-special"),
                                           QStringLiteral("Print control tokens (BOS, <|im_end|>, ...) as text."));
    parser.addOptions({model, renderSpecial});
    int code = 0;
    if (!parseModelArgs(parser, args, model, code))
        return code;
    try {
        const auto tokenizer = openTokenizer(args[0], parser.value(model));
        const std::vector<TokenId> ids = parseIds(readStdin(), tokenizer->vocabSize());
        // Unprinted control tokens at the start (BOS) must not keep the SPM
        // space prefix from being removed from the first printed piece, so
        // that tokenize | detokenize gives the text back.
        const bool render = parser.isSet(renderSpecial);
        size_t first = 0;
        while (!render && first < ids.size() && tokenizer->tokenToPiece(ids[first], false).empty() &&
               tokenizer->isControl(ids[first]))
            ++first;
        setBinaryStdout();
        cli::outBytes(tokenizer->decode(std::span<const TokenId>(ids).subspan(first), render));
    } catch (const hearth::Error& e) {
        cli::errLine(args[0] + QStringLiteral(": ") + QString::fromUtf8(e.what()));
        return 1;
    }
    return 0;
}

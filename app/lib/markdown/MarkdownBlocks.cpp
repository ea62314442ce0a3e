#include "markdown/MarkdownBlocks.h"

#include <QRegularExpression>

namespace {

using Block = MarkdownBlock;
using Kind = MarkdownBlock::Kind;

const QRegularExpression& headingRe()
{
    static const QRegularExpression re(QStringLiteral("^ {0,3}(#{1,6})(?:[ \\t]+(.*?))?[ \\t#]*$"));
    return re;
}
const QRegularExpression& listRe()
{
    static const QRegularExpression re(QStringLiteral("^( *)([-*+]|\\d{1,9}[.)])(?:[ \\t]+(.*))?$"));
    return re;
}
const QRegularExpression& ruleRe()
{
    static const QRegularExpression re(QStringLiteral("^ {0,3}([-*_])(?:[ \\t]*\\1){2,}[ \\t]*$"));
    return re;
}
const QRegularExpression& fenceRe()
{
    static const QRegularExpression re(QStringLiteral("^ {0,3}(`{3,}|~{3,})[ \\t]*([^`\\s]*)"));
    return re;
}
const QRegularExpression& tableDelimiterRe()
{
    static const QRegularExpression re(QStringLiteral("^ *\\|? *:?-+:? *(\\| *:?-+:? *)*\\|? *$"));
    return re;
}

bool isClosingFence(const QString& line, const Block::State& s)
{
    const QString t = line.trimmed();
    return t.size() >= s.fenceLength && t == QString(t.size(), s.fenceChar);
}

// Parses lines into `out`, continuing from `state`. `current` is the block
// that accepts continuation lines (nullptr after a blank line).
struct LineParser {
    QList<Block>& out;
    Block::State state;
    Block* current = nullptr;

    Block& begin(Kind kind, qsizetype start)
    {
        Block b;
        b.kind = kind;
        b.start = start;
        b.state = state;
        out.append(b);
        return out.last();
    }

    void codeLine(const QString& line, qsizetype start, bool complete)
    {
        if (isClosingFence(line, state) && complete) {
            out.last().closed = true;
            state.inFence = false;
            current = nullptr;
            return;
        }
        if (!complete && !line.isEmpty() && line.trimmed() == QString(line.trimmed().size(), state.fenceChar))
            return; // maybe the start of the closing fence: show it once we know
        if (state.chunkLines == MarkdownBlocks::kCodeChunkLines) {
            out.last().lastChunk = false;
            ++state.chunk;
            state.chunkLines = 0;
            Block& b = begin(Kind::Code, start);
            b.language = state.language;
            b.fence = state.fences - 1;
            b.chunk = state.chunk;
        }
        Block& b = out.last();
        b.text += (state.chunkLines > 0 ? QStringLiteral("\n") : QString()) + line;
        if (complete)
            ++state.chunkLines;
    }

    void line(const QString& line, qsizetype start, bool complete)
    {
        if (state.inFence)
            return codeLine(line, start, complete);
        if (line.trimmed().isEmpty()) {
            current = nullptr;
            return;
        }
        if (const auto m = fenceRe().match(line); m.hasMatch()) {
            // The block keeps the state from before its opening line:
            // resuming there re-reads that line.
            Block& b = begin(Kind::Code, start);
            state.inFence = true;
            state.fenceChar = m.captured(1).at(0);
            state.fenceLength = int(m.capturedLength(1));
            state.language = m.captured(2).toLower();
            state.chunk = 0;
            state.chunkLines = 0;
            b.language = state.language;
            b.fence = state.fences++;
            current = nullptr;
            return;
        }
        if (const auto m = headingRe().match(line); m.hasMatch()) {
            Block& b = begin(Kind::Heading, start);
            b.level = int(m.capturedLength(1));
            b.text = m.captured(2);
            current = nullptr;
            return;
        }
        if (ruleRe().match(line).hasMatch() && complete) {
            begin(Kind::Rule, start);
            current = nullptr;
            return;
        }
        if (const auto m = listRe().match(line);
            m.hasMatch() && (complete || m.capturedLength(3) > 0 || line.endsWith(QLatin1Char(' ')))) {
            Block& b = begin(Kind::ListItem, start);
            b.level = std::min(int(m.capturedLength(1)) / 2, 6);
            b.marker = m.captured(2);
            b.text = m.captured(3);
            current = &b;
            return;
        }
        if (line.startsWith(QLatin1Char('>')) || line.startsWith(QLatin1String(" >"))) {
            QString content = line.mid(line.indexOf(QLatin1Char('>')) + 1);
            if (content.startsWith(QLatin1Char(' ')))
                content.remove(0, 1);
            if (current && current->kind == Kind::Quote) {
                current->text += QLatin1Char('\n') + content;
            } else {
                current = &begin(Kind::Quote, start);
                current->text = content;
            }
            return;
        }
        if (current && current->kind == Kind::Paragraph && !current->text.contains(QLatin1Char('\n')) &&
            current->text.contains(QLatin1Char('|')) && complete && tableDelimiterRe().match(line).hasMatch()) {
            current->kind = Kind::Table;
            current->text += QLatin1Char('\n') + line;
            return;
        }
        if (current && current->kind == Kind::Table) {
            if (line.contains(QLatin1Char('|'))) {
                current->text += QLatin1Char('\n') + line;
                return;
            }
            current = nullptr;
        }
        if (current) { // paragraph continuation, lazy or indented list-item / quote text
            current->text += QLatin1Char('\n') + line.trimmed();
            return;
        }
        current = &begin(Kind::Paragraph, start);
        current->text = line.trimmed();
    }
};

} // namespace

void MarkdownBlocks::parseFrom(qsizetype offset, MarkdownBlock::State state, QList<MarkdownBlock>& out) const
{
    LineParser parser{out, state};
    while (offset < m_text.size()) {
        const qsizetype end = m_text.indexOf(QLatin1Char('\n'), offset);
        const bool complete = end >= 0;
        const qsizetype stop = complete ? end : m_text.size();
        parser.line(m_text.mid(offset, stop - offset), offset, complete);
        offset = stop + 1;
    }
}

MarkdownBlocks::Change MarkdownBlocks::append(const QString& delta)
{
    if (delta.isEmpty())
        return {};
    m_text += delta;
    // Resume at the start of the last block; everything before it is final.
    const int first = m_blocks.isEmpty() ? 0 : int(m_blocks.size()) - 1;
    const qsizetype offset = m_blocks.isEmpty() ? 0 : m_blocks.last().start;
    const MarkdownBlock::State state = m_blocks.isEmpty() ? MarkdownBlock::State{} : m_blocks.last().state;
    QList<MarkdownBlock> tail;
    parseFrom(offset, state, tail);

    Change change;
    const int oldTail = int(m_blocks.size()) - first;
    int same = 0;
    while (same < oldTail && same < tail.size() && m_blocks[first + same].sameContent(tail[same]))
        ++same;
    change.first = first + same;
    change.removed = oldTail - same;
    change.inserted = int(tail.size()) - same;
    m_blocks.resize(first);
    m_blocks.append(tail);
    return change;
}

void MarkdownBlocks::reset(const QString& text)
{
    m_text.clear();
    m_blocks.clear();
    append(text);
}

QString MarkdownBlocks::fenceCode(int fence) const
{
    QString code;
    for (const MarkdownBlock& b : m_blocks) {
        if (b.kind == MarkdownBlock::Kind::Code && b.fence == fence)
            code += (b.chunk > 0 ? QStringLiteral("\n") : QString()) + b.text;
    }
    return code;
}

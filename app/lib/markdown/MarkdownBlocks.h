// Incremental Markdown block structure of one streaming message.
//
// The message text only grows (append). Each append re-parses from the start
// of the last block only, so the cost of an append is bounded by the size of
// the tail block, not the message: blocks before it are final. Code fences
// are split into chunks of at most kCodeChunkLines lines for the same reason
// (a long fence would otherwise be an ever-growing tail); the view draws the
// chunks of one fence as one box.
//
// Blocks: paragraphs, ATX headings, list items (each item its own block,
// with its depth and marker), block quotes, code chunks, rules and pipe
// tables. Inline syntax stays in `text` (see InlineMarkdown).
//
// Not thread-safe; owned by one MessageBlocksModel on the GUI thread.
#pragma once

#include <QList>
#include <QString>

struct MarkdownBlock {
    enum class Kind {
        Paragraph,
        Heading,
        ListItem,
        Quote,
        Code,
        Rule,
        Table
    };

    // Parser state at the start of a block, to resume parsing there.
    struct State {
        bool inFence = false;
        QChar fenceChar;
        int fenceLength = 0;
        QString language;
        int fences = 0; // fences opened before this point
        int chunk = 0;  // chunk index inside the open fence
        int chunkLines = 0;
        bool operator==(const State&) const = default;
    };

    Kind kind = Kind::Paragraph;
    QString text;          // content without block syntax; code: the chunk's lines
    int level = 0;         // heading: 1..6; list item: nesting depth from 0
    QString marker;        // list item: "-" or "3." as written
    QString language;      // code: the fence's info word ("" if none)
    int fence = -1;        // code: ordinal of its fence in the message
    int chunk = 0;         // code: index of the chunk within its fence
    bool closed = false;   // code: the fence's closing line was seen (last chunk)
    bool lastChunk = true; // code: no later chunk of the same fence (so far)
    qsizetype start = 0;   // offset in the message where the block starts
    State state;           // parser state at `start`

    bool sameContent(const MarkdownBlock& o) const
    {
        return kind == o.kind && text == o.text && level == o.level && marker == o.marker && language == o.language &&
               fence == o.fence && chunk == o.chunk && closed == o.closed && lastChunk == o.lastChunk;
    }
};

class MarkdownBlocks {
public:
    static constexpr int kCodeChunkLines = 20;

    // What an append changed: rows [first, first + removed) of the old list
    // were replaced by rows [first, first + inserted) of the new one; rows
    // before `first` are untouched. removed == inserted == 0: no change.
    struct Change {
        int first = 0;
        int removed = 0;
        int inserted = 0;
    };

    Change append(const QString& delta);
    void reset(const QString& text = {});

    const QString& text() const { return m_text; }
    const QList<MarkdownBlock>& blocks() const { return m_blocks; }
    // The whole code of fence `fence` (its chunks joined).
    QString fenceCode(int fence) const;

private:
    void parseFrom(qsizetype offset, MarkdownBlock::State state, QList<MarkdownBlock>& out) const;

    QString m_text;
    QList<MarkdownBlock> m_blocks;
};

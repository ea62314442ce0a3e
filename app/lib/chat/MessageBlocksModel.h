// The Markdown blocks of one message, as a list model the message delegate
// repeats over. Appending text re-parses only the tail block
// (MarkdownBlocks) and emits dataChanged / rowsInserted for the rows that
// changed, so a token costs the same at the end of a long reply as at its
// start. Code chunks are plain text at first and get their colours when the
// HighlightService answers (off the GUI thread; at most one request per
// fence in flight, repeated while the fence grows).
//
// Rows are blocks; see Roles. GUI thread only.
#pragma once

#include "highlight/Highlighter.h"
#include "markdown/MarkdownBlocks.h"
#include "markdown/RenderStyle.h"

#include <QAbstractListModel>
#include <QHash>
#include <QtQml/qqmlregistration.h>

class HighlightService;

class MessageBlocksModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Blocks belong to a message")

public:
    enum class Kind {
        Paragraph,
        Heading,
        ListItem,
        Quote,
        Code,
        Rule,
        Table
    };
    Q_ENUM(Kind)

    enum Roles {
        KindRole = Qt::UserRole + 1, // Kind
        HtmlRole,                    // QString: rich text of the block
        TextRole,                    // QString: the block's source (code: the chunk's code)
        LevelRole,                   // int: heading level 1..6, list depth from 0
        MarkerRole,                  // QString: list marker to show ("•", "3.")
        LanguageRole,                // QString: code fence language word
        FenceRole,                   // int: code fence ordinal (for copyCode)
        FirstChunkRole,              // bool: first chunk of its code fence (draws the header)
        LastChunkRole,               // bool: last chunk of its fence so far (draws the bottom)
    };
    Q_ENUM(Roles)

    // `highlighter` may be null (no highlighting); `style` must outlive the model.
    MessageBlocksModel(HighlightService* highlighter, const RenderStyle* style, QObject* parent = nullptr);

    void append(const QString& delta);
    void setText(const QString& text);
    const QString& text() const { return m_blocks.text(); }
    // The code of fence `fence` (all its chunks), for "copy code".
    Q_INVOKABLE QString fenceCode(int fence) const { return m_blocks.fenceCode(fence); }
    // Re-renders every block after a theme change.
    void restyle();

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    struct Fence {
        int firstRow = -1; // row of its first chunk
        QList<HighlightSpan> spans;
        int covered = 0;    // spans are valid for the code's first `covered` characters
        int requested = -1; // length of the code last sent to the highlighter
        bool inFlight = false;
    };

    QString render(int row) const;
    int chunkOffset(int row) const;
    void requestHighlight(int fence);
    void applyHighlight(int fence, int length, const QList<HighlightSpan>& spans);

    HighlightService* m_highlighter;
    const RenderStyle* m_style;
    MarkdownBlocks m_blocks;
    QList<QString> m_html; // rendered rich text per row
    QHash<int, Fence> m_fences;
};

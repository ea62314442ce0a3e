#include "chat/MessageBlocksModel.h"

#include "highlight/CodeHtml.h"
#include "highlight/HighlightService.h"
#include "markdown/BlockHtml.h"

MessageBlocksModel::MessageBlocksModel(HighlightService* highlighter, const RenderStyle* style, QObject* parent)
    : QAbstractListModel(parent), m_highlighter(highlighter), m_style(style)
{
}

int MessageBlocksModel::rowCount(const QModelIndex& parent) const
{
    // The rows the views know: m_html changes inside begin/end*Rows, the
    // parsed blocks before them.
    return parent.isValid() ? 0 : int(m_html.size());
}

QHash<int, QByteArray> MessageBlocksModel::roleNames() const
{
    return {
        {KindRole, "kind"},          {HtmlRole, "html"},         {TextRole, "text"},   {LevelRole, "level"},
        {MarkerRole, "marker"},      {LanguageRole, "language"}, {FenceRole, "fence"}, {FirstChunkRole, "firstChunk"},
        {LastChunkRole, "lastChunk"}};
}

QVariant MessageBlocksModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
        index.row() >= m_blocks.blocks().size())
        return {};
    const MarkdownBlock& b = m_blocks.blocks().at(index.row());
    switch (role) {
    case KindRole: return QVariant::fromValue(Kind(int(b.kind)));
    case Qt::DisplayRole:
    case TextRole: return b.text;
    case HtmlRole: return m_html.at(index.row());
    case LevelRole: return b.level;
    case MarkerRole: return BlockHtml::displayMarker(b);
    case LanguageRole: return b.language;
    case FenceRole: return b.fence;
    case FirstChunkRole: return b.kind == MarkdownBlock::Kind::Code && b.chunk == 0;
    case LastChunkRole: return b.kind == MarkdownBlock::Kind::Code && b.lastChunk;
    default: return {};
    }
}

int MessageBlocksModel::chunkOffset(int row) const
{
    const QList<MarkdownBlock>& blocks = m_blocks.blocks();
    int offset = 0;
    for (int r = row - 1; r >= 0 && blocks[r].kind == MarkdownBlock::Kind::Code && blocks[r].fence == blocks[row].fence;
         --r)
        offset += int(blocks[r].text.size()) + 1;
    return offset;
}

QString MessageBlocksModel::render(int row) const
{
    const MarkdownBlock& b = m_blocks.blocks().at(row);
    if (b.kind != MarkdownBlock::Kind::Code)
        return BlockHtml::render(b, *m_style);
    const auto fence = m_fences.constFind(b.fence);
    static const QList<HighlightSpan> none;
    return CodeHtml::render(b.text, chunkOffset(row), fence == m_fences.cend() ? none : fence->spans, *m_style);
}

void MessageBlocksModel::append(const QString& delta)
{
    const MarkdownBlocks::Change c = m_blocks.append(delta);
    const int common = std::min(c.removed, c.inserted);
    for (int r = c.first; r < c.first + common; ++r)
        m_html[r] = render(r);
    if (common > 0)
        emit dataChanged(index(c.first), index(c.first + common - 1));
    if (c.removed > common) {
        beginRemoveRows({}, c.first + common, c.first + c.removed - 1);
        m_html.remove(c.first + common, c.removed - common);
        endRemoveRows();
    } else if (c.inserted > common) {
        beginInsertRows({}, c.first + common, c.first + c.inserted - 1);
        for (int r = c.first + common; r < c.first + c.inserted; ++r)
            m_html.insert(r, render(r));
        endInsertRows();
    }
    // A fence whose code gained a line (or its end) is highlighted again.
    const QList<MarkdownBlock>& blocks = m_blocks.blocks();
    for (int r = c.first; r < c.first + c.inserted; ++r) {
        const MarkdownBlock& b = blocks[r];
        if (b.kind != MarkdownBlock::Kind::Code)
            continue;
        if (b.chunk == 0)
            m_fences[b.fence].firstRow = r;
        if (b.text.contains(QLatin1Char('\n')) || b.closed || b.chunk > 0)
            requestHighlight(b.fence);
    }
}

void MessageBlocksModel::setText(const QString& text)
{
    beginResetModel();
    m_blocks.reset();
    m_fences.clear();
    m_html.clear();
    m_blocks.append(text);
    for (int r = 0; r < m_blocks.blocks().size(); ++r)
        m_html.append(render(r));
    endResetModel();
    const QList<MarkdownBlock>& blocks = m_blocks.blocks();
    for (int r = 0; r < blocks.size(); ++r)
        if (blocks[r].kind == MarkdownBlock::Kind::Code && blocks[r].chunk == 0)
            m_fences[blocks[r].fence].firstRow = r;
    for (auto it = m_fences.keyBegin(); it != m_fences.keyEnd(); ++it)
        requestHighlight(*it);
}

void MessageBlocksModel::restyle()
{
    for (int r = 0; r < m_html.size(); ++r)
        m_html[r] = render(r);
    if (!m_html.isEmpty())
        emit dataChanged(index(0), index(int(m_html.size()) - 1), {HtmlRole});
}

void MessageBlocksModel::requestHighlight(int fence)
{
    Fence& f = m_fences[fence];
    if (!m_highlighter || f.inFlight || f.firstRow < 0)
        return;
    // The fence's chunks are consecutive rows from firstRow: cost O(fence).
    const QList<MarkdownBlock>& blocks = m_blocks.blocks();
    QString code;
    bool closed = false;
    for (int r = f.firstRow;
         r < blocks.size() && blocks[r].kind == MarkdownBlock::Kind::Code && blocks[r].fence == fence; ++r) {
        code += (r > f.firstRow ? QStringLiteral("\n") : QString()) + blocks[r].text;
        closed = blocks[r].closed;
    }
    // Highlight whole lines only while the fence is open: a half-written
    // token would flicker.
    const int wanted = closed ? int(code.size()) : int(code.lastIndexOf(QLatin1Char('\n')) + 1);
    if (wanted <= f.requested)
        return;
    f.inFlight = true;
    f.requested = wanted;
    m_highlighter->request(
        code.left(wanted), blocks[f.firstRow].language, this,
        [this, fence, wanted](const QList<HighlightSpan>& spans) { applyHighlight(fence, wanted, spans); });
}

void MessageBlocksModel::applyHighlight(int fence, int length, const QList<HighlightSpan>& spans)
{
    Fence& f = m_fences[fence];
    f.inFlight = false;
    const int before = spans.isEmpty() ? 0 : f.covered;
    f.spans = spans;
    f.covered = length;
    // Chunks the previous answer covered entirely keep their HTML.
    const QList<MarkdownBlock>& blocks = m_blocks.blocks();
    int offset = 0;
    for (int r = f.firstRow;
         r >= 0 && r < blocks.size() && blocks[r].kind == MarkdownBlock::Kind::Code && blocks[r].fence == fence; ++r) {
        const int end = offset + int(blocks[r].text.size());
        if (end > before || before == 0) {
            const QString html = CodeHtml::render(blocks[r].text, offset, f.spans, *m_style);
            if (html != m_html[r]) {
                m_html[r] = html;
                emit dataChanged(index(r), index(r), {HtmlRole});
            }
        }
        offset = end + 1;
    }
    requestHighlight(fence); // the fence may have grown meanwhile
}

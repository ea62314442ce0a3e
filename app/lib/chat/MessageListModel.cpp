#include "chat/MessageListModel.h"

#include "ui/Format.h"

#include <QFileInfo>

MessageListModel::MessageListModel(HighlightService* highlighter, const RenderStyle* style, QObject* parent)
    : QAbstractListModel(parent), m_highlighter(highlighter), m_style(style)
{
}

int MessageListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_list.size());
}

QHash<int, QByteArray> MessageListModel::roleNames() const
{
    return {{IdRole, "messageId"},
            {AuthorRole, "author"},
            {TextRole, "text"},
            {BlocksRole, "blocks"},
            {StateRole, "state"},
            {StreamingRole, "streaming"},
            {DetailsRole, "details"},
            {ProvenanceRole, "provenance"},
            {ErrorRole, "error"},
            {LastRole, "last"},
            {ActionsEnabledRole, "actionsEnabled"},
            {ModelNameRole, "modelName"},
            {AlternativeRole, "alternative"},
            {AlternativesRole, "alternatives"},
            {SourcesRole, "sources"},
            {SourcesGivenRole, "sourcesGiven"}};
}

QVariant MessageListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_list.at(index.row());
    const ChatMessage& m = row.meta;
    switch (role) {
    case IdRole: return m.id;
    case AuthorRole:
        return QVariant::fromValue(m.role == ChatTurn::Role::User        ? User
                                   : m.role == ChatTurn::Role::Assistant ? Assistant
                                                                         : System);
    case Qt::DisplayRole:
    case TextRole: return row.blocks->text();
    case BlocksRole: return QVariant::fromValue(row.blocks);
    case StateRole: return QVariant::fromValue(State(int(m.state)));
    case StreamingRole: return m.state == MessageState::Streaming;
    case DetailsRole: return details(m);
    case ProvenanceRole: return provenance(m);
    case ErrorRole: return m.error;
    case LastRole: return index.row() == m_list.size() - 1;
    case ActionsEnabledRole: return m_actionsEnabled;
    case ModelNameRole: return m.provenance.modelName;
    case AlternativeRole: return m.alternative;
    case AlternativesRole: return m.alternatives;
    case SourcesRole: {
        QVariantList out;
        for (const MessageSource& s : m.sources)
            if (s.cited)
                out.append(QVariantMap{{QStringLiteral("n"), s.n},
                                       {QStringLiteral("label"), s.label},
                                       {QStringLiteral("path"), s.path},
                                       {QStringLiteral("page"), s.pageFrom},
                                       {QStringLiteral("line"), s.line},
                                       {QStringLiteral("text"), s.text},
                                       {QStringLiteral("attributed"), s.attributed}});
        return out;
    }
    case SourcesGivenRole: return int(m.sources.size());
    default: return {};
    }
}

void MessageListModel::setMessages(const QList<ChatMessage>& messages)
{
    beginResetModel();
    for (const Row& r : std::as_const(m_list))
        r.blocks->deleteLater();
    m_list.clear();
    m_rows.clear();
    for (const ChatMessage& m : messages) {
        Row row{m, new MessageBlocksModel(m_highlighter, m_style, this)};
        row.blocks->setText(m.text);
        row.meta.text.clear();
        m_rows.insert(m.id, int(m_list.size()));
        m_list.append(row);
    }
    endResetModel();
    emit countChanged();
}

void MessageListModel::append(const ChatMessage& message)
{
    const int at = int(m_list.size());
    Row row{message, new MessageBlocksModel(m_highlighter, m_style, this)};
    row.blocks->setText(message.text);
    row.meta.text.clear();
    beginInsertRows({}, at, at);
    m_rows.insert(message.id, at);
    m_list.append(row);
    endInsertRows();
    if (at > 0)
        emit dataChanged(index(at - 1), index(at - 1), {LastRole});
    emit countChanged();
}

bool MessageListModel::appendText(qint64 id, const QString& text)
{
    const int row = rowOf(id);
    if (row < 0)
        return false;
    m_list[row].blocks->append(text);
    emit dataChanged(index(row), index(row), {TextRole});
    return true;
}

bool MessageListModel::replaceText(qint64 id, const QString& text)
{
    const int row = rowOf(id);
    if (row < 0)
        return false;
    m_list[row].blocks->setText(text);
    emit dataChanged(index(row), index(row), {TextRole});
    return true;
}

void MessageListModel::updateMeta(const ChatMessage& message)
{
    const int row = rowOf(message.id);
    if (row < 0)
        return;
    m_list[row].meta = message;
    m_list[row].meta.text.clear();
    emit dataChanged(index(row), index(row),
                     {StateRole, StreamingRole, DetailsRole, ProvenanceRole, ErrorRole, SourcesRole, SourcesGivenRole});
}

void MessageListModel::removeFrom(qint64 id)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    beginRemoveRows({}, row, int(m_list.size()) - 1);
    for (int r = row; r < m_list.size(); ++r) {
        m_rows.remove(m_list[r].meta.id);
        m_list[r].blocks->deleteLater();
    }
    m_list.resize(row);
    endRemoveRows();
    if (row > 0)
        emit dataChanged(index(row - 1), index(row - 1), {LastRole});
    emit countChanged();
}

void MessageListModel::clear()
{
    setMessages({});
}

void MessageListModel::setActionsEnabled(bool enabled)
{
    if (enabled == m_actionsEnabled)
        return;
    m_actionsEnabled = enabled;
    if (!m_list.isEmpty())
        emit dataChanged(index(0), index(int(m_list.size()) - 1), {ActionsEnabledRole});
}

void MessageListModel::restyle()
{
    for (const Row& r : std::as_const(m_list))
        r.blocks->restyle();
}

const ChatMessage* MessageListModel::meta(qint64 id) const
{
    const int row = rowOf(id);
    return row < 0 ? nullptr : &m_list[row].meta;
}

const QList<ChatMessage> MessageListModel::metas() const
{
    QList<ChatMessage> out;
    out.reserve(m_list.size());
    for (const Row& r : m_list) {
        out.append(r.meta);
        out.last().text = r.blocks->text();
    }
    return out;
}

QString MessageListModel::textOf(qint64 id) const
{
    const int row = rowOf(id);
    return row < 0 ? QString() : m_list[row].blocks->text();
}

QString MessageListModel::fenceCode(qint64 id, int fence) const
{
    const int row = rowOf(id);
    return row < 0 ? QString() : m_list[row].blocks->fenceCode(fence);
}

QString MessageListModel::details(const ChatMessage& m) const
{
    if (m.role != ChatTurn::Role::Assistant || m.provenance.isEmpty())
        return {};
    const Provenance& p = m.provenance;
    QStringList parts{p.modelName, p.quant};
    if (p.stats.generatedTokens > 0)
        parts << tr("%1 tokens/s").arg(Format::rate(p.stats.tokensPerSecond()))
              << tr("%n token(s)", nullptr, p.stats.generatedTokens);
    parts << tr("seed %1").arg(p.sampler.seed);
    if (m.state == MessageState::Stopped)
        parts << tr("stopped");
    else if (m.state == MessageState::Interrupted)
        parts << tr("interrupted");
    if (p.stats.contextShifts > 0)
        parts << tr("context shifted");
    parts.removeAll(QString());
    return parts.join(QStringLiteral(" · "));
}

QString MessageListModel::provenance(const ChatMessage& m) const
{
    if (m.role != ChatTurn::Role::Assistant || m.provenance.isEmpty())
        return {};
    const Provenance& p = m.provenance;
    const SamplerSettings& s = p.sampler;
    const GenerationStats& g = p.stats;
    QStringList lines;
    lines
        << tr("Model: %1 (%2, %3)").arg(p.modelName, p.architecture, p.quant) << tr("File: %1").arg(p.modelPath)
        << tr("SHA-256: %1").arg(p.modelSha256.isEmpty() ? tr("being computed") : p.modelSha256)
        << tr("Engine: %1").arg(p.engine)
        << tr("Sampler: temperature %1, top-k %2, top-p %3, min-p %4, repeat penalty %5, max tokens %6")
               .arg(s.temperature)
               .arg(s.topK)
               .arg(s.topP)
               .arg(s.minP)
               .arg(s.repeatPenalty)
               .arg(s.maxTokens)
        << tr("Seed: %1").arg(s.seed)
        << tr("Prompt: %n token(s)", nullptr, g.promptTokens) + QStringLiteral(", ") + Format::millis(g.promptMs)
        << tr("Time to first token: %1").arg(Format::millis(g.timeToFirstTokenMs))
        << tr("Generated: %n token(s)", nullptr, g.generatedTokens) + QStringLiteral(", ") +
               Format::millis(g.generationMs)
        << tr("Context: %1 of %2 tokens, %n shift(s)", nullptr, g.contextShifts).arg(g.contextUsed).arg(p.contextSize);
    return lines.join(QLatin1Char('\n'));
}

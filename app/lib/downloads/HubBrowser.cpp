#include "HubBrowser.h"

#include "engine/FitEstimator.h"
#include "secrets/SecretStore.h"

namespace {

const QString kTokenKey = QStringLiteral("hub/token");

QString sizeText(qint64 bytes)
{
    if (bytes >= 1000000000)
        return QStringLiteral("%1 GB").arg(double(bytes) / 1e9, 0, 'f', 2);
    return QStringLiteral("%1 MB").arg(double(bytes) / 1e6, 0, 'f', 1);
}

} // namespace

HubBrowser::HubBrowser(QObject* parent)
    : QObject(parent)
    , m_hub(new HubClient(this))
    , m_downloads(new DownloadsModel(this))
    , m_secrets(new SecretStore(this))
{
    if (m_hub->token().isEmpty()) {
        m_secrets->read(kTokenKey, [this](const SecretResult& r) {
            if (r.ok() && !r.value.isEmpty() && m_hub->token().isEmpty()) {
                m_hub->setToken(r.value);
                m_downloads->setToken(r.value);
            }
        });
    }
}

void HubBrowser::setGpuLayers(int layers)
{
    if (layers == m_hub->fitGpuLayers())
        return;
    m_hub->setFitGpuLayers(layers);
    if (!m_choices.isEmpty())
        m_recommended = HubNames::recommendedChoice(m_choices, FitEstimator::roughBudget(layers));
    emit filesChanged(); // the rough fits and the recommendation change
    if (headerIndex() >= 0 && headerError().isEmpty())
        checkFile(headerIndex());
}

void HubBrowser::begin()
{
    if (m_pending++ == 0)
        emit busyChanged();
}

void HubBrowser::end()
{
    if (--m_pending == 0)
        emit busyChanged();
}

void HubBrowser::setError(const HubError& error)
{
    m_error = error;
    emit errorChanged();
}

void HubBrowser::clearError()
{
    setError({});
}

void HubBrowser::search(const QString& query, const QString& sort)
{
    const HubClient::Sort order = sort == QLatin1String("likes")     ? HubClient::Sort::Likes
                                  : sort == QLatin1String("updated") ? HubClient::Sort::Updated
                                                                     : HubClient::Sort::Downloads;
    const int serial = ++m_searchSerial;
    begin();
    m_hub->search(query.trimmed(), order, 30, [this, serial](const HubResult<QList<HubModel>>& r) {
        end();
        if (serial != m_searchSerial)
            return;
        setError(r.error);
        m_results.clear();
        for (const HubModel& m : r.value)
            m_results.append(QVariantMap{{QStringLiteral("repoId"), m.id},
                                         {QStringLiteral("downloads"), m.downloads},
                                         {QStringLiteral("likes"), m.likes},
                                         {QStringLiteral("updated"), m.lastModified.date().toString(Qt::ISODate)},
                                         {QStringLiteral("gated"), m.gated}});
        emit resultsChanged();
    });
}

QVariantList HubBrowser::files() const
{
    QVariantList out;
    // Before a header is read: the file's rough needs against RAM and the GPU.
    const qint64 available = FitEstimator::roughBudget(gpuLayers());
    for (int i = 0; i < m_choices.size(); ++i) {
        const ModelFileChoice& c = m_choices[i];
        out.append(
            QVariantMap{{QStringLiteral("name"), c.name},
                        {QStringLiteral("quant"), c.quant},
                        {QStringLiteral("size"), double(c.size())},
                        {QStringLiteral("sizeText"), sizeText(c.size())},
                        {QStringLiteral("parts"), int(c.parts.size())},
                        {QStringLiteral("fits"), available <= 0 || HubNames::roughMemoryFor(c.size()) <= available},
                        {QStringLiteral("recommended"), i == m_recommended}});
    }
    return out;
}

void HubBrowser::openRepo(const QString& repo)
{
    const int serial = ++m_repoSerial;
    m_repo = repo;
    m_choices.clear();
    m_recommended = -1;
    m_header.clear();
    emit filesChanged();
    emit headerChanged();
    begin();
    m_hub->listFiles(repo, m_revision, [this, serial](const HubResult<RepoFiles>& r) {
        end();
        if (serial != m_repoSerial)
            return;
        setError(r.error);
        m_choices = HubNames::ggufChoices(r.value.files);
        m_recommended = HubNames::recommendedChoice(m_choices, FitEstimator::roughBudget(gpuLayers()));
        emit filesChanged();
        if (m_recommended >= 0)
            checkFile(m_recommended);
    });
}

void HubBrowser::checkFile(int index)
{
    if (index < 0 || index >= m_choices.size())
        return;
    const int serial = ++m_headerSerial;
    const ModelFileChoice choice = m_choices[index];
    m_header.clear();
    emit headerChanged();
    begin();
    m_hub->probeHeader(m_repo, m_revision, choice, [this, serial, index](const HubResult<HeaderProbe>& r) {
        end();
        if (serial != m_headerSerial)
            return;
        if (!r.ok()) {
            m_header = {{QStringLiteral("index"), index}, {QStringLiteral("error"), r.error.message}};
            if (r.error.kind == HubErrorKind::Auth)
                setError(r.error);
            emit headerChanged();
            return;
        }
        const ModelFacts& f = r.value.facts;
        m_header = {{QStringLiteral("index"), index},
                    {QStringLiteral("architecture"), f.architecture},
                    {QStringLiteral("quant"), f.quant},
                    {QStringLiteral("parameters"), double(f.parameters)},
                    {QStringLiteral("trainedContext"), f.trainedContext},
                    {QStringLiteral("contextSize"), f.contextSize},
                    {QStringLiteral("chatTemplate"), f.chatTemplate == QLatin1String("file")},
                    {QStringLiteral("requiredBytes"), double(r.value.fit.requiredBytes)},
                    {QStringLiteral("availableBytes"), double(r.value.fit.availableBytes)},
                    {QStringLiteral("fits"), r.value.fit.fits()},
                    {QStringLiteral("fitPlace"), FitEstimator::placeName(r.value.fit)},
                    {QStringLiteral("fitText"), FitEstimator::describe(r.value.fit)},
                    {QStringLiteral("gpuLayers"), r.value.fit.gpuLayers},
                    {QStringLiteral("layerCount"), r.value.fit.layerCount},
                    {QStringLiteral("bytesRead"), double(r.value.bytesRead)}};
        emit headerChanged();
    });
}

void HubBrowser::download(int index)
{
    if (index < 0 || index >= m_choices.size())
        return;
    const ModelFileChoice& c = m_choices[index];
    DownloadSpec spec;
    spec.repo = m_repo;
    spec.revision = m_revision;
    spec.name = c.name;
    spec.quant = c.quant;
    spec.parts = c.parts;
    m_downloads->start(spec);
}

void HubBrowser::setToken(const QString& token)
{
    const QString t = token.trimmed();
    m_hub->setToken(t);
    m_downloads->setToken(t);
    clearError();
    if (t.isEmpty())
        m_secrets->remove(kTokenKey, [](const SecretResult&) {});
    else
        m_secrets->write(kTokenKey, t, [](const SecretResult&) {});
    if (!m_repo.isEmpty())
        openRepo(m_repo);
}

#include "engine/EngineFactory.h"

#include "engine/FakeEngine.h"

namespace EngineFactory {

QStringList availableKinds()
{
    // The adapter over core/runtime registers "cpu" here, first.
    return {QStringLiteral("fake")};
}

bool hasRealEngine()
{
    return availableKinds().contains(QStringLiteral("cpu"));
}

QString defaultKind()
{
    const QString wanted = qEnvironmentVariable("HEARTH_ENGINE");
    return availableKinds().contains(wanted) ? wanted : availableKinds().constFirst();
}

std::shared_ptr<InferenceEngine> create(const QString& kind)
{
    if (kind == QLatin1String("fake"))
        return std::make_shared<FakeEngine>();
    return nullptr;
}

} // namespace EngineFactory

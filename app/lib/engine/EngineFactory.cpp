#include "engine/EngineFactory.h"

#include "engine/FakeEngine.h"
#ifdef HEARTH_HAVE_CORE_RUNTIME
#include "engine/CoreEngine.h"
#endif

namespace EngineFactory {

QStringList availableKinds()
{
#ifdef HEARTH_HAVE_CORE_RUNTIME
    return {QStringLiteral("cpu"), QStringLiteral("fake")};
#else
    return {QStringLiteral("fake")};
#endif
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
#ifdef HEARTH_HAVE_CORE_RUNTIME
    if (kind == QLatin1String("cpu"))
        return std::make_shared<CoreEngine>();
#endif
    return nullptr;
}

} // namespace EngineFactory

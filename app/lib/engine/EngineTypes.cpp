#include "engine/EngineTypes.h"

QString stopReasonName(StopReason reason)
{
    switch (reason) {
    case StopReason::EndOfGeneration: return QStringLiteral("end");
    case StopReason::MaxTokens: return QStringLiteral("max-tokens");
    case StopReason::Stopped: return QStringLiteral("stopped");
    case StopReason::Failed: return QStringLiteral("failed");
    case StopReason::None: break;
    }
    return {};
}

StopReason stopReasonFromName(const QString& name)
{
    for (StopReason r : {StopReason::EndOfGeneration, StopReason::MaxTokens, StopReason::Stopped, StopReason::Failed})
        if (stopReasonName(r) == name)
            return r;
    return StopReason::None;
}

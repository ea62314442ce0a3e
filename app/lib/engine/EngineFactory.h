// Chooses the engine implementation. "fake" is always available; "cpu" (the
// adapter over core/runtime) once the CPU engine has landed. The default is
// $HEARTH_ENGINE when set, else the best available.
#pragma once

#include "engine/InferenceEngine.h"

#include <QStringList>

#include <memory>

namespace EngineFactory {

QStringList availableKinds(); // e.g. {"fake"} or {"cpu", "fake"}
QString defaultKind();        // $HEARTH_ENGINE if available, else the first of availableKinds()
bool hasRealEngine();         // an engine that runs models is built in
std::shared_ptr<InferenceEngine> create(const QString& kind = defaultKind()); // nullptr for an unknown kind

} // namespace EngineFactory

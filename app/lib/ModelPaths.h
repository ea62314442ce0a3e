// Where Hearth keeps and finds model files. The default models folder is
// $HEARTH_MODELS_DIR, else $XDG_DATA_HOME/hearth/models (on Linux
// ~/.local/share/hearth/models); scripts/setup uses the same rule.
#pragma once

#include <QString>

namespace ModelPaths {

// The folder models are downloaded to and scanned from by default.
QString defaultModelsDir();
// File name of the model Hearth opens on first start (SmolLM2-135M-Instruct).
QString defaultModelFileName();
// Full path of the default model if it exists, else an empty string.
QString defaultModelPath();
// Where Documents' embedding model is by default (all-MiniLM-L6-v2, which
// scripts/convert-models makes), whether it exists or not.
QString defaultEmbeddingModel();
// $XDG_DATA_HOME, or ~/.local/share when it is unset: the base of Hearth's
// data and models folders on Linux and FreeBSD.
QString xdgDataHome();

} // namespace ModelPaths

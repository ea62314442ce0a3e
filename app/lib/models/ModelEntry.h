// One model file as the picker shows it: facts from its header, the fit
// estimate, or why it cannot be used.
#pragma once

#include "engine/EngineTypes.h"

#include <QDateTime>
#include <QString>

struct ModelEntry {
    QString path;
    qint64 fileSize = 0;
    QDateTime modified;
    QString name;
    QString architecture;
    QString quant;
    qint64 parameters = 0;
    int trainedContext = 0;
    qint64 requiredBytes = 0; // fit estimate for `estimateContext` and `estimateGpuLayers`, RAM and GPU
    int estimateContext = 0;
    int estimateGpuLayers = 0;   // the -ngl setting it assumed (kept in the cache only when 0)
    qint64 availableBytes = 0;   // memory available when scanned
    qint64 gpuRequiredBytes = 0; // of requiredBytes, on the GPU
    qint64 gpuAvailableBytes = 0;
    int gpuLayers = 0, layerCount = 0; // layers the estimate puts on the GPU, of n_layer + 1
    QString sha256;                    // "" until hashed
    QString error;                     // not a usable model: why
    QString endpoint;                  // a remote model (path is its URL): the server's label; "" for a file

    bool isValid() const { return error.isEmpty(); }
    bool isRemote() const { return !endpoint.isEmpty(); }
    FitEstimate fit() const
    {
        return {requiredBytes, availableBytes, gpuRequiredBytes, gpuAvailableBytes, gpuLayers, layerCount};
    }
    bool fits() const { return isValid() && fit().fits(); }
};

// One model file as the picker shows it: facts from its header, the fit
// estimate, or why it cannot be used.
#pragma once

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
    qint64 requiredBytes = 0; // fit estimate for `estimateContext`
    int estimateContext = 0;
    qint64 availableBytes = 0; // memory available when scanned
    QString sha256;            // "" until hashed
    QString error;             // not a usable model: why

    bool isValid() const { return error.isEmpty(); }
    bool fits() const { return isValid() && requiredBytes > 0 && requiredBytes <= availableBytes; }
};

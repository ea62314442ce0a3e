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
    QString endpoint;          // a remote model (path is its URL): the server's label; "" for a file

    bool isValid() const { return error.isEmpty(); }
    bool isRemote() const { return !endpoint.isEmpty(); }
    bool fits() const { return isValid() && requiredBytes > 0 && requiredBytes <= availableBytes; }
};

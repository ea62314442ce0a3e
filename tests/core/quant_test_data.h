// Loads the committed quantization vectors under tests/data/quant (index
// JSON + one little-endian binary blob, both written by the scripts in
// scripts/refs/) for the quant tests.
#pragma once

#include "test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace quanttest {

struct VectorFile {
    QJsonObject index;
    QByteArray blob;

    // The bytes an [offset, length] pair of the index points at.
    std::vector<uint8_t> bytes(const QJsonValue& range) const
    {
        const QJsonArray r = range.toArray();
        const qsizetype at = r.at(0).toInteger();
        const qsizetype len = r.at(1).toInteger();
        if (r.size() != 2 || at < 0 || len < 0 || at + len > blob.size())
            throw std::runtime_error("bad range in the vector index");
        const auto* p = reinterpret_cast<const uint8_t*>(blob.constData()) + at;
        return std::vector<uint8_t>(p, p + len);
    }

    std::vector<float> floats(const QJsonValue& range) const
    {
        const std::vector<uint8_t> b = bytes(range);
        std::vector<float> f(b.size() / sizeof(float));
        std::memcpy(f.data(), b.data(), f.size() * sizeof(float));
        return f;
    }

    QJsonArray cases() const { return index.value(QStringLiteral("cases")).toArray(); }
};

// Reads tests/data/quant/NAME.json and the blob it names; throws when absent.
inline VectorFile loadVectors(const char* name)
{
    const QString dir = QString::fromStdString(testsupport::sourceDir()) + QStringLiteral("/tests/data/quant/");
    QFile json(dir + QString::fromLatin1(name) + QStringLiteral(".json"));
    if (!json.open(QIODevice::ReadOnly))
        throw std::runtime_error("cannot read " + json.fileName().toStdString());
    VectorFile v;
    v.index = QJsonDocument::fromJson(json.readAll()).object();
    QFile bin(dir + v.index.value(QStringLiteral("data")).toString());
    if (!bin.open(QIODevice::ReadOnly))
        throw std::runtime_error("cannot read " + bin.fileName().toStdString());
    v.blob = bin.readAll();
    return v;
}

// Distance in units in the last place between two floats (0 when equal, also
// for +0/-0 and for two NaNs); huge when signs differ.
inline uint32_t ulpDistance(float a, float b)
{
    if (a != a || b != b)
        return (a != a && b != b) ? 0 : UINT32_MAX;
    if (a == b)
        return 0;
    int32_t ia, ib;
    std::memcpy(&ia, &a, 4);
    std::memcpy(&ib, &b, 4);
    if ((ia < 0) != (ib < 0))
        return UINT32_MAX;
    const int64_t d = static_cast<int64_t>(ia) - static_cast<int64_t>(ib);
    return static_cast<uint32_t>(d < 0 ? -d : d);
}

} // namespace quanttest

// Reads members of a zip archive (DOCX, ODT) through libzip with bounded
// expansion: a member is inflated in slices and given up as soon as it
// passes the limit, whatever its header claims, so a zip bomb costs at most
// `limit` bytes of memory and the time to inflate them.
#pragma once

#include <QByteArray>
#include <QString>

struct zip;

namespace documents {

class ZipReader {
public:
    // Opens the archive; throws ExtractionError (failed) when it is not one.
    explicit ZipReader(const QString& path);
    ~ZipReader();
    ZipReader(const ZipReader&) = delete;
    ZipReader& operator=(const ZipReader&) = delete;

    bool contains(const char* name) const;
    // The member's bytes; throws ExtractionError (failed) when it is missing,
    // damaged, encrypted or inflates beyond `limit` bytes.
    QByteArray read(const char* name, qint64 limit) const;

private:
    zip* m_zip = nullptr;
    QString m_path;
};

} // namespace documents

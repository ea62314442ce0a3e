#include "documents/ZipReader.h"

#include "documents/Extraction.h"

#include <QFile>

#include <zip.h>

namespace documents {

ZipReader::ZipReader(const QString& path) : m_path(path)
{
    int error = 0;
    m_zip = zip_open(QFile::encodeName(path).constData(), ZIP_RDONLY, &error);
    if (!m_zip) {
        zip_error_t e;
        zip_error_init_with_code(&e, error);
        const QString why = QString::fromUtf8(zip_error_strerror(&e));
        zip_error_fini(&e);
        throw ExtractionError(ExtractStatus::Failed, QStringLiteral("not a readable zip archive (%1)").arg(why));
    }
}

ZipReader::~ZipReader()
{
    if (m_zip)
        zip_discard(m_zip);
}

bool ZipReader::contains(const char* name) const
{
    return zip_name_locate(m_zip, name, 0) >= 0;
}

QByteArray ZipReader::read(const char* name, qint64 limit) const
{
    const zip_int64_t index = zip_name_locate(m_zip, name, 0);
    if (index < 0)
        throw ExtractionError(ExtractStatus::Failed, QStringLiteral("%1 is missing from the archive").arg(name));
    zip_file_t* f = zip_fopen_index(m_zip, static_cast<zip_uint64_t>(index), 0);
    if (!f)
        throw ExtractionError(ExtractStatus::Failed,
                              QStringLiteral("cannot read %1 (%2)")
                                  .arg(QString::fromLatin1(name), QString::fromUtf8(zip_strerror(m_zip))));
    QByteArray out;
    char buffer[1 << 16];
    for (;;) {
        const zip_int64_t n = zip_fread(f, buffer, sizeof buffer);
        if (n < 0) {
            const QString why = QString::fromUtf8(zip_file_strerror(f));
            zip_fclose(f);
            throw ExtractionError(ExtractStatus::Failed,
                                  QStringLiteral("%1 is damaged (%2)").arg(QString::fromLatin1(name), why));
        }
        if (n == 0)
            break;
        if (out.size() + n > limit) {
            zip_fclose(f);
            throw ExtractionError(ExtractStatus::Failed,
                                  QStringLiteral("%1 expands beyond %2 KiB: refused as a possible zip bomb")
                                      .arg(QString::fromLatin1(name))
                                      .arg(limit >> 10));
        }
        out.append(buffer, static_cast<qsizetype>(n));
    }
    zip_fclose(f);
    return out;
}

} // namespace documents

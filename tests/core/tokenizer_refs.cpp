#include "tokenizer_refs.h"

#include "test_support.h"

#include <QByteArray>
#include <QFile>

#include <stdexcept>

namespace tokrefs {

namespace {

class Reader {
public:
    explicit Reader(const std::string& path)
    {
        QFile file(QString::fromStdString(path));
        if (!file.open(QIODevice::ReadOnly))
            throw std::runtime_error("cannot open " + path);
        m_data = qUncompress(file.readAll());
        if (m_data.isEmpty())
            throw std::runtime_error("not a qCompress'ed file: " + path);
    }
    void expectMagic(const char* magic)
    {
        const std::string m(magic);
        if (m_data.size() < static_cast<qsizetype>(m.size()) || std::string(m_data.constData(), m.size()) != m)
            throw std::runtime_error("bad magic, expected " + m);
        m_pos = static_cast<qsizetype>(m.size());
    }
    uint64_t varint()
    {
        uint64_t value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_pos >= m_data.size())
                throw std::runtime_error("truncated golden file");
            const auto byte = static_cast<uint8_t>(m_data[m_pos++]);
            value |= uint64_t(byte & 0x7F) << shift;
            if (!(byte & 0x80))
                return value;
        }
        throw std::runtime_error("bad varint");
    }
    std::string bytes(uint64_t n)
    {
        if (m_pos + static_cast<qsizetype>(n) > m_data.size())
            throw std::runtime_error("truncated golden file");
        std::string s(m_data.constData() + m_pos, n);
        m_pos += static_cast<qsizetype>(n);
        return s;
    }

private:
    QByteArray m_data;
    qsizetype m_pos = 0;
};

} // namespace

std::string dataPath(const std::string& name)
{
    return testsupport::sourceDir() + "/tests/data/tokenizer/" + name;
}

std::vector<std::string> readCorpus(const std::string& path)
{
    Reader r(path);
    r.expectMagic("HTKC1");
    std::vector<std::string> cases(r.varint());
    for (std::string& c : cases)
        c = r.bytes(r.varint());
    return cases;
}

IdsFile readIds(const std::string& path)
{
    Reader r(path);
    r.expectMagic("HTKI2");
    IdsFile f;
    f.stride = r.varint();
    f.variants.resize(r.varint());
    for (Variant& v : f.variants) {
        v.name = r.bytes(r.varint());
        v.addSpecial = r.varint() != 0;
        v.parseSpecial = r.varint() != 0;
    }
    f.cases.resize(r.varint());
    for (auto& c : f.cases) {
        c.resize(f.variants.size());
        for (Expected& e : c) {
            e.ids.resize(r.varint());
            for (int32_t& id : e.ids)
                id = static_cast<int32_t>(r.varint());
            if (const uint64_t d = r.varint())
                e.detokenized = r.bytes(d - 1);
        }
    }
    return f;
}

} // namespace tokrefs

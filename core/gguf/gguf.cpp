// gguf::File: opens a model (one file or a split set) and answers
// look-ups. The byte-level parsing is in gguf_parser.cpp.
#include "gguf/gguf.h"

#include "gguf/gguf_parser.h"
#include "gguf/split_name.h"
#include "util/error.h"

#include <algorithm>
#include <bit>

static_assert(std::endian::native == std::endian::little,
              "GGUF files are little-endian; a big-endian host needs byte swapping");

namespace hearth::gguf {

File::File(const std::string& path) : m_path(path)
{
    init(std::make_unique<MappedFile>(path));
}

File::File(std::string name, std::span<const uint8_t> bytes) : m_path(std::move(name)), m_inMemory(true)
{
    init(std::make_unique<MappedFile>(MappedFile::borrow(bytes.data(), bytes.size(), m_path)));
}

File File::fromPrefix(std::string name, std::span<const uint8_t> prefix, uint64_t fileSize)
{
    File f;
    f.m_path = std::move(name);
    f.m_inMemory = true;
    f.init(std::make_unique<MappedFile>(MappedFile::borrow(prefix.data(), prefix.size(), f.m_path)),
           std::max<uint64_t>(fileSize, prefix.size()));
    return f;
}

File File::fromPrefixes(const std::vector<PartPrefix>& parts)
{
    if (parts.empty())
        throw Error("no parts of a split model were given");
    File f = fromPrefix(parts.front().name, parts.front().prefix, parts.front().fileSize);
    if (parts.size() == 1)
        return f;
    const int64_t count = f.findInt("split.count").value_or(1);
    if (count != static_cast<int64_t>(parts.size()))
        f.fail("split.count",
               "is " + std::to_string(count) + " but " + std::to_string(parts.size()) + " parts were given");
    const int64_t no = f.findInt("split.no").value_or(0);
    if (no != 0)
        f.fail("split.no", "is " + std::to_string(no) + " (expected 0 in the first part)");
    uint64_t total = f.m_declaredSize;
    for (size_t i = 1; i < parts.size(); ++i) {
        const PartPrefix& p = parts[i];
        const uint64_t size = std::max<uint64_t>(p.fileSize, p.prefix.size());
        f.m_maps.push_back(std::make_unique<MappedFile>(MappedFile::borrow(p.prefix.data(), p.prefix.size(), p.name)));
        ParsedFile part = parseFile(*f.m_maps.back(), p.name, size);
        f.addSplitPart(part, p.name, i);
        total += size;
    }
    f.m_declaredSize = total;
    f.checkSplitTensorCount(parts.size());
    return f;
}

void File::init(std::unique_ptr<MappedFile> map, uint64_t declaredSize)
{
    m_maps.push_back(std::move(map));
    m_declaredSize = declaredSize;
    ParsedFile first = parseFile(*m_maps.front(), m_path, declaredSize);
    m_version = first.version;
    m_alignment = first.alignment;
    m_dataOffset = first.dataOffset;
    m_metadata = std::move(first.metadata);
    m_keyIndex = std::move(first.keyIndex);
    m_tensors = std::move(first.tensors);
    m_tensorIndex = std::move(first.tensorIndex);
    if (m_declaredSize == 0)
        openSplits();
}

void File::openSplits()
{
    const std::optional<int64_t> count = findInt("split.count");
    if (!count || *count <= 1)
        return;
    if (*count > 9999)
        fail("split.count", "is " + std::to_string(*count) + " (expected at most 9999)");
    const int64_t no = findInt("split.no").value_or(0);
    if (no != 0)
        fail("split.no", "is " + std::to_string(no) + ": open the first file of the split (-00001-of-" +
                             std::to_string(*count) + ")");
    if (m_inMemory)
        fail("split.count", "is " + std::to_string(*count) + ": a split model must be opened from its files");
    for (int i = 1; i < *count; ++i) {
        const std::optional<std::string> sibling = splitSiblingPath(m_path, i, static_cast<int>(*count));
        if (!sibling)
            fail("split.count", "is " + std::to_string(*count) +
                                    " but the file is not named NAME-00001-of-NNNNN.gguf, so its other parts "
                                    "cannot be found");
        m_maps.push_back(std::make_unique<MappedFile>(*sibling));
        ParsedFile part = parseFile(*m_maps.back(), *sibling);
        addSplitPart(part, *sibling, static_cast<size_t>(i));
    }
    checkSplitTensorCount(static_cast<size_t>(*count));
}

void File::addSplitPart(ParsedFile& part, const std::string& name, size_t index)
{
    int64_t partNo = -1;
    for (const KeyValue& kv : part.metadata)
        if (kv.key == "split.no")
            partNo = kv.value.toInt().value_or(-1);
    if (partNo != static_cast<int64_t>(index))
        throw Error(name + ": key 'split.no' is " + std::to_string(partNo) + " (expected " + std::to_string(index) +
                    ")");
    for (TensorInfo& t : part.tensors) {
        t.split = static_cast<int>(index);
        if (!m_tensorIndex.emplace(t.name, m_tensors.size()).second)
            throw Error(name + ": tensor " + quoted(t.name) + " is also in an earlier file of the split");
        m_tensors.push_back(t);
    }
}

void File::checkSplitTensorCount(size_t parts) const
{
    if (const std::optional<int64_t> total = findInt("split.tensors.count")) {
        if (*total != static_cast<int64_t>(m_tensors.size()))
            fail("split.tensors.count", "is " + std::to_string(*total) + " but the " + std::to_string(parts) +
                                            " files hold " + std::to_string(m_tensors.size()) + " tensors");
    }
}

uint64_t File::fileSize() const
{
    if (m_declaredSize > 0)
        return m_declaredSize;
    uint64_t total = 0;
    for (const auto& m : m_maps)
        total += m->size();
    return total;
}

void File::fail(std::string_view key, const std::string& what) const
{
    throw Error(m_path + ": key " + quoted(key) + " " + what);
}

const Value* File::find(std::string_view key) const
{
    const auto it = m_keyIndex.find(key);
    return it == m_keyIndex.end() ? nullptr : &m_metadata[it->second].value;
}

std::optional<int64_t> File::findInt(std::string_view key) const
{
    const Value* v = find(key);
    if (!v)
        return std::nullopt;
    if (const auto i = v->toInt(); i && v->type() != ValueType::Bool)
        return i;
    fail(key, "has type " + std::string(valueTypeName(v->type())) + " (expected an integer)");
}

std::optional<double> File::findFloat(std::string_view key) const
{
    const Value* v = find(key);
    if (!v)
        return std::nullopt;
    if (const auto f = v->toFloat())
        return f;
    fail(key, "has type " + std::string(valueTypeName(v->type())) + " (expected a number)");
}

std::optional<bool> File::findBool(std::string_view key) const
{
    const Value* v = find(key);
    if (!v)
        return std::nullopt;
    if (const auto b = v->toBool())
        return b;
    fail(key, "has type " + std::string(valueTypeName(v->type())) + " (expected bool)");
}

std::optional<std::string_view> File::findString(std::string_view key) const
{
    const Value* v = find(key);
    if (!v)
        return std::nullopt;
    if (const auto s = v->toString())
        return s;
    fail(key, "has type " + std::string(valueTypeName(v->type())) + " (expected string)");
}

const Value* File::findArray(std::string_view key) const
{
    const Value* v = find(key);
    if (v && v->type() != ValueType::Array)
        fail(key, "has type " + std::string(valueTypeName(v->type())) + " (expected an array)");
    return v;
}

int64_t File::getInt(std::string_view key) const
{
    if (const auto v = findInt(key))
        return *v;
    fail(key, "is missing");
}

double File::getFloat(std::string_view key) const
{
    if (const auto v = findFloat(key))
        return *v;
    fail(key, "is missing");
}

std::string_view File::getString(std::string_view key) const
{
    if (const auto v = findString(key))
        return *v;
    fail(key, "is missing");
}

std::string_view File::architecture() const
{
    return findString("general.architecture").value_or(std::string_view{});
}

const TensorInfo* File::findTensor(std::string_view name) const
{
    const auto it = m_tensorIndex.find(name);
    return it == m_tensorIndex.end() ? nullptr : &m_tensors[it->second];
}

} // namespace hearth::gguf

#include "convert/tensor_data.h"

#include "quant/legacy.h"
#include "util/error.h"
#include "util/half.h"

#include <cstring>

namespace hearth::convert {

namespace {

constexpr size_t kChunkBytes = size_t{4} << 20;

// Rows are the innermost dimension; a permuted 1-D tensor (a bias) permutes
// its elements, so it is rows of one.
int64_t rowLength(const TensorJob& j)
{
    return j.shape.size() == 1 && j.transform.permuteHeads ? 1 : j.shape.back();
}

int64_t rowCount(const TensorJob& j)
{
    if (j.shape.size() == 1 && j.transform.permuteHeads)
        return j.shape[0];
    int64_t rows = 1;
    for (size_t i = 0; i + 1 < j.shape.size(); ++i)
        rows *= j.shape[i];
    return rows;
}

// The source row that output row `r` comes from.
int64_t sourceRow(const TensorJob& j, int64_t r)
{
    const int64_t heads = j.transform.permuteHeads;
    if (heads == 0)
        return r;
    const int64_t half = j.shape[0] / heads / 2;
    const int64_t h = r / (2 * half), rest = r % (2 * half);
    return h * 2 * half + (rest % 2) * half + rest / 2;
}

// One source row as floats: exact for F32/F16/BF16, F64 rounded.
void loadRow(const StTensor& t, int64_t row, int64_t n, float* out)
{
    const uint8_t* p = t.data + static_cast<size_t>(row * n) * stDtypeSize(t.dtype);
    switch (t.dtype) {
    case StDtype::F32: std::memcpy(out, p, static_cast<size_t>(n) * 4); return;
    case StDtype::F16:
        for (int64_t i = 0; i < n; ++i) {
            uint16_t h;
            std::memcpy(&h, p + 2 * i, 2);
            out[i] = f16ToF32(h);
        }
        return;
    case StDtype::BF16:
        for (int64_t i = 0; i < n; ++i) {
            uint16_t h;
            std::memcpy(&h, p + 2 * i, 2);
            out[i] = bf16ToF32(h);
        }
        return;
    case StDtype::F64:
        for (int64_t i = 0; i < n; ++i) {
            double d;
            std::memcpy(&d, p + 8 * i, 8);
            out[i] = static_cast<float>(d);
        }
        return;
    default: throw Error("unreachable: dtype checked before");
    }
}

// Output bytes of one row from floats.
void storeRow(GgmlType type, const float* x, int64_t n, uint8_t* out)
{
    switch (type) {
    case GgmlType::F32: std::memcpy(out, x, static_cast<size_t>(n) * 4); return;
    case GgmlType::F16:
        for (int64_t i = 0; i < n; ++i) {
            const uint16_t h = f32ToF16(x[i]);
            std::memcpy(out + 2 * i, &h, 2);
        }
        return;
    case GgmlType::BF16:
        for (int64_t i = 0; i < n; ++i) {
            const uint16_t h = f32ToBf16(x[i]);
            std::memcpy(out + 2 * i, &h, 2);
        }
        return;
    case GgmlType::Q8_0: quantizeRowQ8_0(x, reinterpret_cast<BlockQ8_0*>(out), n); return;
    default: throw Error("unreachable: output types are F32, F16, BF16 and Q8_0");
    }
}

bool sameBits(StDtype s, GgmlType t)
{
    return (s == StDtype::F32 && t == GgmlType::F32) || (s == StDtype::F16 && t == GgmlType::F16) ||
           (s == StDtype::BF16 && t == GgmlType::BF16);
}

} // namespace

void checkConvertible(const StTensor& t)
{
    switch (t.dtype) {
    case StDtype::F32:
    case StDtype::F16:
    case StDtype::BF16:
    case StDtype::F64: return;
    default:
        throw Error(t.file + ": tensor '" + t.name + "' is " + std::string(stDtypeName(t.dtype)) +
                    "; hearth convert reads F32, F16, BF16 and F64 weights");
    }
}

void checkTransform(const TensorJob& j)
{
    const int64_t heads = j.transform.permuteHeads;
    if (heads != 0 && (j.shape.empty() || heads < 0 || j.shape[0] % (2 * heads) != 0))
        throw Error(j.source->file + ": tensor '" + j.source->name + "' has " + std::to_string(j.shape[0]) +
                    " rows, which do not split into " + std::to_string(heads) + " heads of two halves");
}

void writeTensorData(const TensorJob& j, gguf::Writer::TensorSink& sink, const std::atomic<bool>* cancel)
{
    if (!j.source) {
        sink.write(j.generated.data(), j.generated.size() * sizeof(float));
        return;
    }
    const StTensor& t = *j.source;
    const int64_t n = rowLength(j), rows = rowCount(j);
    const size_t outRow = rowBytes(j.type, n);
    const bool copyRows = sameBits(t.dtype, j.type) && !j.transform.addOne;
    const size_t srcRow = static_cast<size_t>(n) * stDtypeSize(t.dtype);
    const int64_t chunkRows = std::max<int64_t>(1, static_cast<int64_t>(kChunkBytes / std::max<size_t>(outRow, 1)));
    std::vector<uint8_t> out(static_cast<size_t>(std::min(rows, chunkRows)) * outRow);
    std::vector<float> row(static_cast<size_t>(n));
    for (int64_t r0 = 0; r0 < rows; r0 += chunkRows) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            throw Cancelled();
        const int64_t r1 = std::min(rows, r0 + chunkRows);
        for (int64_t r = r0; r < r1; ++r) {
            uint8_t* dst = out.data() + static_cast<size_t>(r - r0) * outRow;
            const int64_t src = sourceRow(j, r);
            if (copyRows) {
                std::memcpy(dst, t.data + static_cast<size_t>(src) * srcRow, srcRow);
                continue;
            }
            loadRow(t, src, n, row.data());
            if (j.transform.addOne)
                for (float& v : row)
                    v = t.dtype == StDtype::F16 ? f16ToF32(f32ToF16(v + 1.0f)) : v + 1.0f;
            storeRow(j.type, row.data(), n, dst);
        }
        sink.write(out.data(), static_cast<size_t>(r1 - r0) * outRow);
    }
    t.evict();
}

} // namespace hearth::convert

#include "backend/tensor.h"

#include <cassert>

namespace hearth {

bool Tensor::contiguous() const
{
    const size_t row = rowBytes(type, ne[0]);
    return nb[1] == row && nb[2] == row * static_cast<size_t>(ne[1]) &&
           nb[3] == row * static_cast<size_t>(ne[1] * ne[2]);
}

size_t Tensor::denseBytes() const
{
    return rowBytes(type, ne[0]) * static_cast<size_t>(rows());
}

Tensor Tensor::dense(GgmlType type, int64_t ne0, int64_t ne1, int64_t ne2, int64_t ne3)
{
    Tensor t;
    t.type = type;
    t.ne = {ne0, ne1, ne2, ne3};
    const TypeTraits& tr = typeTraits(type);
    t.nb[0] = tr.quantized ? tr.blockBytes : tr.blockBytes / static_cast<size_t>(tr.blockSize);
    t.nb[1] = rowBytes(type, ne0);
    t.nb[2] = t.nb[1] * static_cast<size_t>(ne1);
    t.nb[3] = t.nb[2] * static_cast<size_t>(ne2);
    return t;
}

Tensor Tensor::reshaped(int64_t ne0, int64_t ne1, int64_t ne2, int64_t ne3) const
{
    assert(contiguous() && ne0 * ne1 * ne2 * ne3 == elements());
    Tensor t = dense(type, ne0, ne1, ne2, ne3);
    t.data = data;
    t.slot = slot;
    t.offset = offset;
    return t;
}

Tensor Tensor::columns(int64_t col0, int64_t n) const
{
    assert(col0 >= 0 && col0 + n <= ne[0]);
    Tensor t = *this;
    const size_t skip = rowBytes(type, col0);
    t.ne[0] = n;
    if (t.data)
        t.data += skip;
    t.offset += skip;
    return t;
}

Tensor Tensor::splitRows(int64_t ne0) const
{
    assert(ne[0] % ne0 == 0 && ne[2] == 1 && ne[3] == 1);
    Tensor t = *this;
    t.ne = {ne0, ne[0] / ne0, ne[1], 1};
    t.nb[2] = nb[1];
    t.nb[1] = rowBytes(type, ne0);
    t.nb[3] = nb[1] * static_cast<size_t>(ne[1]);
    return t;
}

Tensor Tensor::rowRange(int64_t row0, int64_t n) const
{
    assert(row0 >= 0 && row0 + n <= ne[1]);
    Tensor t = *this;
    const size_t skip = nb[1] * static_cast<size_t>(row0);
    t.ne[1] = n;
    if (t.data)
        t.data += skip;
    t.offset += skip;
    return t;
}

} // namespace hearth

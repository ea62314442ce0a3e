#include "quant/iq4.h"

#include "quant/quant_common.h"

namespace hearth {

using quant_detail::loadHalf;

void dequantizeRowIQ4_NL(const BlockIQ4_NL* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK4_NL; ++i, y += QK4_NL) {
        const float d = loadHalf(x[i].d);
        for (int j = 0; j < QK4_NL / 2; ++j) {
            y[j] = d * static_cast<float>(kValuesIQ4NL[x[i].qs[j] & 0x0f]);
            y[j + QK4_NL / 2] = d * static_cast<float>(kValuesIQ4NL[x[i].qs[j] >> 4]);
        }
    }
}

void dequantizeRowIQ4_XS(const BlockIQ4_XS* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / 256; ++i) {
        const float d = loadHalf(x[i].d);
        for (int b = 0; b < 8; ++b, y += 32) {
            const int ls = ((x[i].scalesL[b / 2] >> (4 * (b % 2))) & 0x0f) | (((x[i].scalesH >> (2 * b)) & 3) << 4);
            const float dl = d * static_cast<float>(ls - 32);
            const uint8_t* qs = x[i].qs + 16 * b;
            for (int j = 0; j < 16; ++j) {
                y[j] = dl * static_cast<float>(kValuesIQ4NL[qs[j] & 0x0f]);
                y[j + 16] = dl * static_cast<float>(kValuesIQ4NL[qs[j] >> 4]);
            }
        }
    }
}

} // namespace hearth

// gguf_rewrite: a development tool for scripts/refs/check_writer_with_llama_cpp.py,
// which checks that llama.cpp loads what gguf::Writer writes.
//
//   gguf_rewrite IN.gguf OUT.gguf    read IN with gguf::File, write it again
//   gguf_rewrite --synthetic OUT.gguf  a small file with every value type,
//                                      alignment 64 and tensors of mixed types

#include "gguf/gguf.h"
#include "gguf/gguf_writer.h"
#include "util/error.h"

#include <array>
#include <cstdio>
#include <string>
#include <vector>

using namespace hearth;

static void writeSynthetic(const std::string& out)
{
    gguf::Writer w;
    w.addString("general.architecture", "hearth-test");
    w.setAlignment(64);
    w.addUInt8("t.u8", 200);
    w.addInt8("t.i8", -100);
    w.addUInt16("t.u16", 60000);
    w.addInt16("t.i16", -30000);
    w.addUInt32("t.u32", 4000000000u);
    w.addInt32("t.i32", -2000000000);
    w.addUInt64("t.u64", 18000000000000000000ull);
    w.addInt64("t.i64", -9000000000000000000ll);
    w.addFloat32("t.f32", 0.25f);
    w.addFloat64("t.f64", -1e300);
    w.addBool("t.bool", true);
    w.addString("t.str", "hello");
    w.addArray<int32_t>("t.arr.i32", std::vector<int32_t>{1, -2, 3});
    w.addStringArray("t.arr.str", std::vector<std::string>{"a", "", "ccc"});
    const std::array<GgmlType, 6> types{GgmlType::F32,  GgmlType::F16,  GgmlType::Q4_0,
                                        GgmlType::Q8_0, GgmlType::Q4_K, GgmlType::Q6_K};
    for (size_t i = 0; i < types.size(); ++i) {
        const std::array<int64_t, 2> ne{256, static_cast<int64_t>(i + 1)};
        std::vector<uint8_t> data(rowBytes(types[i], 256) * (i + 1));
        for (size_t j = 0; j < data.size(); ++j)
            data[j] = static_cast<uint8_t>(j * 13 + i);
        if (types[i] == GgmlType::F32 || types[i] == GgmlType::F16)
            std::fill(data.begin(), data.end(), uint8_t{0});
        w.addTensor("tensor." + std::to_string(i), types[i], ne, data);
    }
    w.write(out);
}

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: gguf_rewrite IN.gguf OUT.gguf | gguf_rewrite --synthetic OUT.gguf\n");
        return 2;
    }
    try {
        if (std::string(argv[1]) == "--synthetic") {
            writeSynthetic(argv[2]);
        } else {
            const gguf::File in(argv[1]);
            gguf::copyOf(in).write(argv[2]);
        }
    } catch (const Error& e) {
        std::fprintf(stderr, "gguf_rewrite: %s\n", e.what());
        return 1;
    }
    return 0;
}

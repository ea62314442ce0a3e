// Writes Hugging Face style model folders for the converter tests:
// safetensors files (tensors of random values in F32, F16 or BF16), JSON
// files and plain text, plus the byte-level edits the corruption tests make.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace hftest {

struct Tensor {
    std::string name;
    std::string dtype; // "F32", "F16", "BF16"
    std::vector<int64_t> shape;
    std::vector<uint8_t> data;
    std::vector<float> values; // the values the data holds (rounded to dtype)
};

// A tensor of normally distributed values * scale (+ offset), fixed seed.
Tensor randomTensor(const std::string& name, const std::string& dtype, std::vector<int64_t> shape, uint64_t seed,
                    float scale = 0.05f, float offset = 0.0f);

// The bytes of a safetensors file holding `tensors` in order.
std::vector<uint8_t> safetensorsBytes(const std::vector<Tensor>& tensors);
void writeBytes(const std::filesystem::path& path, const std::vector<uint8_t>& bytes);
void writeSafetensors(const std::filesystem::path& path, const std::vector<Tensor>& tensors);
void writeJson(const std::filesystem::path& path, const nlohmann::json& value);
void writeText(const std::filesystem::path& path, const std::string& text);
std::vector<uint8_t> readBytes(const std::filesystem::path& path);

} // namespace hftest

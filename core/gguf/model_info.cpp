#include "gguf/model_info.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace hearth::gguf {

std::string fileTypeName(int64_t fileType)
{
    // llama.cpp's llama_ftype values.
    static const std::map<int64_t, const char*> names{
        {0, "F32"},     {1, "F16"},     {2, "Q4_0"},       {3, "Q4_1"},    {7, "Q8_0"},     {8, "Q5_0"},
        {9, "Q5_1"},    {10, "Q2_K"},   {11, "Q3_K_S"},    {12, "Q3_K_M"}, {13, "Q3_K_L"},  {14, "Q4_K_S"},
        {15, "Q4_K_M"}, {16, "Q5_K_S"}, {17, "Q5_K_M"},    {18, "Q6_K"},   {19, "IQ2_XXS"}, {20, "IQ2_XS"},
        {21, "Q2_K_S"}, {22, "IQ3_XS"}, {23, "IQ3_XXS"},   {24, "IQ1_S"},  {25, "IQ4_NL"},  {26, "IQ3_S"},
        {27, "IQ3_M"},  {28, "IQ2_S"},  {29, "IQ2_M"},     {30, "IQ4_XS"}, {31, "IQ1_M"},   {32, "BF16"},
        {36, "TQ1_0"},  {37, "TQ2_0"},  {38, "MXFP4_MOE"},
    };
    // Files converted with a "guessed" type have bit 10 set.
    const auto it = names.find(fileType & ~int64_t{1024});
    return it == names.end() ? std::string() : std::string(it->second);
}

static int64_t intOrMaxOfArray(const File& f, const std::string& key)
{
    const Value* v = f.find(key);
    if (!v)
        return 0;
    if (v->type() == ValueType::Array) {
        int64_t best = 0;
        if (isIntegerType(v->elementType()))
            for (uint64_t i = 0; i < v->size(); ++i)
                best = std::max(best, v->intAt(i));
        return best;
    }
    return v->toInt().value_or(0);
}

ModelInfo summarize(const File& f)
{
    ModelInfo info;
    info.path = f.path();
    info.version = f.version();
    info.fileSize = f.fileSize();
    info.splitCount = f.splitCount();
    info.architecture = std::string(f.architecture());
    if (const Value* v = f.find("general.name"); v && v->toString())
        info.name = std::string(*v->toString());
    if (const Value* v = f.find("general.basename"); v && v->toString())
        info.baseName = std::string(*v->toString());
    if (const Value* v = f.find("general.size_label"); v && v->toString())
        info.sizeLabel = std::string(*v->toString());
    if (const Value* v = f.find("general.finetune"); v && v->toString())
        info.finetune = std::string(*v->toString());
    if (const Value* v = f.find("general.file_type"); v && v->toInt())
        info.fileType = fileTypeName(*v->toInt());

    std::map<GgmlType, TypeUsage> mix;
    for (const TensorInfo& t : f.tensors()) {
        info.parameters += t.elements();
        info.tensorBytes += t.bytes;
        TypeUsage& u = mix[t.type];
        u.type = t.type;
        ++u.tensors;
        u.bytes += t.bytes;
    }
    for (const auto& [type, usage] : mix)
        info.typeMix.push_back(usage);
    std::sort(info.typeMix.begin(), info.typeMix.end(), [](const TypeUsage& a, const TypeUsage& b) {
        return a.bytes != b.bytes ? a.bytes > b.bytes : a.type < b.type;
    });
    info.tensorCount = static_cast<int64_t>(f.tensors().size());

    const std::string arch = info.architecture;
    info.contextLength = intOrMaxOfArray(f, arch + ".context_length");
    info.embeddingLength = intOrMaxOfArray(f, arch + ".embedding_length");
    info.blockCount = intOrMaxOfArray(f, arch + ".block_count");
    info.headCount = intOrMaxOfArray(f, arch + ".attention.head_count");
    info.headCountKv = intOrMaxOfArray(f, arch + ".attention.head_count_kv");
    if (info.headCountKv == 0)
        info.headCountKv = info.headCount;
    info.feedForwardLength = intOrMaxOfArray(f, arch + ".feed_forward_length");
    if (const Value* v = f.find("tokenizer.ggml.tokens"); v && v->type() == ValueType::Array)
        info.vocabSize = static_cast<int64_t>(v->size());
    else
        info.vocabSize = intOrMaxOfArray(f, arch + ".vocab_size");
    if (const Value* v = f.find("tokenizer.ggml.model"); v && v->toString())
        info.tokenizerModel = std::string(*v->toString());
    if (const Value* v = f.find("tokenizer.ggml.pre"); v && v->toString())
        info.tokenizerPre = std::string(*v->toString());
    info.hasChatTemplate = f.find("tokenizer.chat_template") != nullptr;
    return info;
}

std::string ModelInfo::quantLabel() const
{
    if (!fileType.empty())
        return fileType;
    if (typeMix.empty())
        return {};
    std::string s(typeTraits(typeMix.front().type).name);
    for (char& c : s)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

} // namespace hearth::gguf

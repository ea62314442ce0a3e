// The sampling chain: turns a row of logits into the next token. The order
// is llama.cpp's default chain: logit bias, repetition / presence /
// frequency penalties over the last tokens, then either top-k → typical →
// top-p → min-p → temperature → seeded draw, or (mirostat 2) temperature →
// mirostat v2. Temperature <= 0 is greedy (the first largest logit after
// bias and penalties).
//
// Determinism: the draw uses std::mt19937 (whose sequence the C++ standard
// fixes) and its own integer-to-float mapping, so the same seed and
// settings give the same tokens on every platform.
//
// Thread-safety: none (one sampler per generation). Cost: O(V) per token
// plus O(k log k) for the kept candidates.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <utility>
#include <vector>

namespace hearth {

struct SamplerParams {
    float temperature = 0.8f; // <= 0: greedy
    int32_t topK = 40;        // <= 0: off
    float topP = 0.95f;       // >= 1: off
    float minP = 0.05f;       // <= 0: off
    float typicalP = 1.0f;    // >= 1: off
    float repeatPenalty = 1.0f;
    float presencePenalty = 0.0f;
    float frequencyPenalty = 0.0f;
    int32_t penaltyLastN = 64; // tokens the penalties look back over (0: none, -1: all)
    int mirostat = 0;          // 0: off, 2: mirostat v2
    float mirostatTau = 5.0f;
    float mirostatEta = 0.1f;
    uint32_t seed = 0xFFFFFFFFu;                      // 0xFFFFFFFF: a random seed
    std::vector<std::pair<int32_t, float>> logitBias; // added to the logit; -inf bans
};

class Sampler {
public:
    Sampler(SamplerParams params, int32_t vocabSize);

    // Picks the next token from `logits` [vocabSize]. Does not record it;
    // call accept() with the token actually used.
    int32_t sample(std::span<const float> logits);
    // Records a token for the penalties (prompt tokens too, if wanted).
    void accept(int32_t token);
    // Forgets the history and restarts mirostat and the random sequence.
    void reset();

    const SamplerParams& params() const { return m_params; }
    uint32_t seed() const { return m_seed; }

private:
    struct Candidate {
        int32_t id;
        float logit;
        float p;
    };
    void applyPenalties();
    void softmax();
    void topK(int32_t k);
    void typical(float p);
    void topP(float p);
    void minP(float p);
    int32_t draw();
    int32_t mirostatV2();
    float uniform();

    SamplerParams m_params;
    int32_t m_vocab;
    uint32_t m_seed;
    std::mt19937 m_rng;
    float m_mu = 0.0f;
    std::vector<int32_t> m_history;
    std::vector<Candidate> m_cand;
    bool m_sorted = false;
};

} // namespace hearth

#include "sampling/sampler.h"

#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace hearth {

Sampler::Sampler(SamplerParams params, int32_t vocabSize) : m_params(std::move(params)), m_vocab(vocabSize)
{
    if (vocabSize <= 0)
        throw Error("sampler: empty vocabulary");
    m_seed = m_params.seed == 0xFFFFFFFFu ? std::random_device{}() : m_params.seed;
    reset();
}

void Sampler::reset()
{
    m_rng.seed(m_seed);
    m_mu = 2.0f * m_params.mirostatTau;
    m_history.clear();
}

void Sampler::accept(int32_t token)
{
    m_history.push_back(token);
}

float Sampler::uniform()
{
    // 24 random bits → [0, 1), the same on every platform.
    return static_cast<float>(m_rng() >> 8) * (1.0f / 16777216.0f);
}

void Sampler::applyPenalties()
{
    const SamplerParams& p = m_params;
    if (p.penaltyLastN == 0 || m_history.empty() ||
        (p.repeatPenalty == 1.0f && p.presencePenalty == 0.0f && p.frequencyPenalty == 0.0f))
        return;
    const size_t n =
        p.penaltyLastN < 0 ? m_history.size() : std::min(m_history.size(), static_cast<size_t>(p.penaltyLastN));
    std::unordered_map<int32_t, int> counts;
    for (size_t i = m_history.size() - n; i < m_history.size(); ++i)
        ++counts[m_history[i]];
    for (const auto& [id, count] : counts) {
        if (id < 0 || id >= m_vocab)
            continue;
        float& l = m_cand[static_cast<size_t>(id)].logit;
        l = l <= 0.0f ? l * p.repeatPenalty : l / p.repeatPenalty;
        l -= static_cast<float>(count) * p.frequencyPenalty + p.presencePenalty;
    }
}

void Sampler::softmax()
{
    if (!m_sorted) {
        std::sort(m_cand.begin(), m_cand.end(), [](const Candidate& a, const Candidate& b) {
            return a.logit > b.logit || (a.logit == b.logit && a.id < b.id);
        });
        m_sorted = true;
    }
    const float max = m_cand.front().logit;
    double sum = 0.0;
    for (Candidate& c : m_cand) {
        c.p = std::exp(c.logit - max);
        sum += c.p;
    }
    for (Candidate& c : m_cand)
        c.p = static_cast<float>(c.p / sum);
}

void Sampler::topK(int32_t k)
{
    if (k <= 0 || static_cast<size_t>(k) >= m_cand.size())
        return;
    std::partial_sort(m_cand.begin(), m_cand.begin() + k, m_cand.end(), [](const Candidate& a, const Candidate& b) {
        return a.logit > b.logit || (a.logit == b.logit && a.id < b.id);
    });
    m_cand.resize(static_cast<size_t>(k));
    m_sorted = true;
}

void Sampler::typical(float p)
{
    if (p >= 1.0f)
        return;
    softmax();
    double entropy = 0.0;
    for (const Candidate& c : m_cand)
        if (c.p > 0.0f)
            entropy -= c.p * std::log(c.p);
    std::vector<std::pair<float, size_t>> shifted;
    shifted.reserve(m_cand.size());
    for (size_t i = 0; i < m_cand.size(); ++i)
        shifted.emplace_back(static_cast<float>(std::abs(-std::log(m_cand[i].p) - entropy)), i);
    std::stable_sort(shifted.begin(), shifted.end());
    double cum = 0.0;
    size_t keep = shifted.size();
    for (size_t i = 0; i < shifted.size(); ++i) {
        cum += m_cand[shifted[i].second].p;
        if (cum > p) {
            keep = i + 1;
            break;
        }
    }
    std::vector<Candidate> kept;
    for (size_t i = 0; i < keep; ++i)
        kept.push_back(m_cand[shifted[i].second]);
    m_cand = std::move(kept);
    m_sorted = false;
}

void Sampler::topP(float p)
{
    if (p >= 1.0f)
        return;
    softmax();
    double cum = 0.0;
    for (size_t i = 0; i < m_cand.size(); ++i) {
        cum += m_cand[i].p;
        if (cum >= p) {
            m_cand.resize(i + 1);
            return;
        }
    }
}

void Sampler::minP(float p)
{
    if (p <= 0.0f)
        return;
    softmax();
    const float threshold = m_cand.front().p * p;
    size_t keep = 1;
    while (keep < m_cand.size() && m_cand[keep].p >= threshold)
        ++keep;
    m_cand.resize(keep);
}

int32_t Sampler::draw()
{
    softmax();
    const float r = uniform();
    double cum = 0.0;
    for (const Candidate& c : m_cand) {
        cum += c.p;
        if (r < cum)
            return c.id;
    }
    return m_cand.back().id;
}

int32_t Sampler::mirostatV2()
{
    softmax();
    // Drop tokens more surprising than mu (keep at least one).
    size_t keep = 0;
    while (keep < m_cand.size() && -std::log2(m_cand[keep].p) <= m_mu)
        ++keep;
    m_cand.resize(std::max<size_t>(keep, 1));
    softmax();
    const int32_t id = draw();
    float p = 0.0f;
    for (const Candidate& c : m_cand)
        if (c.id == id)
            p = c.p;
    const float surprise = -std::log2(p);
    m_mu -= m_params.mirostatEta * (surprise - m_params.mirostatTau);
    return id;
}

int32_t Sampler::sample(std::span<const float> logits)
{
    if (logits.size() != static_cast<size_t>(m_vocab))
        throw Error("sampler: logits row has the wrong size");
    m_cand.resize(logits.size());
    for (size_t i = 0; i < logits.size(); ++i)
        m_cand[i] = Candidate{static_cast<int32_t>(i), logits[i], 0.0f};
    m_sorted = false;
    for (const auto& [id, bias] : m_params.logitBias) {
        if (id >= 0 && id < m_vocab)
            m_cand[static_cast<size_t>(id)].logit += bias;
    }
    applyPenalties();

    const SamplerParams& p = m_params;
    if (p.temperature <= 0.0f) {
        const auto best = std::max_element(m_cand.begin(), m_cand.end(),
                                           [](const Candidate& a, const Candidate& b) { return a.logit < b.logit; });
        return best->id;
    }
    if (p.mirostat == 2) {
        for (Candidate& c : m_cand)
            c.logit /= p.temperature;
        return mirostatV2();
    }
    topK(p.topK);
    typical(p.typicalP);
    topP(p.topP);
    minP(p.minP);
    for (Candidate& c : m_cand)
        c.logit /= p.temperature;
    m_sorted = false;
    return draw();
}

} // namespace hearth

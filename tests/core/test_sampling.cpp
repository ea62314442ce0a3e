// The sampling chain: greedy, truncations, penalties, bias, seeded draws,
// mirostat v2.

#include "sampling/sampler.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <map>
#include <vector>

using namespace hearth;

namespace {

std::vector<float> ramp(int n)
{
    std::vector<float> l(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
        l[static_cast<size_t>(i)] = 0.1f * static_cast<float>(i % 17) - 0.05f * static_cast<float>(i % 5);
    return l;
}

SamplerParams plain(float temp)
{
    SamplerParams p;
    p.temperature = temp;
    p.topK = 0;
    p.topP = 1.0f;
    p.minP = 0.0f;
    p.seed = 42;
    return p;
}

} // namespace

class TestSampling : public QObject {
    Q_OBJECT

private slots:
    void greedyPicksFirstLargest()
    {
        std::vector<float> l = {0.5f, 2.0f, -1.0f, 2.0f};
        Sampler s(plain(0.0f), 4);
        QCOMPARE(s.sample(l), 1);
    }

    void sameSeedSameTokens()
    {
        const auto l = ramp(100);
        SamplerParams p = plain(1.0f);
        Sampler a(p, 100), b(p, 100);
        std::vector<int32_t> ta, tb;
        for (int i = 0; i < 50; ++i) {
            ta.push_back(a.sample(l));
            tb.push_back(b.sample(l));
        }
        QCOMPARE(ta, tb);
        p.seed = 43;
        Sampler c(p, 100);
        std::vector<int32_t> tc;
        for (int i = 0; i < 50; ++i)
            tc.push_back(c.sample(l));
        QVERIFY(tc != ta);
        a.reset();
        QCOMPARE(a.sample(l), ta[0]);
    }

    void drawFollowsSoftmax()
    {
        std::vector<float> l = {std::log(0.5f), std::log(0.3f), std::log(0.2f)};
        Sampler s(plain(1.0f), 3);
        std::map<int32_t, int> hits;
        const int n = 20000;
        for (int i = 0; i < n; ++i)
            ++hits[s.sample(l)];
        QVERIFY(std::abs(hits[0] / double(n) - 0.5) < 0.02);
        QVERIFY(std::abs(hits[1] / double(n) - 0.3) < 0.02);
        QVERIFY(std::abs(hits[2] / double(n) - 0.2) < 0.02);
    }

    void truncations()
    {
        std::vector<float> l = {std::log(0.5f), std::log(0.3f), std::log(0.15f), std::log(0.05f)};
        SamplerParams p = plain(1.0f);
        p.topK = 2;
        Sampler k(p, 4);
        for (int i = 0; i < 200; ++i)
            QVERIFY(k.sample(l) < 2);
        p = plain(1.0f);
        p.topP = 0.75f; // 0.5 + 0.3 reaches it
        Sampler tp(p, 4);
        for (int i = 0; i < 200; ++i)
            QVERIFY(tp.sample(l) < 2);
        p = plain(1.0f);
        p.minP = 0.5f; // keeps p >= 0.25
        Sampler mp(p, 4);
        for (int i = 0; i < 200; ++i)
            QVERIFY(mp.sample(l) < 2);
        p = plain(1.0f);
        p.typicalP = 0.3f;
        Sampler ty(p, 4);
        for (int i = 0; i < 50; ++i)
            QVERIFY(ty.sample(l) >= 0);
    }

    void penaltiesAndBias()
    {
        std::vector<float> l = {1.0f, 0.9f, 0.0f};
        SamplerParams p = plain(0.0f);
        p.repeatPenalty = 2.0f;
        Sampler s(p, 3);
        s.accept(0);
        QCOMPARE(s.sample(l), 1); // 1.0 / 2 < 0.9
        p = plain(0.0f);
        p.presencePenalty = 0.5f;
        Sampler pr(p, 3);
        pr.accept(0);
        QCOMPARE(pr.sample(l), 1);
        p = plain(0.0f);
        p.frequencyPenalty = 0.06f;
        Sampler fr(p, 3);
        fr.accept(0);
        QCOMPARE(fr.sample(l), 0); // 1.0 - 0.06 > 0.9
        fr.accept(0);
        QCOMPARE(fr.sample(l), 1); // 1.0 - 0.12 < 0.9
        p = plain(1.0f);
        p.logitBias = {{0, -std::numeric_limits<float>::infinity()}, {2, 5.0f}};
        Sampler b(p, 3);
        for (int i = 0; i < 100; ++i)
            QVERIFY(b.sample(l) != 0);
    }

    void mirostatV2()
    {
        const auto l = ramp(200);
        SamplerParams p = plain(1.0f);
        p.mirostat = 2;
        p.mirostatTau = 3.0f;
        Sampler a(p, 200), b(p, 200);
        for (int i = 0; i < 100; ++i) {
            const int32_t t = a.sample(l);
            QVERIFY(t >= 0 && t < 200);
            QCOMPARE(b.sample(l), t);
        }
    }
};

QTEST_GUILESS_MAIN(TestSampling)
#include "test_sampling.moc"

// Match statistics: Elo from scores, the 95% interval (trinomial and pentanomial variance),
// likelihood of superiority and the GSPRT log-likelihood ratio. Expected values are worked out
// by hand in the comments; the GSPRT is checked against an independent brute-force maximum of
// the constrained likelihood.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "match/stats.hpp"

namespace kibitz::match {
namespace {

Tally wdl(std::int64_t w, std::int64_t d, std::int64_t l) {
  Tally t;
  t.wins = w;
  t.draws = d;
  t.losses = l;
  return t;
}

// Golden-section search for the maximum of a concave f on (a, b); never evaluates the ends.
double golden_max(const std::function<double(double)>& f, double a, double b) {
  const double r = (std::sqrt(5.0) - 1) / 2;
  double x1 = b - r * (b - a), x2 = a + r * (b - a);
  double f1 = f(x1), f2 = f(x2);
  for (int i = 0; i < 300 && b - a > 1e-15; ++i) {
    if (f1 < f2) {
      a = x1, x1 = x2, f1 = f2, x2 = a + r * (b - a), f2 = f(x2);
    } else {
      b = x2, x2 = x1, f2 = f1, x1 = b - r * (b - a), f1 = f(x1);
    }
  }
  return std::max(f1, f2);
}

TEST(StatsElo, ScoreEloConversions) {
  // -400*log10(1/0.75 - 1) = -400*log10(1/3) = 400*0.4771212547 = 190.8485019.
  EXPECT_NEAR(elo_from_score(0.75), 190.8485019, 1e-6);
  EXPECT_NEAR(elo_from_score(0.25), -190.8485019, 1e-6);
  EXPECT_DOUBLE_EQ(score_from_elo(0), 0.5);
  // 1/(1+10^(-400/400)) = 1/1.1 = 0.909090...
  EXPECT_NEAR(score_from_elo(400), 1 / 1.1, 1e-12);
  for (double e : {-600.0, -35.5, 0.0, 5.0, 190.0, 800.0}) {
    EXPECT_NEAR(elo_from_score(score_from_elo(e)), e, 1e-9) << e;
  }
  EXPECT_EQ(elo_from_score(0), -INFINITY);
  EXPECT_EQ(elo_from_score(1), INFINITY);
}

TEST(StatsElo, TrinomialSymmetricTally) {
  // W=30 D=40 L=30: mean 0.5, var = (30*0.25 + 40*0 + 30*0.25)/100 = 0.15,
  // se = sqrt(0.15/100) = 0.0387298, 1.96*se = 0.0759105,
  // hi = -400*log10(1/0.5759105 - 1) = -400*log10(0.7363811) = 53.15897, lo = -hi.
  const EloEstimate e = estimate_elo(wdl(30, 40, 30));
  EXPECT_FALSE(e.pentanomial);
  EXPECT_NEAR(e.elo, 0, 1e-9);
  EXPECT_NEAR(e.hi, 53.15897, 1e-4);
  EXPECT_NEAR(e.lo, -53.15897, 1e-4);
  EXPECT_NEAR(e.error95, 53.15897, 1e-4);
  EXPECT_DOUBLE_EQ(e.score, 0.5);
  EXPECT_DOUBLE_EQ(e.draw_ratio, 0.4);
  EXPECT_DOUBLE_EQ(e.los, 0.5);
}

TEST(StatsElo, TrinomialWinningTally) {
  // W=60 D=20 L=20: mean (60+10)/100 = 0.7, elo = -400*log10(0.3/0.7) = 147.19071.
  // var = (60*0.3^2 + 20*0.2^2 + 20*0.7^2)/100 = (5.4+0.8+9.8)/100 = 0.16, se = sqrt(0.0016) =
  // 0.04, 1.96*se = 0.0784: lo = elo(0.6216) = -400*log10(0.3784/0.6216) = 86.22395,
  //                   hi = elo(0.7784) = -400*log10(0.2216/0.7784) = 218.25323.
  const EloEstimate e = estimate_elo(wdl(60, 20, 20));
  EXPECT_NEAR(e.elo, 147.19071, 1e-4);
  EXPECT_NEAR(e.lo, 86.22395, 1e-4);
  EXPECT_NEAR(e.hi, 218.25323, 1e-4);
  EXPECT_NEAR(e.error95, (218.25323 - 86.22395) / 2, 1e-4);
  EXPECT_DOUBLE_EQ(e.score, 0.7);
  EXPECT_DOUBLE_EQ(e.draw_ratio, 0.2);
}

TEST(StatsElo, PentanomialUsesPairVariance) {
  // Ten pairs: 1x (0,0), 2x (0.5,0), 3x (1,0), 3x (1,0.5), 1x (1,1) -> penta {1,2,3,3,1};
  // games W=8 D=5 L=7 (20 = 2*10, so the pentanomial model applies).
  Tally t;
  const auto pair = [&t](double a, double b, int n) {
    for (int i = 0; i < n; ++i) t.add_game(a), t.add_game(b), t.add_pair(a, b);
  };
  pair(0, 0, 1), pair(0.5, 0, 2), pair(1, 0, 3), pair(1, 0.5, 3), pair(1, 1, 1);
  ASSERT_EQ(t.penta, (std::array<std::int64_t, 5>{1, 2, 3, 3, 1}));
  ASSERT_EQ(t.wins, 8);
  ASSERT_EQ(t.draws, 5);
  ASSERT_EQ(t.losses, 7);
  // Pair means 0, .25, .5, .75, 1: mean = (0 + 0.5 + 1.5 + 2.25 + 1)/10 = 0.525,
  // var = (0.525^2 + 2*0.275^2 + 3*0.025^2 + 3*0.225^2 + 0.475^2)/10 = 0.80625/10 = 0.080625,
  // se = sqrt(0.080625/10) = 0.0897914, 1.96*se = 0.1759912:
  // elo(0.525) = 17.38628, lo = elo(0.3490088) = -108.29549, hi = elo(0.7009912) = 148.01143.
  // (The per-game variance would give se = sqrt(0.186875/20) = 0.0966631 instead.)
  const EloEstimate e = estimate_elo(t);
  EXPECT_TRUE(e.pentanomial);
  EXPECT_NEAR(e.elo, 17.38628, 1e-4);
  EXPECT_NEAR(e.lo, -108.29549, 1e-4);
  EXPECT_NEAR(e.hi, 148.01143, 1e-4);
  EXPECT_DOUBLE_EQ(e.draw_ratio, 0.25);
}

TEST(StatsElo, IncompletePairsFallBackToTrinomial) {
  Tally t = wdl(60, 20, 20);
  t.penta = {0, 0, 10, 20, 10};  // 40 pairs = 80 games, but 100 games played
  EXPECT_FALSE(uses_pentanomial(t));
  EXPECT_NEAR(estimate_elo(t).lo, 86.22395, 1e-4);  // as in TrinomialWinningTally
  Tally one;
  one.add_game(1), one.add_game(0.5), one.add_pair(1, 0.5);
  EXPECT_FALSE(uses_pentanomial(one));  // a single pair has no variance estimate
}

TEST(StatsElo, LikelihoodOfSuperiority) {
  EXPECT_DOUBLE_EQ(likelihood_of_superiority(wdl(17, 5, 17)), 0.5);
  EXPECT_DOUBLE_EQ(likelihood_of_superiority(wdl(0, 9, 0)), 0.5);
  // W=20 L=10: 0.5*(1 + erf(10/sqrt(60))) = 0.5*(1 + erf(1.2909944)) = 0.5*(1 + 0.9321108).
  EXPECT_NEAR(likelihood_of_superiority(wdl(20, 3, 10)), 0.9660554, 1e-6);
  EXPECT_NEAR(likelihood_of_superiority(wdl(10, 3, 20)), 1 - 0.9660554, 1e-6);
}

TEST(StatsElo, EmptyAndOneSidedTallies) {
  const EloEstimate empty = estimate_elo(Tally{});
  EXPECT_EQ(empty.elo, 0);
  EXPECT_EQ(empty.score, 0.5);
  EXPECT_EQ(Tally{}.score(), 0.5);
  EXPECT_TRUE(std::isinf(empty.error95));
  const EloEstimate wins = estimate_elo(wdl(10, 0, 0));
  EXPECT_EQ(wins.elo, INFINITY);
  EXPECT_EQ(wins.error95, INFINITY);
  EXPECT_EQ(estimate_elo(wdl(0, 0, 10)).elo, -INFINITY);
}

TEST(StatsTally, AddGameAndPair) {
  Tally t;
  t.add_game(1), t.add_game(0.5), t.add_game(0.5), t.add_game(0);
  t.add_pair(1, 0.5), t.add_pair(0.5, 0), t.add_pair(1, 1);
  EXPECT_EQ(t.wins, 1);
  EXPECT_EQ(t.draws, 2);
  EXPECT_EQ(t.losses, 1);
  EXPECT_EQ(t.games(), 4);
  EXPECT_EQ(t.pairs(), 3);
  EXPECT_EQ(t.penta, (std::array<std::int64_t, 5>{0, 1, 0, 1, 1}));
  EXPECT_DOUBLE_EQ(t.score(), 0.5);
}

TEST(StatsSprt, Bounds) {
  // log(0.05/0.95) = -2.944439, log(0.95/0.05) = +2.944439.
  const SprtStatus s = sprt(SprtParams{}, Tally{});
  EXPECT_NEAR(s.lower, -2.944439, 1e-6);
  EXPECT_NEAR(s.upper, 2.944439, 1e-6);
  EXPECT_EQ(s.llr, 0);
  EXPECT_EQ(s.decision, SprtDecision::kContinue);
  EXPECT_EQ(sprt_llr_normal(SprtParams{}, Tally{}), 0);
}

TEST(StatsSprt, LlrCloseToNormalApproximation) {
  const SprtParams p;  // [0, 5]
  for (const Tally& t : {wdl(2600, 5000, 2400), wdl(2450, 5000, 2550), wdl(4100, 3000, 3900)}) {
    const double exact = sprt_llr(p, t), approx = sprt_llr_normal(p, t);
    EXPECT_NEAR(exact, approx, 0.02 * std::abs(approx)) << t.wins << " " << t.losses;
  }
}

TEST(StatsSprt, LlrSignFollowsScore) {
  const SprtParams p;  // s0 = 0.5, s1 = score_from_elo(5) = 0.5071951
  EXPECT_GT(sprt_llr(p, wdl(330, 340, 330 - 20)), 0);  // mean 0.5101 > s1
  EXPECT_LT(sprt_llr(p, wdl(310, 340, 330)), 0);       // mean 0.4898 < s0
  // Halfway between s0 and s1 the two hypotheses fit about equally well.
  EXPECT_NEAR(sprt_llr(SprtParams{-5, 5, 0.05, 0.05}, wdl(100, 50, 100)), 0, 1e-9);
}

TEST(StatsSprt, Decisions) {
  const SprtParams p;
  EXPECT_EQ(sprt(p, wdl(6000, 8000, 5000)).decision, SprtDecision::kAcceptH1);
  EXPECT_EQ(sprt(p, wdl(5000, 8000, 6000)).decision, SprtDecision::kAcceptH0);
  EXPECT_EQ(sprt(p, wdl(30, 40, 29)).decision, SprtDecision::kContinue);
}

// Trinomial: with values 1, 0.5, 0 and mean s, a distribution is fixed by its draw rate d:
// q = (s - d/2, d, 1 - s - d/2), d in (0, 2*min(s, 1-s)). The log-likelihood per game is
// concave in d; maximise it directly, with no Lagrange multiplier.
TEST(StatsSprt, MatchesBruteForceTrinomial) {
  for (const Tally& t : {wdl(130, 90, 80), wdl(40, 200, 60), wdl(500, 20, 480)}) {
    const double n = static_cast<double>(t.games());
    const double pw = t.wins / n, pd = t.draws / n, pl = t.losses / n;
    const auto best = [&](double s) {
      return golden_max(
          [&](double d) {
            return pw * std::log(s - d / 2) + pd * std::log(d) + pl * std::log(1 - s - d / 2);
          },
          0, 2 * std::min(s, 1 - s));
    };
    for (const SprtParams p : {SprtParams{}, SprtParams{-10, 10, 0.05, 0.05}}) {
      const double expected = n * (best(score_from_elo(p.elo1)) - best(score_from_elo(p.elo0)));
      EXPECT_NEAR(sprt_llr(p, t), expected, 1e-6 * std::abs(expected)) << t.wins;
    }
  }
}

// Pentanomial: the constrained maximum of sum p_i log q_i equals
// sum p_i log p_i - max_lambda phi(lambda), phi(lambda) = sum p_i log(1 + lambda (a_i - s))
// (Lagrange dual); maximise the concave phi by golden section over the lambdas keeping every 1 +
// lambda (a_i - s) positive.
TEST(StatsSprt, MatchesBruteForcePentanomial) {
  Tally t;
  t.penta = {30, 180, 400, 250, 40};
  t.wins = 700, t.draws = 1000, t.losses = 100;  // 1800 games = 2 * 900 pairs
  ASSERT_TRUE(uses_pentanomial(t));
  const double n = 900;
  const auto best = [&](double s) {  // max over lambda of phi(lambda) for mean s
    const auto phi = [&](double lambda) {
      double sum = 0;
      for (int i = 0; i < 5; ++i) sum += t.penta[i] / n * std::log(1 + lambda * (0.25 * i - s));
      return sum;
    };
    return golden_max(phi, -1 / (1 - s), 1 / s);
  };
  const SprtParams p{0, 10, 0.05, 0.05};
  // LLR = N * (log L(q1) - log L(q0)) = N * (max phi at s0 - max phi at s1).
  const double expected = n * (best(score_from_elo(p.elo0)) - best(score_from_elo(p.elo1)));
  EXPECT_NEAR(sprt_llr(p, t), expected, 1e-6 * std::abs(expected));
  EXPECT_NEAR(sprt_llr(p, t), sprt_llr_normal(p, t), 0.05 * std::abs(expected));
}

TEST(StatsSprt, OneSidedTalliesStayFinite) {
  const SprtParams p;
  for (const Tally& t : {wdl(50, 0, 0), wdl(0, 0, 50), wdl(0, 50, 0)}) {
    const SprtStatus s = sprt(p, t);
    EXPECT_TRUE(std::isfinite(s.llr)) << t.wins << t.draws << t.losses;
    EXPECT_TRUE(std::isfinite(sprt_llr_normal(p, t)));
  }
  EXPECT_GT(sprt_llr(p, wdl(50, 0, 0)), 0);
  EXPECT_LT(sprt_llr(p, wdl(0, 0, 50)), 0);
}

}  // namespace
}  // namespace kibitz::match

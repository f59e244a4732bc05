#include "match/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace kibitz::match {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kZ95 = 1.96;         // two-sided 95% quantile of the normal law
constexpr double kRegularise = 1e-3;  // stands in for a zero count in the SPRT

// The outcomes of one model: per-game (L, D, W) or per-pair (pair total / 2) scores, with counts.
struct Outcomes {
  std::array<double, 5> value{};
  std::array<double, 5> count{};
  int size = 0;

  double total() const {
    double n = 0;
    for (int i = 0; i < size; ++i) n += count[i];
    return n;
  }
  double mean() const {
    double sum = 0;
    for (int i = 0; i < size; ++i) sum += count[i] * value[i];
    return sum / total();
  }
  double variance() const {  // population variance (divides by N, as fishtest does)
    const double m = mean();
    double sum = 0;
    for (int i = 0; i < size; ++i) sum += count[i] * (value[i] - m) * (value[i] - m);
    return sum / total();
  }
};

Outcomes outcomes_of(const Tally& t, bool regularise) {
  Outcomes o;
  if (uses_pentanomial(t)) {
    o.size = 5;
    for (int i = 0; i < 5; ++i) {
      o.value[i] = 0.25 * i;
      o.count[i] = static_cast<double>(t.penta[i]);
    }
  } else {
    o.size = 3;
    o.value = {0.0, 0.5, 1.0};
    o.count = {static_cast<double>(t.losses), static_cast<double>(t.draws),
               static_cast<double>(t.wins)};
  }
  if (regularise) {
    for (int i = 0; i < o.size; ++i) o.count[i] = std::max(o.count[i], kRegularise);
  }
  return o;
}

// phi(lambda) = sum_i p_i log(1 + lambda (a_i - s)). The MLE q with mean s is
// q_i = p_i / (1 + lambda* (a_i - s)), lambda* the maximiser of phi, so that
// sum_i p_i log q_i = sum_i p_i log p_i - phi(lambda*).
double phi(const Outcomes& o, double s, double lambda) {
  const double n = o.total();
  double sum = 0;
  for (int i = 0; i < o.size; ++i) sum += o.count[i] / n * std::log1p(lambda * (o.value[i] - s));
  return sum;
}

// max_lambda phi: bisection on phi'(lambda) = sum_i p_i (a_i-s)/(1+lambda(a_i-s)), which falls
// from +inf to -inf over the lambdas keeping every denominator positive. Needs every count > 0.
double max_phi(const Outcomes& o, double s) {
  const double amin = o.value[0], amax = o.value[o.size - 1];
  s = std::clamp(s, amin + 1e-12, amax - 1e-12);  // an Elo bound so large that s rounds to 0/1
  double lo = -1 / (amax - s), hi = 1 / (s - amin);
  const double n = o.total();
  for (int iter = 0; iter < 300; ++iter) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    double slope = 0;
    for (int i = 0; i < o.size; ++i) {
      const double d = o.value[i] - s;
      slope += o.count[i] / n * d / (1 + mid * d);
    }
    if (slope > 0) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return phi(o, s, 0.5 * (lo + hi));
}

}  // namespace

void Tally::add_game(double score) {
  if (score > 0.75) {
    ++wins;
  } else if (score < 0.25) {
    ++losses;
  } else {
    ++draws;
  }
}

void Tally::add_pair(double first, double second) {
  const auto index = std::lround(2 * (first + second));
  ++penta[std::clamp<long>(index, 0, 4)];
}

std::int64_t Tally::pairs() const {
  std::int64_t n = 0;
  for (const auto c : penta) n += c;
  return n;
}

double Tally::score() const {
  const auto n = games();
  return n == 0 ? 0.5 : (static_cast<double>(wins) + 0.5 * static_cast<double>(draws)) / n;
}

bool uses_pentanomial(const Tally& t) { return t.pairs() >= 2 && 2 * t.pairs() == t.games(); }

double elo_from_score(double s) {
  if (s <= 0) return -kInf;
  if (s >= 1) return kInf;
  return -400 * std::log10(1 / s - 1);
}

double score_from_elo(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }

double likelihood_of_superiority(const Tally& t) {
  const auto decisive = t.wins + t.losses;
  if (decisive == 0) return 0.5;
  return 0.5 * (1 + std::erf(static_cast<double>(t.wins - t.losses) /
                             std::sqrt(2.0 * static_cast<double>(decisive))));
}

EloEstimate estimate_elo(const Tally& t) {
  EloEstimate e{0, -kInf, kInf, kInf, 0.5, 0, 0.5, uses_pentanomial(t)};
  if (t.games() == 0) return e;
  const Outcomes o = outcomes_of(t, false);
  const double mean = o.mean();
  const double half = kZ95 * std::sqrt(o.variance() / o.total());
  e.score = mean;
  e.elo = elo_from_score(mean);
  e.lo = elo_from_score(mean - half);
  e.hi = elo_from_score(mean + half);
  e.error95 = std::isinf(e.lo) || std::isinf(e.hi) ? kInf : (e.hi - e.lo) / 2;
  e.draw_ratio = static_cast<double>(t.draws) / static_cast<double>(t.games());
  e.los = likelihood_of_superiority(t);
  return e;
}

double sprt_llr(const SprtParams& p, const Tally& t) {
  if (t.games() == 0) return 0;
  const Outcomes o = outcomes_of(t, true);
  // log q1_i - log q0_i = log(1+lambda0 (a_i-s0)) - log(1+lambda1 (a_i-s1)).
  return o.total() * (max_phi(o, score_from_elo(p.elo0)) - max_phi(o, score_from_elo(p.elo1)));
}

double sprt_llr_normal(const SprtParams& p, const Tally& t) {
  if (t.games() == 0) return 0;
  const Outcomes o = outcomes_of(t, true);
  const double s0 = score_from_elo(p.elo0), s1 = score_from_elo(p.elo1);
  return (s1 - s0) * (2 * o.mean() - s0 - s1) * o.total() / (2 * o.variance());
}

SprtStatus sprt(const SprtParams& p, const Tally& t) {
  SprtStatus st{sprt_llr(p, t), std::log(p.beta / (1 - p.alpha)), std::log((1 - p.beta) / p.alpha),
                SprtDecision::kContinue};
  if (st.llr >= st.upper) {
    st.decision = SprtDecision::kAcceptH1;
  } else if (st.llr <= st.lower) {
    st.decision = SprtDecision::kAcceptH0;
  }
  return st;
}

}  // namespace kibitz::match

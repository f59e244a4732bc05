#pragma once
// Match statistics for `kibitz match`: result tallies (W/D/L and pentanomial pairs), Elo with a
// 95% interval, likelihood of superiority and the generalized SPRT (GSPRT) as fishtest and
// fastchess compute it. All Elo values are logistic Elo.
#include <array>
#include <cstdint>

namespace kibitz::match {

// Results from player 1's point of view.
struct Tally {
  std::int64_t wins = 0, draws = 0, losses = 0;
  // Pairs of games (same opening, colours swapped) by player 1's pair total: 0, 0.5, 1, 1.5, 2.
  std::array<std::int64_t, 5> penta{};

  // Counts one game scored 1 (win), 0.5 (draw) or 0 (loss).
  void add_game(double score);
  // Counts one complete pair in `penta` only; the caller adds both games with add_game.
  void add_pair(double first, double second);
  // Games counted in W/D/L.
  std::int64_t games() const { return wins + draws + losses; }
  // Complete pairs counted in `penta`.
  std::int64_t pairs() const;
  // Mean score per game from W/D/L; 0.5 when empty.
  double score() const;
};

// True when the pentanomial model applies: every game belongs to a complete pair and there are
// at least two pairs (otherwise the W/D/L trinomial is used).
bool uses_pentanomial(const Tally& t);

// Logistic Elo of an expected score: -400*log10(1/s-1); -inf at s <= 0, +inf at s >= 1.
double elo_from_score(double s);
// Expected score of a logistic Elo difference: 1/(1+10^(-elo/400)).
double score_from_elo(double elo);

// Elo estimate with its 95% interval (lo, hi); error95 = (hi-lo)/2, inf when an end is infinite.
// score is the mean score per game, los the likelihood of superiority (from W and L), and
// pentanomial tells which variance model gave the interval.
struct EloEstimate {
  double elo, lo, hi, error95;
  double score;
  double draw_ratio;
  double los;
  bool pentanomial;
};

// Elo with a 95% interval: elo_from_score(mean -+ 1.96*se), with se from the per-game variance
// (trinomial) or the variance of pair means (pentanomial, see uses_pentanomial). An empty tally
// gives elo 0 with an infinite interval.
EloEstimate estimate_elo(const Tally& t);

// Likelihood of superiority: 0.5*(1+erf((W-L)/sqrt(2(W+L)))); 0.5 when W+L = 0.
double likelihood_of_superiority(const Tally& t);

// SPRT hypotheses H0: elo = elo0, H1: elo = elo1 (logistic, finite) and the error rates.
struct SprtParams {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
};

enum class SprtDecision { kContinue, kAcceptH0, kAcceptH1 };

// Log-likelihood ratio, the bounds log(beta/(1-alpha)) and log((1-beta)/alpha), and the verdict.
struct SprtStatus {
  double llr, lower, upper;
  SprtDecision decision;
};

// GSPRT: LLR = N * sum_i p_i log(q1_i/q0_i), p the empirical distribution of the outcomes
// (trinomial games or pentanomial pairs, as in estimate_elo; zero counts replaced by 1e-3) and
// q_k the maximum-likelihood distribution whose mean is score_from_elo(elo_k). llr is 0 when
// the tally is empty.
SprtStatus sprt(const SprtParams& p, const Tally& t);

// The GSPRT LLR alone (the llr of sprt()).
double sprt_llr(const SprtParams& p, const Tally& t);

// Normal approximation of the same LLR, (s1-s0)*(2*mean-s0-s1)*N/(2*var), over the same
// (regularised) outcomes: a cross-check for sprt_llr. 0 when the tally is empty.
double sprt_llr_normal(const SprtParams& p, const Tally& t);

}  // namespace kibitz::match

#pragma once
// Generalized Bradley-Terry ratings of teams, fitted by minorization-maximization (Hunter,
// "MM algorithms for generalized Bradley-Terry models", 2004; Coulom, "Computing Elo Ratings
// of Move Patterns in the Game of Go", 2007). A competition is a set of teams of which one
// wins; a team is a set of features, one per slot at most; a team's strength is the product of
// its features' gammas and it wins with probability strength / (sum of the competition's
// strengths). Each feature belongs to one slot: the MM update of one slot's features at a time
// never lowers the likelihood.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace kibitz {

struct TeamCompetitions {
  static constexpr std::uint32_t kNone = 0xffffffffu;
  int slots = 1;
  // Team t's feature in slot s is members[t * slots + s] (kNone: no feature in that slot).
  std::vector<std::uint32_t> members;
  // Competition c holds the teams [start[c], start[c + 1]); start[0] == 0.
  std::vector<std::uint64_t> start{0};
  // The winning team of competition c (an index into the teams).
  std::vector<std::uint64_t> winner;

  std::size_t teams() const { return members.size() / static_cast<std::size_t>(slots); }
  std::size_t competitions() const { return winner.size(); }
};

struct BradleyTerryOptions {
  int iterations = 20;
  // Prior: every feature also plays `prior` wins and `prior` losses against a virtual team of
  // strength 1, which keeps rare features near 1 and every gamma finite.
  double prior = 1.0;
  // After each iteration: its number (from 1) and the mean log-likelihood per competition
  // before it.
  std::function<void(int, double)> on_iteration;
};

// Fits gammas (one per feature id; the input values are the starting point, usually all 1)
// and returns the mean log-likelihood per competition at the end. Deterministic.
double fit_bradley_terry(const TeamCompetitions& data, std::span<float> gammas,
                         const BradleyTerryOptions& options = {});

// The mean log-likelihood per competition of the data under the gammas.
double bradley_terry_log_likelihood(const TeamCompetitions& data, std::span<const float> gammas);

}  // namespace kibitz

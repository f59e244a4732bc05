// RM+ on two-player matrix games whose equilibria are known: rock-paper-scissors (1/3 each),
// a game with a strictly dominated action (its weight goes to 0), matching pennies with
// unequal payoffs (a mixed equilibrium away from uniform), and a one-learner best response.
#include "search/regret/regret_matching.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

namespace kibitz::search {
namespace {

// A one-shot two-player game: both pick a row/column, payoff[a][b] to player 0, the negation
// (zero-sum) or payoff1[a][b] to player 1.
struct MatrixGame {
  using Move = std::uint8_t;
  static constexpr std::size_t kMaxMoves = 8;
  static constexpr int kMaxPlayers = 2;

  int n0 = 0, n1 = 0;
  std::array<std::array<double, 8>, 8> payoff0{}, payoff1{};
  int a = -1, b = -1;

  int current_player() const { return a < 0 ? kSimultaneousPlayer : kTerminalPlayer; }
  bool is_terminal() const { return a >= 0; }
  Returns<MatrixGame> returns() const { return {payoff0[a][b], payoff1[a][b]}; }
  std::size_t legal_actions(int player, MoveList<MatrixGame>& buf) const {
    const int n = player == 0 ? n0 : n1;
    for (int k = 0; k < n; ++k) buf.push_back(static_cast<Move>(k));
    return buf.size();
  }
  void apply_joint(std::span<const Move> joint) {
    a = joint[0];
    b = joint[1];
  }
  std::uint64_t hash() const { return static_cast<std::uint64_t>(a * 8 + b + 1); }
};
static_assert(Simultaneous<MatrixGame>);

MatrixGame zero_sum(std::initializer_list<std::initializer_list<double>> rows) {
  MatrixGame g;
  int i = 0;
  for (const auto& row : rows) {
    int j = 0;
    for (double v : row) {
      g.payoff0[i][j] = v;
      g.payoff1[i][j] = -v;
      ++j;
    }
    g.n1 = j;
    ++i;
  }
  g.n0 = i;
  return g;
}

auto payoff_eval() {
  return [](const MatrixGame& g, int player, bool) { return g.returns()[player]; };
}

template <class Eval>
RegretMatching<MatrixGame, Eval> solve(const MatrixGame& g, RegretConfig cfg, Eval eval,
                                       int iterations) {
  cfg.min_iterations = cfg.max_iterations = iterations;
  RegretMatching<MatrixGame, Eval> rm(g, 2, cfg, eval);
  rm.run(TimeBudget::unlimited());
  return rm;
}

TEST(RegretMatching, RockPaperScissorsConvergesToThirds) {
  const MatrixGame rps = zero_sum({{0, -1, 1}, {1, 0, -1}, {-1, 1, 0}});
  const auto rm = solve(rps, RegretConfig{}, payoff_eval(), 20000);
  for (int p = 0; p < 2; ++p) {
    const auto avg = rm.player(p).average();
    for (double x : avg) EXPECT_NEAR(x, 1.0 / 3, 0.03) << "player " << p;
  }
  EXPECT_EQ(rm.stats().iterations, 20000);
  // Each iteration: one base and two counterfactual resolutions per player.
  EXPECT_EQ(rm.stats().nodes, 20000u * 2 * 3);
}

// Row 2 is strictly dominated by row 0 (0 is better against every column): its weight goes
// to 0; the rest is matching pennies, 1/2 each.
TEST(RegretMatching, DominatedActionWeightGoesToZero) {
  const MatrixGame g = zero_sum({{1, -1}, {-1, 1}, {0.5, -1.5}});
  const auto short_run = solve(g, RegretConfig{}, payoff_eval(), 2000);
  const auto rm = solve(g, RegretConfig{}, payoff_eval(), 200000);
  const auto avg = rm.player(0).average();
  // Only sampling noise (a sampled row doing worse than it would have) still gives it
  // regret, less and less as the row player settles: its share keeps falling.
  EXPECT_LT(avg[2], 0.01);
  EXPECT_LT(avg[2], short_run.player(0).average()[2] / 3);
  EXPECT_NEAR(avg[0], 0.5, 0.03);
  EXPECT_NEAR(rm.player(1).average()[0], 0.5, 0.03);
}

// Asymmetric matching pennies: payoff 3 for (0,0), 1 for (1,1), -1 otherwise. Each side mixes
// to make the other indifferent: 3q - (1 - q) = -q + (1 - q) gives q = 1/3, and the same for
// the row player: both play action 0 a third of the time.
TEST(RegretMatching, MixedEquilibriumAwayFromUniform) {
  const MatrixGame g = zero_sum({{3, -1}, {-1, 1}});
  const auto rm = solve(g, RegretConfig{}, payoff_eval(), 40000);
  EXPECT_NEAR(rm.player(0).average()[0], 1.0 / 3, 0.03);
  EXPECT_NEAR(rm.player(1).average()[0], 1.0 / 3, 0.03);
}

// One learner against a fixed uniform opponent (the seed's use, with its 0.95 discount and
// softmax strategy): the best response collects the weight and the strategy's entropy falls.
TEST(RegretMatching, SingleLearnerSoftmaxFindsTheBestResponse) {
  const MatrixGame g = zero_sum({{0, -1, 1}, {1, 0, -1}, {2, 1, 0}});  // row 2 beats uniform
  RegretConfig cfg;
  cfg.learners = 1u;
  cfg.discount = 0.95;
  cfg.strategy = RegretStrategy::kSoftmax;
  cfg.temperature = 0.2;
  const auto entropy = [](const std::vector<double>& s) {
    double h = 0;
    for (double x : s)
      if (x > 0) h -= x * std::log(x);
    return h;
  };
  const auto early = solve(g, cfg, payoff_eval(), 5);
  const auto late = solve(g, cfg, payoff_eval(), 500);
  EXPECT_EQ(late.player(0).best(), 2);
  EXPECT_GT(late.player(0).average()[2], 0.8);
  EXPECT_LT(entropy(late.player(0).strategy), entropy(early.player(0).strategy));
  // The opponent does not learn: its strategy stays uniform.
  for (double x : late.player(1).strategy) EXPECT_DOUBLE_EQ(x, 1.0 / 3);
}

// Same seed and iteration count: the same tables.
TEST(RegretMatching, DeterministicUnderASeed) {
  const MatrixGame rps = zero_sum({{0, -1, 1}, {1, 0, -1}, {-1, 1, 0}});
  RegretConfig cfg;
  cfg.seed = 7;
  const auto a = solve(rps, cfg, payoff_eval(), 300);
  const auto b = solve(rps, cfg, payoff_eval(), 300);
  EXPECT_EQ(a.player(0).weight, b.player(0).weight);
  EXPECT_EQ(a.player(1).regret, b.player(1).regret);
  cfg.seed = 8;
  const auto c = solve(rps, cfg, payoff_eval(), 300);
  EXPECT_NE(a.player(0).weight, c.player(0).weight);
}

// Initial regrets (a policy prior) shape the first strategies.
TEST(RegretMatching, InitialRegretsSetTheFirstStrategy) {
  const MatrixGame rps = zero_sum({{0, -1, 1}, {1, 0, -1}, {-1, 1, 0}});
  RegretConfig cfg;
  cfg.min_iterations = cfg.max_iterations = 1;
  cfg.learners = 0;  // nobody learns: the first strategy is the prior's
  RegretMatching rm(rps, 2, cfg, payoff_eval());
  const std::array<double, 3> prior{3, 1, 0};
  rm.set_initial_regrets(0, prior);
  rm.run(TimeBudget::unlimited());
  EXPECT_DOUBLE_EQ(rm.player(0).strategy[0], 0.75);
  EXPECT_DOUBLE_EQ(rm.player(0).strategy[2], 0.0);
}

// The budget: at least min_iterations even when the time is already up.
TEST(RegretMatching, MinimumIterationsDespiteTheBudget) {
  const MatrixGame rps = zero_sum({{0, -1, 1}, {1, 0, -1}, {-1, 1, 0}});
  RegretConfig cfg;
  cfg.min_iterations = 48;
  RegretMatching rm(rps, 2, cfg, payoff_eval());
  TimeBudget spent(0, 0);
  const auto stats = rm.run(spent);
  EXPECT_EQ(stats.iterations, 48);
}

}  // namespace
}  // namespace kibitz::search

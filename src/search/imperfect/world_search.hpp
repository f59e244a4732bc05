#pragma once
// Searches over sampled worlds for imperfect-information games (DESIGN.md: "DeterminizedMaxN
// / paranoid + endgame solver"), written once against the concepts:
//
//  - sample_worlds(): K full states drawn from what the player to move knows
//    (ImperfectInfo::sample_world), deterministic under a seed.
//  - WorldSearch: every candidate move is evaluated in the same worlds with the same rollout
//    random numbers (common random numbers: differences between moves are not blurred by
//    different deals or different rollout luck). In each world
//    a maxn (each player maximises its own return, ties broken against us) or paranoid
//    (every other player minimises ours) lookahead of `depth` plies after the move, then a rollout
//    to the end of the game with the game's policy. Worlds are taken one at a time for all moves,
//    so a search cut by its time budget still compares the moves over the same completed worlds.
//  - EndgameSolver: exact maxn to the end of each world (perfect information) with a
//    transposition table, combined over worlds by weight: for the last tricks, where the
//    worlds are few enough to enumerate.
//
// Optional static hooks in SearchTraits<G> (detected with `requires`):
//   rollout_move(const G&, Rng&) -> Move       the rollout policy (default: uniform random;
//                                              WorldSearch also takes a policy object)
//   prune_equivalent(const G&, MoveList<G>&)   drops moves whose outcome equals another's in
//                                              every continuation (exact: Hearts' touching
//                                              cards); used below the root only
// Bodies are in world_search_impl.hpp (include it where the templates are instantiated).
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "api/concepts.hpp"
#include "core/rng.hpp"
#include "core/time_budget.hpp"

namespace kibitz::search {

enum class LookaheadMode { kMaxN, kParanoid };

struct WorldSearchOptions {
  int depth = 2;  // plies of maxn / paranoid after the candidate move, then a rollout
  LookaheadMode mode = LookaheadMode::kMaxN;
  std::uint64_t seed = 0x57524C44ull;  // rollouts
  // Policies the root player may follow in its own rollout moves (a rollout policy object
  // with set_variant(root, v) picks them; e.g. Hearts: play normally / shoot the moon). Each
  // move is valued by its best variant's mean over the worlds: the choice is one of plans,
  // made before the deal is known, not per world.
  int variants = 1;
};

// A candidate move's value over the worlds evaluated so far.
template <class G>
struct MoveValue {
  typename G::Move move{};
  std::array<double, G::kMaxPlayers> mean{};  // mean return per player
  double m2 = 0.0;                            // Welford: squared deviations of the root's
  int worlds = 0;
  int variant = 0;  // the root policy variant this value is for (WorldSearchOptions::variants)
  double variance() const { return worlds > 1 ? m2 / (worlds - 1) : 0.0; }
  void add(const Returns<G>& r, int root);
};

template <class G>
struct WorldSearchResult {
  std::vector<MoveValue<G>> moves;  // in the order the moves were given
  int worlds_done = 0;              // every move was evaluated in this many worlds
  std::uint64_t nodes = 0;          // states visited, rollout plies included
  bool budget_exceeded = false;     // the budget cut the search short
};

// K worlds drawn from what `player` knows of `s` (ImperfectInfo).
template <ImperfectInfo G>
std::vector<G> sample_worlds(const G& s, int player, int k, Rng& rng) {
  std::vector<G> out;
  out.reserve(static_cast<std::size_t>(k));
  for (int i = 0; i < k; ++i) out.push_back(s.sample_world(player, rng));
  return out;
}

// The rollout policy SearchTraits<G> gives (uniform random when it gives none). A search
// may be given any other policy object with the same call (e.g. one carrying knobs).
template <Game G>
struct TraitsRollout {
  typename G::Move operator()(const G& s, Rng& rng) const {
    if constexpr (requires { SearchTraits<G>::rollout_move(s, rng); }) {
      return SearchTraits<G>::rollout_move(s, rng);
    } else {
      MoveList<G> moves;
      s.legal_moves(moves);
      return moves[rng.below(moves.size())];
    }
  }
};

template <Game G, class Rollout = TraitsRollout<G>>
class WorldSearch {
 public:
  using Move = typename G::Move;

  explicit WorldSearch(Rollout rollout = {}) : policy_(rollout) {}

  // Values of `moves` (legal for `root`, the player to move in every world).
  WorldSearchResult<G> evaluate(std::span<const G> worlds, std::span<const Move> moves, int root,
                                const WorldSearchOptions& options, TimeBudget& budget);

 private:
  Returns<G> lookahead(const G& s, int depth);
  Returns<G> rollout(G s);

  Rollout policy_;
  Rng rng_;
  int root_ = 0;
  LookaheadMode mode_ = LookaheadMode::kMaxN;
  std::uint64_t nodes_ = 0;
  TimeBudget* budget_ = nullptr;
  bool aborted_ = false;
};

template <class G>
struct EndgameResult {
  std::vector<MoveValue<G>> moves;  // weighted means over the worlds solved
  int worlds_done = 0;
  std::uint64_t nodes = 0;
  bool budget_exceeded = false;
  // Per move: the root's return is the same in every world solved (a forced outcome).
  std::vector<bool> forced;
};

template <Game G>
class EndgameSolver {
 public:
  using Move = typename G::Move;

  // A transposition table of 2^table_bits entries (allocated once here).
  explicit EndgameSolver(int table_bits = 18);

  // Exact maxn value of a perfect-information state: every player maximises its own return;
  // a player other than `root` breaks ties against root (paranoid tie-breaking), otherwise
  // ties go to the first move in legal order (root -1: no root).
  Returns<G> solve(const G& s, int root = -1);
  // Values of the root moves over weighted worlds; stops between worlds when the budget runs
  // out (the result then covers the worlds done).
  EndgameResult<G> evaluate(std::span<const G> worlds, std::span<const double> weights,
                            std::span<const Move> moves, int root, TimeBudget& budget);
  std::uint64_t nodes() const { return nodes_; }

  // The same value by plain recursion, no table and no pruning: the tests' brute force.
  static Returns<G> brute_force(const G& s, int root = -1);

 private:
  struct Entry {
    std::uint64_t key = 0;
    std::array<float, G::kMaxPlayers> value{};
  };
  Returns<G> search(const G& s);
  void set_root(int root);

  std::vector<Entry> table_;
  int root_ = -1;
  std::uint64_t root_key_ = 0;
  std::uint64_t mask_ = 0;
  std::uint64_t nodes_ = 0;
  TimeBudget* budget_ = nullptr;
  bool aborted_ = false;
};

}  // namespace kibitz::search

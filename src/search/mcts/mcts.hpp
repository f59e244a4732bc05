#pragma once
// Monte Carlo tree search written once against the Game concept (DESIGN.md): a node arena with
// children as contiguous index ranges, PUCT (or UCT) selection blended with RAVE/AMAF values,
// playouts to the end of the game, virtual loss for several threads, tree reuse between moves,
// and per-move statistics with an uncertainty measure for the deep search built on top.
//
// Required of G: Game (any number of players; returns() in [-1, 1], mapped to [0, 1]).
// The leaf comes from the evaluator V (evaluator.hpp): priors for a node's moves and the
// value of a leaf, one evaluator per thread. The default, PlayoutEval<G>, reads these
// optional static hooks in SearchTraits<G> (detected with `requires`):
//   priors(const G&, std::span<const Move>, std::span<float> out)   PUCT priors (uniform when
//                                      absent; normalised here, so any non-negative weights do)
//   playout_move(const G&, Rng&) -> Move   the playout policy (default: a uniformly random
//                                      legal move); must return a legal move
//   mcts_move_index(Move) -> size_t and kMctsMoveIndexSize   a dense index of moves for the
//                                      AMAF bookkeeping (default: the move's value when it is an
//                                      integer or a 16-bit struct; RAVE is off otherwise)
// Bodies are in mcts_impl.hpp (include it where Mcts<G> is instantiated).
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "api/concepts.hpp"
#include "core/fixed_vector.hpp"
#include "core/rng.hpp"
#include "core/time_budget.hpp"
#include "search/mcts/evaluator.hpp"

namespace kibitz::search {

struct MctsOptions {
  // Limits (0 = none): playouts of this search, and visits of the root including those a
  // reused tree already had. A TimeBudget passed to search() adds a clock and a stop flag.
  std::uint64_t max_playouts = 0;
  std::uint64_t max_visits = 0;
  std::uint64_t seed = 0x4D435453ull;
  int threads = 1;  // > 1: lock-free tree with virtual loss (not deterministic)

  // Selection. PUCT: Q + c_puct * P * sqrt(N_parent) / (1 + N_child). UCT (use_puct false):
  // Q + c_uct * sqrt(ln N_parent / N_child), unvisited children first (in prior order).
  bool use_puct = true;
  double c_puct = 1.0;
  double c_uct = 0.7;
  // First-play urgency (PUCT): an unvisited child without AMAF statistics is valued at the
  // mean value of its visited siblings (the parent's value for the mover) minus this.
  double fpu_reduction = 0.2;
  // RAVE: Q = (1 - beta) * Q_child + beta * Q_amaf with Gelly & Silver's hand-picked schedule
  // beta = sqrt(k / (3 N_child + k)) (2007, "Combining online and offline knowledge in UCT"):
  // the AMAF value dominates while a child has few visits and weighs 1/2 at N_child = k.
  bool rave = true;
  double rave_k = 1000.0;

  // Expansion: a leaf's children are created when a simulation reaches it after it has had
  // this many visits (the root always); at most one expansion per simulation.
  int expand_after = 1;
  // Virtual loss per thread on a node's path: counted as visits with value 0 in selection.
  int virtual_loss = 3;
  // Arena capacity in nodes (one allocation when the search is created; the pages are touched
  // only as nodes are used). When it is full, leaves stop expanding and only run playouts.
  // A node is 48 bytes; with expand_after 1 a 9x9 search uses about 19 nodes per playout and
  // a 19x19 one about 67: raise expand_after or max_nodes for long 19x19 searches.
  std::size_t max_nodes = std::size_t{1} << 21;

  // Time use (off by default, so a visit or playout limit gives the same tree every run):
  // stop_when_decided ends the search before its limit (visits, playouts, or the soft time
  // target at the rate so far) once the most visited root move cannot be overtaken in the
  // playouts left; extend_when_unclear carries a timed search past its soft target, up to the
  // hard limit, while the race at the root is open: the second most visited move has more
  // than unclear_visit_ratio of the first's visits, or a better value.
  bool stop_when_decided = false;
  bool extend_when_unclear = false;
  double unclear_visit_ratio = 0.6;

  // How often the clock and stop flag are read (playouts, power of two) and how often the
  // info callback is called (milliseconds, 0 = never).
  std::uint64_t check_every = 16;
  std::int64_t info_interval_ms = 0;

  // Uncertainty: how different (stdev of Q) the top children's values must be to count as
  // clearly separated; see MctsResult::uncertainty.
  double uncertainty_value_scale = 0.1;
};

template <class Move>
struct MoveStats {
  Move move{};
  int visits = 0;
  double value = 0.5;  // mean playout result for the root player, 0..1 (0.5 when unvisited)
  double prior = 0.0;
  int amaf_visits = 0;
  double amaf_value = 0.5;
};

template <class Move>
struct MctsResult {
  Move best{};                         // most visits (ties: higher prior); default when none
  std::vector<MoveStats<Move>> moves;  // every root child, most visits first
  std::vector<double> policy;          // visit fractions, parallel to `moves`
  std::vector<Move> pv;                // most-visited children from the root
  double value = 0.5;                  // the best move's value for the root player
  std::uint64_t playouts = 0;          // this search
  std::uint64_t root_visits = 0;       // including visits kept from a reused tree
  std::uint64_t nodes = 0;             // arena nodes in use
  std::int64_t time_ms = 0;
  bool exceeded = false;  // the hard time limit was hit
  // Uncertainty in [0, 1]: the mean of
  //   H = the entropy of the root visit distribution divided by log(number of root moves)
  //       (1 when visits are spread evenly, 0 when all went to one move), and
  //   C = how close the values of the three most visited moves are:
  //       1 - min(1, stdev(Q of the top 3) / uncertainty_value_scale)
  //       (1 when they are equally good, 0 when they differ by the scale or more; 0 when
  //       fewer than two moves have visits).
  // High when several moves look alike and the search has not settled; low once the visits
  // concentrate on a move whose value stands apart. 1 before any visit; 0 with one legal move.
  double uncertainty = 1.0;
  double entropy = 1.0;          // H above
  double value_closeness = 1.0;  // C above
};

template <class G, class V>
concept MctsSetup = Game<G> && MctsEvaluator<V, G>;

template <class G, class V = PlayoutEval<G>>
requires MctsSetup<G, V>
class Mcts {
 public:
  using Move = typename G::Move;
  using Result = MctsResult<Move>;
  using InfoCallback = std::function<void(const Result&)>;

  // Each thread's evaluator starts as a copy of `eval`.
  explicit Mcts(const MctsOptions& options = {}, const V& eval = V());
  ~Mcts();
  Mcts(const Mcts&) = delete;
  Mcts& operator=(const Mcts&) = delete;

  // A search needs a position first: set_position() (or the constructor taking one).
  Mcts(const G& state, const MctsOptions& options, const V& eval = V()) : Mcts(options, eval) {
    set_position(state);
  }
  // Starts a new tree at `state` (statistics dropped).
  void set_position(const G& state);
  // Plays `m` at the root. When the root's child for m exists its subtree is kept (copied,
  // compacted, into the spare arena, which then becomes the live one: O(subtree), and the
  // arena never holds dead nodes); otherwise the tree restarts. Returns whether statistics
  // were kept. `m` must be legal.
  bool advance(Move m);
  // Changes limits and tunables between searches (the arena size is fixed at construction).
  void set_options(const MctsOptions& options);
  const MctsOptions& options() const { return options_; }

  // Runs playouts until a limit, the budget (its soft target, or a stop request) or stop().
  // Deterministic for one thread, a fixed seed and playout/visit limits.
  Result search(TimeBudget& budget, const InfoCallback* info = nullptr);
  Result search();  // limits from the options only
  void stop() { stop_.store(true, std::memory_order_relaxed); }

  // The statistics of the current tree (as search() returns them).
  Result result() const;
  // The same statistics for any node of the tree, from the view of the player to move there
  // (values of its children are for that player); pv starts at the node. For the deep search
  // that reads a child's uncertainty from the tree. Call between searches.
  Result node_result(std::uint32_t node) const;
  // The child of `node` reached by m, or kNoNode (not expanded, or no such move).
  std::uint32_t child_of(std::uint32_t node, Move m) const;
  // Prior knowledge from outside (retrieved analyses of similar positions): the root's priors
  // become (1 - weight) * prior + weight * hint (the hint renormalised over the legal moves).
  // Applied when the root is expanded, at once when it already is; an empty hint clears it.
  // Kept until the next call (a new position keeps it too: clear it there). Call between
  // searches.
  void set_root_prior_hint(std::vector<std::pair<Move, float>> hint, double weight);
  const G& root_state() const { return *root_; }
  std::uint64_t root_visits() const;
  std::size_t nodes_used() const { return size_.load(std::memory_order_relaxed); }

  // Arena layout, public for tests and the deep search that reads the tree.
  struct Node {
    double value_sum;  // results 0..1 for `player`, the one who played `move`
    double amaf_sum;   // AMAF results for `player`
    std::uint32_t visits;
    std::uint32_t amaf_visits;
    std::uint32_t first_child;  // children are [first_child, first_child + num_children)
    std::uint32_t in_flight;    // threads whose current simulation passes through here
    float prior;
    std::uint16_t num_children;
    std::uint8_t state;   // kLeaf, kExpanding, kExpanded
    std::uint8_t player;  // who played `move` (the parent's player to move)
    Move move;
  };
  static constexpr std::uint8_t kLeaf = 0, kExpanding = 1, kExpanded = 2;
  static constexpr std::uint32_t kRoot = 0;  // the root is always the arena's first node
  static constexpr std::uint32_t kNoNode = UINT32_MAX;
  std::span<const Node> nodes() const { return {nodes_.get(), nodes_used()}; }

 private:
  struct Worker;

  void reset_tree();
  bool expand(std::uint32_t node, const G& state, Worker& w);
  std::uint32_t select(const Node& parent, Worker& w) const;
  void simulate(Worker& w);
  // Selection and (at most one) expansion from the root into `s`, the nodes entered in
  // `path`; with virtual loss (vl) each one's in_flight counts this simulation.
  void descend(Worker& w, G& s, std::vector<std::uint32_t>& path, bool vl);
  // The result `r` of a simulation along `path`, its virtual loss taken back.
  void backup(const std::vector<std::uint32_t>& path, const Returns<G>& r, bool vl);
  // A batch evaluator's simulations: `count` descents, one values() call, their backups.
  void simulate_batch(Worker& w, std::uint64_t count);
  static constexpr bool kBatched = BatchEvaluator<V, G>;
  void run_worker(Worker& w, bool main, TimeBudget& budget, const InfoCallback* info);
  bool limit_reached(std::uint64_t ticket) const;
  // The main worker's check: stop now (the budget, a decided root, an unclear one past the
  // soft target; see MctsOptions).
  bool should_stop(const TimeBudget& budget) const;
  void ensure_workers();
  void blend_root_hint(std::span<const Move> moves, std::span<float> priors) const;

  MctsOptions options_;
  V eval_;
  std::optional<G> root_;  // optional: G need not be default-constructible
  std::size_t capacity_ = 0;
  // Raw storage (Node is an aggregate, so an implicit-lifetime type, and every node is
  // assigned before it is read): the arena's pages are touched only as nodes are used, where
  // constructing them (Move has a default member initialiser) would write all of it up front.
  struct FreeNodes {
    void operator()(Node* p) const { std::free(p); }
  };
  using NodeArena = std::unique_ptr<Node[], FreeNodes>;
  NodeArena allocate_arena() const;
  NodeArena nodes_;
  NodeArena spare_;  // compaction target for advance(), allocated on first use
  std::atomic<std::size_t> size_{0};
  std::atomic<bool> full_{false};  // an expansion found the arena full
  std::vector<std::unique_ptr<Worker>> workers_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> tickets_{0};  // playouts started in this search
  std::atomic<std::uint64_t> done_{0};     // playouts finished in this search
  std::uint64_t start_visits_ = 0;         // root visits when the search began
  std::uint64_t searches_ = 0;             // mixed into each search's worker seeds
  const TimeBudget* budget_ = nullptr;     // during a search: for result()'s time
  std::vector<std::pair<Move, float>> root_hint_;
  double root_hint_weight_ = 0.0;
};

}  // namespace kibitz::search

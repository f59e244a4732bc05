#pragma once
// The Go engine: the generic MCTS with the Go hooks (search_traits.hpp) behind one persistent
// object that keeps its tree between moves, turns a GTP clock into a budget per move, and
// decides when to resign and when to pass. Protocol adapters (protocol/gtp) only translate text.
//
// Passing: the search itself may choose pass. On top of it, with the pass shortcut on (plain
// genmove), the engine passes at once when the opponent has just passed and the board as it
// stands wins or ties for the mover by Tromp-Taylor area (passing then ends the game without
// losing it). A pass the search prefers is replaced by its best other move when that pass would
// end the game lost. Without the shortcut (kgs-genmove_cleanup) the engine passes only when no
// root move is left that is legal, not the filling of its own eye and not a big self-atari:
// it keeps playing while capturing or filling dame can still change the area count.
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "core/time_manager.hpp"
#include "engine/bench.hpp"
#include "games/go/board.hpp"
#include "games/go/search_traits.hpp"
#include "search/mcts/deep_search.hpp"
#include "search/mcts/mcts.hpp"

namespace kibitz::engine {

struct GoEngineOptions {
  int threads = 1;
  std::uint64_t seed = 0x4D435453ull;
  double rave_k = 200.0;  // RAVE weight 1/2 at this many child visits (0: no RAVE)
  std::size_t max_nodes = std::size_t{1} << 21;  // arena nodes (48 bytes each)
  bool resign = true;
  double resign_value = 0.1;              // resign when the best move's value is below this
  std::uint64_t resign_min_visits = 500;  // ... after at least this many root visits
  int resign_moves = 2;  // ... on this many own moves in a row (one bad reading is not enough)
  // Linear dynamic komi in handicap games (GoEngine::search_komi).
  bool dynamic_komi = true;
};

// Limits of one genmove: visits and/or a fixed time. Both 0: the clock decides (see
// GoEngine::clock_budget_ms); with no clock either, kDefaultMoveMs.
struct GoLimits {
  std::uint64_t visits = 0;
  std::int64_t movetime_ms = 0;
};

// GTP time_settings / time_left, in milliseconds. byo_stones 0 with byo_ms > 0: no limit.
struct GoClock {
  std::int64_t main_ms = 0;
  std::int64_t byo_ms = 0;
  int byo_stones = 0;
  bool set = false;  // time_settings was given
  // time_left per colour: the time left and the stones to play in it (0: main time).
  std::array<std::int64_t, 2> left_ms{0, 0};
  std::array<int, 2> left_stones{0, 0};
  std::array<bool, 2> left_known{false, false};
};

// The GTP time settings of a control: moves > 0 is Canadian byo-yomi (`moves` moves in
// base_ms, no main time); otherwise base_ms of main time, an increment read as byo-yomi of
// one move. `set`, nothing known yet of what is left.
GoClock go_clock_for(std::int64_t base_ms, std::int64_t increment_ms, int moves);

// Charges a move's thinking time to colour `me`'s clock (0 Black, 1 White) when the controller
// does not send time_left: the first charge starts from the main time (or the first byo-yomi
// period when there is none); main time that runs out passes into Canadian byo-yomi, the move
// that crossed counting as the period's first stone; a period whose stones are all played
// starts afresh. A time_left from the controller overrides the tally. No clock (or GTP's "no
// time limit": byo-yomi time with no stones) is left alone.
void charge_clock(GoClock& clock, int me, std::int64_t elapsed_ms);

// How Go's search spends a clock (the time manager's policy; see GoEngine::clock_limits_ms).
TimePolicy go_time_policy(const go::Position& pos);

class GoDeep;

struct GoDecision {
  go::Move move = go::Move::none();     // a point, pass or resign
  const char* reason = "search";        // "search", "pass-shortcut", "resign", "no-moves"
  search::MctsResult<go::Move> result;  // the standard search
  // With a deep search attached: how the move was decided (standard, cached, deep) and the
  // move's value from that analysis.
  bool deep = false;
  search::DeepSource source = search::DeepSource::kStandard;
  double value = 0.5;
  std::uint64_t playouts = 0;  // the standard search's and any deep search's
};

class GoEngine {
 public:
  using Result = search::MctsResult<go::Move>;
  using InfoCallback = std::function<void(const Result&)>;
  static constexpr std::int64_t kDefaultMoveMs = 1000;  // no limits and no clock
  static constexpr std::int64_t kSafetyMs = 100;        // kept back from every clock budget

  explicit GoEngine(const GoEngineOptions& options = {});
  ~GoEngine();

  const GoEngineOptions& options() const { return options_; }
  void new_game(const go::Rules& rules);
  // The tree follows the game: an identical position keeps it, a position one move on from
  // the tree's root advances it (keeping that subtree), anything else restarts it.
  void set_position(const go::Position& pos);
  void play(go::Move m);  // advance the tree by a move played at its root

  // The deep search (engine/go_deep.hpp): genmove hands its standard search to it, which
  // may answer from the position database or search deeper. Without explicit limits or a
  // clock the standard search then has the deep configuration's standard visits.
  void attach_deep(std::shared_ptr<GoDeep> deep) { deep_ = std::move(deep); }
  GoDeep* deep() const { return deep_.get(); }

  void set_clock(const GoClock& clock) { clock_ = clock; }
  // Black's handicap stones in the game being played (0: an even game); GTP sets it from
  // the position before the first move.
  void set_handicap(int stones) { handicap_ = stones; }
  // The komi the search plays with (linear dynamic komi, as Pachi's): in a handicap game a
  // side that wins on the real komi does not care how, and one that is losing anyway plays
  // at random, so the search's komi starts kHandicapStonePoints a handicap stone against the
  // side that got them and comes back linearly to the real komi by the move
  // kDynamicKomiMoves x (board points / 361). Rounded to whole points, so the tree is kept
  // between most moves. The real komi in even games, with the deep search, or when the
  // option is off.
  static constexpr double kHandicapStonePoints = 7.0;
  static constexpr int kDynamicKomiMoves = 200;
  double search_komi(const go::Position& pos) const;
  const GoClock& clock() const { return clock_; }
  // The time for the side to move of `pos` from the clock. The target: in byo-yomi, the
  // period's time per stone; in main time, main time left / max(20, empty points / 3) plus
  // the byo-yomi time per stone. The most an unclear move may take (the search goes past the
  // target only while the race at the root is open, and stops before it once the best move
  // is decided): in a period twice the share while every other stone keeps half of its own,
  // in main time three times the share but at most a sixth of it. Both minus a safety margin
  // of a fifth of the share, at most kSafetyMs, and at least 1 ms. kDefaultMoveMs (both)
  // without time settings.
  struct ClockLimits {
    std::int64_t target_ms;
    std::int64_t most_ms;
  };
  ClockLimits clock_limits_ms(const go::Position& pos) const;
  std::int64_t clock_budget_ms(const go::Position& pos) const {
    return clock_limits_ms(pos).target_ms;
  }

  // Chooses a move for the side to move of `pos` (a copy is searched). Synchronous; stop()
  // from another thread ends it early with the best answer so far.
  GoDecision genmove(const go::Position& pos, const GoLimits& limits, bool pass_shortcut = true,
                     const InfoCallback* info = nullptr, std::int64_t info_interval_ms = 0);
  // Searches `pos` with no limit until stop(), calling `info` every interval (and once at
  // the end); a short first search of `min_playouts` is not stopped, so the result always
  // has some statistics. Returns the final statistics. The stop flag is not cleared here (a
  // stop() may come before the analysis thread gets to run): call clear_stop() first.
  Result analyze(const go::Position& pos, const InfoCallback& info, std::int64_t interval_ms,
                 std::uint64_t min_playouts = 64);
  void stop();
  void clear_stop() { stop_requested_.store(false); }

  // The principal variation through the root child `m`: m, then the most visited children.
  // Safe to call from an info callback (reads the tree as result() does).
  std::vector<go::Move> pv_through(go::Move m) const;

 private:
  Result run_search(TimeBudget& budget, const InfoCallback* info);

  GoEngineOptions options_;
  search::Mcts<go::Position> mcts_;
  bool has_tree_ = false;
  GoClock clock_;
  int handicap_ = 0;
  // Own moves in a row whose search said resign, and the move number of the last one, per
  // colour.
  std::array<int, 2> resign_streak_{0, 0};
  std::array<int, 2> resign_last_move_{-10, -10};
  std::atomic<TimeBudget*> budget_{nullptr};
  std::atomic<bool> stop_requested_{false};
  std::shared_ptr<GoDeep> deep_;
};

// `kibitz bench --game go`: an empty board and a middle game on 9x9 and on 19x19, each
// searched from a fresh tree for options.playouts playouts (or options.movetime_ms) with
// options.threads threads. A position's nodes are its playouts (so nps() is playouts per
// second) and the report's signature is the sum of tree nodes created: with one thread it is
// the same on every run and changes only when the search, priors or playouts do.
struct GoBenchPosition {
  int size = 9;
  std::string_view moves;  // GTP vertices from the empty board
};
std::vector<GoBenchPosition> go_bench_positions();
BenchReport run_go_bench(const BenchOptions& options,
                         const std::function<void(const BenchPosition&)>& progress = {});

// A Monte Carlo estimate of who owns each point: `playouts` games played out from `pos` by
// the playout policy, each scored by area. For the side to move of `pos`: owner in [-1, 1]
// per point, rows from the top (the row GTP numbers highest) and left to right, as KataGo's
// kata-analyze reports it; score_lead the mean area score (komi included).
struct GoOwnership {
  std::vector<double> owner;
  double score_lead = 0;
  int playouts = 0;
};
GoOwnership estimate_ownership(const go::Position& pos, int playouts, std::uint64_t seed);

}  // namespace kibitz::engine

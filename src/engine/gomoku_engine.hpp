#pragma once
// The gomoku engine: the seed's five-stage pipeline over one persistent engine object.
//   1. a win at once;   2. VCF (victory by continuous fours);   3. VCT (continuous threats);
//   4. defence: when the opponent would have a VCF (or VCT) if it were its turn, only moves
//      after which it has none are searched;   5. the generic alpha-beta (PVS, iterative
//      deepening, aspiration, TT, killers, history) over the moves near stones.
// The transposition table and the threat cache persist across moves; one TimeBudget covers
// the whole move (the seed's 450 ms by default) and stops iterative deepening.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/alphabeta_engine.hpp"
#include "engine/any_engine.hpp"
#include "engine/bench.hpp"
#include "games/gomoku/position.hpp"
#include "games/gomoku/search_traits.hpp"
#include "search/threat/proof_number_search.hpp"
#include "search/threat/threat_search.hpp"

namespace kibitz::engine {

extern template class AlphaBetaEngine<gomoku::Position>;

struct GomokuLimits {
  TimeBudget::Millis movetime_ms = 450;  // the whole move, all stages
  std::uint64_t nodes = 0;               // alpha-beta node limit (0 = none; for bench/tests)
  int depth = 0;                         // alpha-beta depth limit (0 = none)
};

struct GomokuOptions {
  bool threats = true;       // stages 2-4; off = the plain alpha-beta baseline
  bool vct = true;           // stage 3 and the VCT half of stage 4
  bool defence = true;       // stage 4 against the opponent's VCF
  bool defence_vct = false;  // and against its VCT (measured weaker: see BENCHMARKS.md)
  bool pn_vct = false;       // VCT by proof-number search (off: by iterative deepening)
  int vcf_depth = 40;        // attacker moves
  int vct_depth = 10;        // for the iterative deepening; the proof-number search: pn_vct_depth
  int pn_vct_depth = 30;
  double vcf_share = 0.15;  // of the move's time, for our VCF; as much again for defence
  double vct_share = 0.20;
  double defence_share = 0.25;   // stage 4 in all
  search::SearchOptions search;  // alpha-beta techniques
};

struct GomokuDecision {
  gomoku::Move move = gomoku::Move::none();
  std::string stage;  // "win", "forced", "vcf", "vct", "defence", "alphabeta"
  int score = 0;      // search score (mate scores for proven wins / losses)
  int depth = 0;
  std::uint64_t nodes = 0;
  std::int64_t time_ms = 0;
  std::vector<gomoku::Move> pv;
  bool budget_exceeded = false;
  std::vector<std::uint64_t> nodes_per_depth;  // the alpha-beta's, cumulative per iteration
  search::SearchStats stats;                   // the alpha-beta's
  // Where the move's time went, stage by stage in the order they ran (ms, to the tenth):
  // "vcf", "vct", "defence" (the opponent's threat and the check of our answers), "alphabeta".
  // The first counts from the start, the checks before it (a win at once, a four to answer)
  // included.
  std::vector<std::pair<const char*, double>> stage_ms;
};

class GomokuEngine {
 public:
  using InfoCallback = search::InfoCallback<gomoku::Move>;
  explicit GomokuEngine(std::size_t hash_mb = 64);
  ~GomokuEngine();

  void set_options(const GomokuOptions& o);
  const GomokuOptions& options() const { return options_; }
  void set_hash_mb(std::size_t mb);
  void new_game();

  // Chooses a move for the side to move (which must have one). Synchronous; stop() from
  // another thread ends it early with the best answer so far.
  GomokuDecision think(const gomoku::Position& pos, const GomokuLimits& limits,
                       const InfoCallback* on_info = nullptr);
  void stop();

 private:
  GomokuOptions options_;
  AlphaBetaEngine<gomoku::Position> alphabeta_;
  search::ThreatSearch<gomoku::Position> threats_;
  search::ProofNumberSearch<gomoku::Position> pn_threats_;
  // One threat solve: VCT by proof-number search where pn_vct is set, else iterative deepening.
  search::ThreatResult<gomoku::Position> solve(gomoku::Position& pos, search::ThreatKind kind,
                                               const TimeBudget& budget);
  std::atomic<TimeBudget*> budget_{nullptr};
  std::atomic<bool> stop_requested_{false};
};

// How the gomoku engine spends a clock (the time manager's policy): what is left, less a
// reserve of a tenth of it (at most 60 ms), over the moves still to come, at least 20 (a
// quarter of the empty points); three quarters of an increment on top. The pipeline does not
// stretch a move: the share is its budget.
TimePolicy gomoku_time_policy(const gomoku::Position& pos);

// The swap2 opening rule's questions (Gomocup's SWAP2BOARD). With no stones: three to
// place (black, white, black), the candidate among the 26 classical openings (black in the
// centre, white beside it straight or diagonally, black within two points of the centre)
// whose search score is nearest to even. With 3 or 5 stones, white to move: swap (take
// black) when the search scores the position below even for white, else play white's move.
struct Swap2Answer {
  bool swap = false;
  std::vector<gomoku::Move> stones;  // when not swapping: 3, or 1 (white's move)
  std::string reason;                // one line for the log / MESSAGE
};
// `engine` is a gomoku engine behind the contract, `text` the position's text (what `pos` is).
Swap2Answer swap2_decide(AnyEngine& engine, std::string_view text, const gomoku::Position& pos,
                         TimeBudget::Millis budget_ms);
// The 26 opening triples on an empty board of `size` (exposed for tests).
std::vector<std::array<gomoku::Move, 3>> swap2_openings(int size);

// `kibitz bench --game gomoku`: middle games of freestyle 15x15 (from Kibitz's own games),
// each given as the moves played (a position text), searched through the engine contract
// (engine/bench.hpp, run_engine_bench): the alpha-beta alone to a depth (the node signature),
// or for a time the whole pipeline or the alpha-beta alone (the depth-reached figure).
std::vector<std::string_view> gomoku_bench_positions();

}  // namespace kibitz::engine

#pragma once
// What an alpha-beta search is asked to do (limits), how (technique switches, for ablation),
// what it reports while running (one line per PV) and what it returns.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "search/common/score.hpp"
#include "search/common/tt.hpp"

namespace kibitz::search {

// Hard limits other than time (time comes as a TimeBudget). Zero means "no limit".
struct SearchLimits {
  int depth = 0;            // iterations to complete
  std::uint64_t nodes = 0;  // total nodes over all threads
  int mate = 0;             // stop once a mate in at most this many moves is found
};

// Every technique beyond a plain alpha-beta can be switched off, so its effect is measurable.
// The defaults are the full engine; `plain()` is the M3 baseline (iterative deepening,
// transposition table cut-offs and TT move first, quiescence, nothing else).
struct SearchOptions {
  bool tt_cutoffs = true;         // return TT scores of deep-enough entries at non-PV nodes
  bool tt_move = true;            // search the TT move first
  bool mvv_lva = true;            // captures by most valuable victim / least valuable attacker
  bool killers = true;            // two quiet cut-off moves per ply
  bool history = true;            // butterfly history for quiet moves (with ageing)
  bool see = true;                // losing captures after quiets; skipped in quiescence
  bool pvs = true;                // null-window search of non-first moves, re-search on fail high
  bool aspiration = true;         // narrow root window around the previous score
  bool null_move = true;          // null-move pruning (adaptive R, verification at high depth)
  bool lmr = true;                // late move reductions
  bool reverse_futility = true;   // static null move: eval - margin * depth >= beta at low depth
  bool late_move_pruning = true;  // skip late quiet moves at shallow non-PV nodes
  bool iir = true;                // internal iterative reduction: no TT move, one ply less
  bool check_extension = true;    // extend moves that give check by one ply (a game's engine
                                  // may start with it off: default_options<G>)
  bool quiescence = true;         // captures-only search at the horizon
  // Issue 29's patches; each acts only where the game's SearchTraits supply what it needs
  // (chess does; see search/alphabeta/alphabeta.hpp).
  bool continuation_history = true;  // quiets ordered by the moves one and two plies back
  bool improving = true;             // prune more where the static eval fell since our last move
  bool futility = true;              // skip quiets whose eval plus a margin cannot reach alpha
  bool see_pruning = true;           // skip moves losing material by SEE at low depth
  bool singular = true;              // extend a TT move all others fail below (multi-cut)
  bool probcut = false;              // a capture beating beta + margin, reduced (off: WAC)
  bool correction_history = true;    // static eval corrected by pawn-structure history
  bool node_time = true;             // time: stop sooner when the best move took most nodes
  bool history_pruning = true;       // skip quiets whose histories are far below zero
  bool capture_history = false;      // captures ordered by MVV-LVA and their cut-off history (off:
                                     // +14 [-2, +30] over 810 games, short of the SPRT)
  int multipv = 1;
  int threads = 1;

  // Seed parameters (004 M4 plan): aspiration delta 50 cp from depth 5, doubling, full window
  // once the delta passes 1000; LMR from the 4th move at depth >= 3.
  int aspiration_delta = 50;
  int aspiration_min_depth = 5;
  int null_min_depth = 3;
  int null_verify_depth = 12;  // verification search from this depth
  int lmr_min_depth = 3;
  int lmr_min_moves = 3;  // moves searched at full depth before reducing

  static SearchOptions plain() {
    SearchOptions o;
    o.mvv_lva = o.killers = o.history = o.see = o.pvs = o.aspiration = o.null_move = o.lmr =
        o.reverse_futility = o.late_move_pruning = o.iir = o.check_extension =
            o.continuation_history = o.improving = o.futility = o.see_pruning = o.singular =
                o.probcut = o.correction_history = o.node_time = o.capture_history =
                    o.history_pruning = false;
    return o;
  }
  // Switches a technique by name ("null_move", "lmr", ...); false when the name is unknown.
  bool set(std::string_view name, bool on);
  std::optional<bool> get(std::string_view name) const;  // none for an unknown name
  static std::span<const std::string_view> technique_names();
};

// Counters for the seed's success criteria (move-ordering quality, pruning activity).
struct SearchStats {
  std::uint64_t nodes = 0;
  std::uint64_t qnodes = 0;
  std::uint64_t cutoffs = 0;
  std::uint64_t first_move_cutoffs = 0;
  std::uint64_t tt_hits = 0;
  std::uint64_t null_tries = 0;
  std::uint64_t null_cutoffs = 0;
  std::uint64_t lmr_reductions = 0;
  std::uint64_t lmr_researches = 0;
  void add(const SearchStats& o);
};

// One principal variation as reported during the search.
template <class Move>
struct PvInfo {
  int depth = 0;
  int seldepth = 0;
  int multipv = 1;  // 1-based
  Score score = 0;
  Bound bound = Bound::kExact;  // kLower / kUpper while an aspiration window failed
  std::uint64_t nodes = 0;
  std::int64_t time_ms = 0;
  int hashfull = 0;
  std::span<const Move> pv;
};

template <class Move>
struct SearchResult {
  Move best = Move::none();
  Move ponder = Move::none();  // the expected reply (second PV move), none if unknown
  Score score = 0;
  int depth = 0;  // last completed iteration
  int seldepth = 0;
  std::uint64_t nodes = 0;
  std::int64_t time_ms = 0;
  bool exceeded = false;  // the hard time limit was hit
  std::vector<Move> pv;
  std::vector<std::uint64_t> nodes_per_depth;  // cumulative nodes after each iteration
  SearchStats stats;
};

template <class Move>
using InfoCallback = std::function<void(const PvInfo<Move>&)>;

}  // namespace kibitz::search

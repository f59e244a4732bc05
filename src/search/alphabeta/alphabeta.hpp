#pragma once
// Alpha-beta written once against the game concepts (DESIGN.md): negamax with PVS,
// iterative deepening, aspiration windows, a shared lockless transposition table,
// quiescence over the game's tactical moves, mate-distance scores, triangular PV, Multi-PV,
// staged move picking (TT move, MVV-LVA captures, killers, history quiets, losing captures),
// null-move pruning with verification, late move reductions, reverse futility pruning and
// check extensions. Each technique is switchable (SearchOptions) for ablation.
//
// Required of G: TwoPlayerZeroSum, Undoable, a 16-bit Move with Move::none(); the leaf value
// comes from the evaluator E (evaluator.hpp; by default G's own evaluate(), HasEval), one per
// search thread, told of every make / unmake.
// Optional static hooks in SearchTraits<G> (detected with `requires`):
//   generate_tactical(s, MoveList&) / generate_quiet(s, MoveList&)  staged generation; in
//                                     check the two together must yield exactly the evasions
//   generate_quiescence(s, MoveList&) the quiescence moves when not in check, if narrower
//                                     than the tactical stage
//   quiescence_win(s&)                plies to a win the game proves cheaply (0: none),
//                                     asked where standing pat does not reach beta
//   is_tactical(s, m), mvv_lva(s, m), see_ge(s, m, threshold)      ordering and pruning
//   quiet_value(s, m)                 static order of quiet moves, added to history
//   is_legal(s, m)                    validates TT and killer moves before generating
//   is_search_draw(s)                 repetition / rule draws (then is_terminal() is not
//                                     called per node; terminal = no legal moves)
//   no_moves_result(s)                -1 / 0 / +1 for the side to move when it has no moves
//   null_move_safe(s)                 false where zugzwang is likely (no null move there)
//   gives_check(s, m)                 the move checks, told before it is made
//   late_move_limit(s, depth)         move-count pruning: quiet moves past this count are
//                                     skipped at every depth (and at PV nodes from ply 2),
//                                     instead of the default's shallow non-PV pruning
// Hooks of the later patches (issue 29), each switchable; a game without the hook is searched
// as before:
//   kPieceToSize, piece_to(s, m)      continuation history (1 and 2 plies back) for quiets
//   correction_key(s)                 correction history of the static evaluation
//   kImprovingPruning                 an improving eval loosens RFP, LMP and LMR
//   kFutilityBase / PerPly / Depth    futility pruning of quiet moves (parent node)
//   kSeePruneQuiet / Capture / Depth  SEE pruning of moves at low depth
//   kSingularMinDepth                 singular extension of the TT move, with multi-cut
//   kProbCutMargin                    ProbCut: a good capture beating beta + margin
//   kNodeShareTime                    the soft time target shrinks with the best move's
//                                     share of the root's nodes
//   kCaptureHistorySize,              capture history: tactical moves ordered by MVV-LVA
//   capture_index(s, m)               plus how often the same capture cut off before
//   kHistoryPruneDepth / Scale        history pruning of shallow quiets (needs piece_to)
// Tunables with defaults in DefaultSearchTraits: kNullMoveBase / DepthDivisor / EvalCap (the
// null move's R). kAspirationDelta and kCheckExtension set the engine's starting options
// (default_options<G>).
// Template bodies are in alphabeta_impl.hpp, instantiated per game in src/engine/.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "api/concepts.hpp"
#include "core/fixed_vector.hpp"
#include "core/time_budget.hpp"
#include "search/alphabeta/evaluator.hpp"
#include "search/common/history.hpp"
#include "search/common/limits.hpp"
#include "search/common/score.hpp"
#include "search/common/tt.hpp"

namespace kibitz::search {

// A game's engine starts from SearchOptions' defaults with what its traits change
// (kCheckExtension: chess measured better without extending checks, gomoku's "checks" are
// fours and stay extended; kAspirationDelta: the first window).
template <class G>
SearchOptions default_options() {
  SearchOptions o;
  if constexpr (requires { SearchTraits<G>::kCheckExtension; })
    o.check_extension = SearchTraits<G>::kCheckExtension;
  if constexpr (requires { SearchTraits<G>::kAspirationDelta; })
    o.aspiration_delta = SearchTraits<G>::kAspirationDelta;
  return o;
}

template <class G>
concept AlphaBetaGame = TwoPlayerZeroSum<G> && Undoable<G> && requires {
  { G::Move::none() } -> std::same_as<typename G::Move>;
};
// A game and an evaluator of it the alpha-beta can search with.
template <class G, class E>
concept AlphaBetaSetup = AlphaBetaGame<G> && AlphaBetaEvaluator<E, G>;

template <class G, class E = GameEval<G>>
requires AlphaBetaSetup<G, E>
class AlphaBeta {
 public:
  using Move = typename G::Move;
  using Traits = SearchTraits<G>;

  struct RootMove {
    Move move = Move::none();
    Score score = -kInfinite;
    Score previous = -kInfinite;
    int seldepth = 0;
    std::uint64_t nodes = 0;  // spent under this move in the current search (time management)
    FixedVector<Move, kMaxSearchPly> pv;
  };

  // thread_id 0 is the main thread: it checks the clock and node limit, reports, and decides
  // when to stop; helpers (Lazy SMP) only share the transposition table and obey the stop.
  AlphaBeta(TranspositionTable& tt, const SearchOptions& options, int thread_id = 0,
            const E& eval = E());

  // Forgets killers and history (a new game); searches otherwise only age them.
  void clear();
  void set_options(const SearchOptions& options) { options_ = options; }
  // Helpers whose nodes count towards the node limit (set by the parallel driver).
  void set_peers(std::span<AlphaBeta* const> peers) { peers_ = peers; }

  // Iterative deepening from `root` until a limit, the budget or budget.request_stop() ends
  // it. Returns the last completed iteration's answer (a legal move whenever one exists), or
  // the root move that raised alpha in the iteration the stop cut short (its score and line
  // at that depth).
  SearchResult<Move> run(const G& root, const SearchLimits& limits, TimeBudget& budget,
                         std::span<const Move> searchmoves = {},
                         const InfoCallback<Move>* info = nullptr);

  std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
  const SearchStats& stats() const { return stats_; }

 private:
  enum class Node { kRoot, kPv, kNonPv };
  template <Node NT>
  Score search(int depth, Score alpha, Score beta, int ply, bool cut_node);
  template <bool Pv>
  Score qsearch(Score alpha, Score beta, int ply);

  static constexpr int cont_size() {
    if constexpr (requires { Traits::kPieceToSize; })
      return Traits::kPieceToSize;
    else
      return 1;
  }
  using ContHistory = ContinuationHistory<cont_size()>;
  static constexpr bool kHasCont = requires(const G& s, Move m) { Traits::piece_to(s, m); };
  static constexpr bool kHasCorrection = requires(const G& s) { Traits::correction_key(s); };
  static constexpr int capture_size() {
    if constexpr (requires { Traits::kCaptureHistorySize; })
      return Traits::kCaptureHistorySize;
    else
      return 1;
  }
  static constexpr bool kHasCaptureHistory = requires(const G& s, Move m) {
    Traits::capture_index(s, m);
  };
  // The capture-history row of the side to move at `ply`, or null where it is not used.
  const std::int32_t* capture_row(int ply) const {
    return kHasCaptureHistory && options_.capture_history ? capture_history_.row(mover_at(ply))
                                                          : nullptr;
  }

  int mover_at(int ply) const { return (root_player_ + ply) & 1; }
  bool use_cont() const { return kHasCont && options_.continuation_history && options_.history; }
  // The continuation-history row for the move about to be played at `ply` (none: null move).
  void set_cont_row(int ply, Move m) {
    if constexpr (kHasCont) cont_row_[ply + 2] = cont_history_.row(Traits::piece_to(state_, m));
  }
  // The static evaluation with the correction history applied (mates left alone).
  Score corrected(Score raw, int ply) const;
  Score terminal_score(int ply);   // the side to move has no moves
  Score game_over_score(int ply);  // is_terminal(): by the returns
  Score evaluate() { return static_cast<Score>(eval_.evaluate(state_)); }
  // The game's make / unmake with the evaluator told.
  void make(Move m, typename G::Undo& u) {
    eval_.make(state_, m);
    state_.make(m, u);
  }
  void unmake(Move m, const typename G::Undo& u) {
    state_.unmake(m, u);
    eval_.unmake(state_, m);
  }
  bool is_quiet(Move m) const;
  void count_node();
  std::uint64_t total_nodes() const;
  void update_quiet_stats(Move best, int depth, int ply, std::span<const Move> tried);
  // A cut-off's capture history: `best` (none: the cut was quiet) up, `tried` down.
  void update_capture_stats(Move best, int depth, int ply, std::span<const Move> tried);
  int quiet_stat(Move m, int ply) const;  // history + continuation history of a quiet move
  void report(int depth, const TimeBudget& budget, int pv_index, Bound bound) const;
  void sort_root(std::size_t from);

  TranspositionTable& tt_;
  SearchOptions options_;
  int thread_id_;
  std::span<AlphaBeta* const> peers_;

  G state_;
  E eval_;
  int root_player_ = 0;
  int root_depth_ = 0;
  int seldepth_ = 0;
  std::size_t pv_index_ = 0;
  // The root move that last raised alpha in the iteration under way (none yet): when time
  // ends the iteration, a move proven better than the first one at the new depth is played.
  Move iteration_best_ = Move::none();
  int null_disabled_from_ply_ = 0;  // verification search: no null move below this ply
  bool aborted_ = false;
  bool depth_one_done_ = false;
  TimeBudget* budget_ = nullptr;
  const SearchLimits* limits_ = nullptr;
  const InfoCallback<Move>* info_ = nullptr;

  std::atomic<std::uint64_t> nodes_{0};
  SearchStats stats_;
  std::vector<RootMove> root_moves_;
  Killers<Move> killers_;
  ButterflyHistory<Traits::kHistorySize> history_;
  ContHistory cont_history_;
  ButterflyHistory<capture_size()> capture_history_;
  // cont_row_[ply + 2]: the row of the move played at ply (two sentinel plies before the root).
  std::array<typename ContHistory::Row*, kMaxSearchPly + 4> cont_row_{};
  CorrectionHistory correction_;
  std::array<Move, kMaxSearchPly + 2> excluded_{};  // singular search: the move left out
  std::array<Score, kMaxSearchPly + 2> static_eval_{};
  std::array<bool, kMaxSearchPly + 2> null_move_at_{};
  // Triangular PV table: pv_[ply] holds the line from ply on.
  std::array<std::array<Move, kMaxSearchPly + 1>, kMaxSearchPly + 1> pv_{};
  std::array<int, kMaxSearchPly + 1> pv_length_{};
  static std::array<std::array<std::uint8_t, 64>, 64> reductions_;
};

// Lazy SMP: one AlphaBeta per thread over a shared table; the main thread's answer is
// returned. Owns its workers, so killers and history persist between searches.
template <class G, class E = GameEval<G>>
requires AlphaBetaSetup<G, E>
class ParallelSearch {
 public:
  using Move = typename G::Move;
  // Each thread's evaluator starts as a copy of `eval`.
  ParallelSearch(TranspositionTable& tt, const SearchOptions& options, const E& eval = E());
  ParallelSearch(const ParallelSearch&) = delete;
  ParallelSearch& operator=(const ParallelSearch&) = delete;

  void set_options(const SearchOptions& options);  // threads included; not during a search
  void set_evaluator(const E& eval);               // new workers with copies of it; likewise
  void clear();
  SearchResult<Move> run(const G& root, const SearchLimits& limits, TimeBudget& budget,
                         std::span<const Move> searchmoves = {},
                         const InfoCallback<Move>* info = nullptr);

 private:
  TranspositionTable& tt_;
  SearchOptions options_;
  E eval_;
  std::vector<std::unique_ptr<AlphaBeta<G, E>>> owned_;
  std::vector<AlphaBeta<G, E>*> workers_;  // the same, as the peers span each worker sees
};

}  // namespace kibitz::search

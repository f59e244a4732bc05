#pragma once
// The game concepts every search is written against (DESIGN.md, "The game concepts"). A game
// satisfies `Game`; algorithms ask for the capabilities they need and pick up optional hooks
// with `if constexpr (requires { ... })`. The taxonomy follows OpenSpiel's: sequential or
// simultaneous, deterministic or with chance, perfect or imperfect information, zero-sum or
// general-sum.
#include <array>
#include <bit>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "core/fixed_vector.hpp"
#include "core/rng.hpp"

namespace kibitz {

// current_player() values that are not a seat index.
inline constexpr int kTerminalPlayer = -4;
inline constexpr int kChancePlayer = -1;
inline constexpr int kSimultaneousPlayer = -2;

// A caller-owned buffer big enough for every legal move of G.
template <class G>
using MoveList = FixedVector<typename G::Move, G::kMaxMoves>;

// Per-player outcome of a finished game (zero-sum games: the values sum to zero).
template <class G>
using Returns = std::array<double, G::kMaxPlayers>;

// The common core: a state with legal moves into a caller-owned buffer, copy-make, and an
// incremental Zobrist hash.
template <class G>
concept Game = std::copyable<G> && requires {
  typename G::Move;
} && std::is_trivially_copyable_v<typename G::Move> && std::equality_comparable<typename G::Move> &&
    requires(const G& cs, G& s, MoveList<G>& buf, typename G::Move m) {
  { G::kMaxMoves } -> std::convertible_to<std::size_t>;
  { G::kMaxPlayers } -> std::convertible_to<int>;
  { cs.current_player() } -> std::convertible_to<int>;
  { cs.is_terminal() } -> std::same_as<bool>;
  { cs.returns() } -> std::convertible_to<Returns<G>>;
  { cs.legal_moves(buf) } -> std::convertible_to<std::size_t>;
  { s.apply(m) } -> std::same_as<void>;
  { cs.hash() } -> std::same_as<std::uint64_t>;
};

// Two players, strictly opposed outcomes: what alpha-beta needs.
template <class G>
concept TwoPlayerZeroSum = Game<G> && G::kMaxPlayers == 2 && requires {
  requires G::kZeroSum == true;
};

// make / unmake with a caller-owned undo record (cheaper than copy-make in deep searches).
template <class G>
concept Undoable = Game<G> && requires(G& s, typename G::Move m, typename G::Undo& u) {
  typename G::Undo;
  { s.make(m, u) } -> std::same_as<void>;
  { s.unmake(m, u) } -> std::same_as<void>;
};

// A static evaluation from the side to move's point of view.
template <class G>
concept HasEval = Game<G> && requires(const G& s) {
  { s.evaluate() } -> std::convertible_to<int>;
};

// Passing the move (null-move pruning); in_check tells when that would be illegal.
template <class G>
concept HasNullMove = Undoable<G> && requires(G& s, const G& cs, typename G::Undo& u) {
  { s.make_null(u) } -> std::same_as<void>;
  { s.unmake_null(u) } -> std::same_as<void>;
  { cs.in_check() } -> std::same_as<bool>;
};

// A canonical hash equal for all board symmetries of a position (Go, gomoku).
template <class G>
concept Symmetric = Game<G> && requires(const G& s) {
  { s.sym_hash() } -> std::same_as<std::uint64_t>;
  { G::kNumSymmetries } -> std::convertible_to<int>;
};

// Threat-space search (VCF / VCT): forcing moves, the answers to them, and the two questions
// every node asks — can the side to move win at once, and can its opponent?
template <class G>
concept ThreatGame = Undoable<G> && requires(const G& s, MoveList<G>& buf) {
  { s.four_moves(buf) } -> std::convertible_to<std::size_t>;     // threats to win next move
  { s.threat_moves(buf) } -> std::convertible_to<std::size_t>;   // fours and free threes
  { s.defence_moves(buf) } -> std::convertible_to<std::size_t>;  // answers to the opponent's
  { s.winning_move() } -> std::same_as<typename G::Move>;        // wins at once, or none()
  { s.opponent_can_win() } -> std::same_as<bool>;  // the opponent has a winning move now
  { s.winner() } -> std::convertible_to<int>;      // at a terminal state: seat, or -1 (draw)
};

// Chance nodes: at a chance node current_player() is kChancePlayer and the outcomes carry
// probabilities.
template <class G>
concept Stochastic = Game<G> && requires(const G& s, MoveList<G>& buf, double* probs) {
  { s.is_chance_node() } -> std::same_as<bool>;
  { s.chance_outcomes(buf, probs) } -> std::convertible_to<std::size_t>;
};

// Imperfect information: what a player knows, and a full state drawn consistently with it.
template <class G>
concept ImperfectInfo = Game<G> && requires(const G& s, int player, Rng& rng) {
  typename G::InfoState;
  { s.information_state(player) } -> std::convertible_to<typename G::InfoState>;
  { s.sample_world(player, rng) } -> std::convertible_to<G>;
};

// Simultaneous moves: every player picks an action, then all are resolved together
// (current_player() returns kSimultaneousPlayer while actions are due). Slim: nothing of the
// sequential Game (no legal_moves, no apply) is asked of it; a game may be both.
template <class G>
concept Simultaneous = std::is_trivially_copyable_v<typename G::Move> &&
    requires(const G& cs, G& s, int player, MoveList<G>& buf,
             std::span<const typename G::Move> joint) {
  { G::kMaxPlayers } -> std::convertible_to<int>;
  { cs.current_player() } -> std::convertible_to<int>;
  { cs.is_terminal() } -> std::same_as<bool>;
  { cs.returns() } -> std::same_as<Returns<G>>;
  { cs.hash() } -> std::same_as<std::uint64_t>;
  { cs.legal_actions(player, buf) } -> std::convertible_to<std::size_t>;
  { s.apply_joint(joint) } -> std::same_as<void>;
};

// Per-game tunables and optional hooks for the generic searches. A game specialises
// SearchTraits<G>, inheriting DefaultSearchTraits<G> and overriding what it needs; searches
// detect optional static hooks with `requires` (staged move generation, move-ordering values,
// static exchange, search draws, zugzwang safety: see search/alphabeta/alphabeta.hpp).
template <class G>
struct DefaultSearchTraits {
  static constexpr int kMaxPly = 128;
  // History tables: how many move indices, and a move's index.
  static constexpr int kHistorySize = 1 << 16;
  static int history_index(typename G::Move m) {
    static_assert(sizeof(typename G::Move) == 2, "default history index wants a 16-bit move");
    return std::bit_cast<std::uint16_t>(m);
  }
  // Alpha-beta tunables (scores in the game's evaluation units).
  static constexpr int kReverseFutilityMargin = 150;  // per ply of remaining depth
  static constexpr int kReverseFutilityDepth = 6;
  static constexpr double kLmrBase = 0.75;
  static constexpr double kLmrDivisor = 2.25;
  // Null move: R = base + depth / divisor + min((eval - beta) / 200, cap).
  static constexpr int kNullMoveBase = 3;
  static constexpr int kNullMoveDepthDivisor = 6;
  static constexpr int kNullMoveEvalCap = 2;
};

template <class G>
struct SearchTraits : DefaultSearchTraits<G> {};

}  // namespace kibitz

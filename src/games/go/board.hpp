#pragma once
// Go rules: a position on a 5x5 .. 19x19 board with exact chain liberties kept incrementally,
// captures, optional suicide, simple ko and positional superko, passes, resignation, area
// (Tromp-Taylor / Chinese) scoring with komi, handicap and setup stones, an incremental
// Zobrist hash and a hash that is the same for all 8 board symmetries.
//
// The board is padded with a wall so that neighbours need no bounds checks: the point (x, y)
// (x = column from the left, y = row from the bottom, both 0-based, as GTP counts them) is
// sq = (y + 1) * kStride + x + 1, whatever the board size (smaller boards leave the rest of
// the 21x21 array as wall). Point 0 is a wall, so Move{0} means "no move".
//
// Chains are circular linked lists of stones with a head (representative) per stone; the head
// holds the chain's stone count and its exact number of liberties (distinct empty points).
// Copy-make only (no Undoable): a capture splits nothing but a later unmake would have to
// split merged chains, and MCTS copies anyway. A Position is about 14 KB of flat arrays, most
// of it the superko history, which a copy copies only up to its length: a copy moves about
// 5.6 KB plus 8 bytes per move played.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "api/concepts.hpp"
#include "core/error.hpp"

namespace kibitz::go {

inline constexpr int kMinSize = 5;
inline constexpr int kMaxSize = 19;
inline constexpr int kStride = kMaxSize + 2;
inline constexpr int kNumPoints = kStride * kStride;  // padded array, walls included
inline constexpr int kMaxBoardPoints = kMaxSize * kMaxSize;

inline constexpr int point_of(int x, int y) { return (y + 1) * kStride + x + 1; }
inline constexpr int x_of(int sq) { return sq % kStride - 1; }
inline constexpr int y_of(int sq) { return sq / kStride - 1; }
// The 4 orthogonal and 4 diagonal steps.
inline constexpr std::array<int, 4> kNeighbourSteps = {-kStride, -1, 1, kStride};
inline constexpr std::array<int, 4> kDiagonalSteps = {-kStride - 1, -kStride + 1, kStride - 1,
                                                      kStride + 1};
inline constexpr std::array<int, 4> neighbours(int sq) {
  return {sq - kStride, sq - 1, sq + 1, sq + kStride};
}

enum Color : std::uint8_t { kBlack = 0, kWhite = 1, kEmpty = 2, kWall = 3 };
inline constexpr Color opponent(Color c) { return c == kBlack ? kWhite : kBlack; }

// Move values outside the board: pass and resign (Move{0}, a wall, is "no move").
inline constexpr std::uint16_t kNoPoint = 0;
inline constexpr std::uint16_t kPass = kNumPoints;
inline constexpr std::uint16_t kResign = kNumPoints + 1;

struct Move {
  std::uint16_t sq = kNoPoint;
  static constexpr Move none() { return Move{kNoPoint}; }
  static constexpr Move pass() { return Move{kPass}; }
  static constexpr Move resign() { return Move{kResign}; }
  static constexpr Move at(int x, int y) {
    return Move{static_cast<std::uint16_t>(point_of(x, y))};
  }
  constexpr bool is_pass() const { return sq == kPass; }
  constexpr bool is_resign() const { return sq == kResign; }
  constexpr bool is_point() const { return sq != kNoPoint && sq < kNumPoints; }
  friend constexpr bool operator==(Move, Move) = default;
};

struct Rules {
  int size = 19;               // 5..19 (clamped into that range)
  double komi = 7.5;           // added to white's area
  bool allow_suicide = false;  // when allowed, the suicided chain counts as captured
  bool superko = true;         // positional superko (side to move not part of the position)
  // The game also ends, scored as it stands, after this many plies (moves and passes): random
  // playouts then always terminate and the superko history has a fixed capacity. 0: the
  // default, min(3 * size^2, capacity); larger values are clamped to the capacity.
  int max_moves = 0;
};

// Why a move is not legal (kLegal when it is).
enum class Illegal : std::uint8_t {
  kLegal,
  kGameOver,
  kOffBoard,
  kOccupied,
  kKo,
  kSuicide,
  kSuperko
};
std::string_view illegal_text(Illegal why);  // "occupied", "ko", ...

// The 8 board symmetries: t in 0..7, bit 0 transposes (swaps x and y), then bit 1 mirrors x,
// bit 2 mirrors y. Pass, resign and "no move" map to themselves.
int transform_point(int sq, int t, int size);
// The transform undoing t: transform_point(transform_point(sq, t, n), inverse_transform(t), n)
// is sq.
int inverse_transform(int t);
inline Move transform_move(Move m, int t, int size) {
  return m.is_point() ? Move{static_cast<std::uint16_t>(transform_point(m.sq, t, size))} : m;
}

class Position {
 public:
  using Move = go::Move;
  static constexpr std::size_t kMaxMoves = kMaxBoardPoints + 1;  // every point plus pass
  static constexpr int kMaxPlayers = 2;
  static constexpr bool kZeroSum = true;
  static constexpr int kNumSymmetries = 8;
  static constexpr int kHistoryCapacity = 1024;  // board positions remembered for superko

  explicit Position(Rules rules = {});

  const Rules& rules() const { return rules_; }
  int size() const { return rules_.size; }
  double komi() const { return rules_.komi; }
  void set_komi(double komi) { rules_.komi = komi; }
  int max_moves() const { return max_moves_; }

  // --- the Game concept ---
  int current_player() const { return is_terminal() ? kTerminalPlayer : to_move_; }
  bool is_terminal() const { return passes_ >= 2 || resigned_ != kNoColor || moves_ >= max_moves_; }
  // {black, white}: +1 / -1 for the winner, {0, 0} for a tie on the board (integer komi). From
  // the resignation when there was one, else from score(). Meant for terminal positions.
  Returns<Position> returns() const;
  // Every legal point (in board order) and pass; none at a terminal position.
  std::size_t legal_moves(MoveList<Position>& out) const;
  // Plays a legal move (points, pass or resign; checked only by assert). A resignation is by
  // the side to move and ends the game.
  void apply(Move m);
  std::uint64_t hash() const { return hash_; }
  // The same key from scratch: stones, side to move, ko point, and whether the last move (or
  // the last two) was a pass, since that decides whether the next pass ends the game.
  std::uint64_t compute_hash() const;

  // --- symmetries ---
  // One value for the position and its 8 transforms: the least over t of the Zobrist key of
  // the transformed stones, side to move, ko point (transformed: it changes which moves are
  // legal) and pass state. Computed on demand, O(stones).
  std::uint64_t sym_hash() const;
  // A transform t whose key is sym_hash() (the least t when several are): transformed(t) is
  // the canonical orientation in which stored analyses (moves, policies) are kept.
  int canonical_transform() const;
  // The position under transform t. The superko history cannot be transformed (it holds
  // hashes): the result remembers only its own current board.
  Position transformed(int t) const;

  // --- legality and playing with reasons ---
  Illegal check(Move m) const;  // for the side to move
  bool is_legal(Move m) const { return check(m) == Illegal::kLegal; }
  // apply() for input from outside (GTP, SGF): an error naming the move and the reason.
  Result<void> play(Move m);

  // --- setup (SGF AB/AW, handicap) ---
  // Puts a stone on the board without a move: no captures, no change of side to move; the
  // superko history's current entry is replaced, the ko point cleared. An error when the point
  // is off the board or occupied, or the stone would leave a chain without liberties.
  Result<void> place_stone(Color c, int sq);
  void set_to_move(Color c);
  // After two passes, play on (GTP controllers send moves after the passes for KGS cleanup
  // or a GUI's "continue"): the pass count is cleared, nothing else changes. False when the
  // game did not end by passes (a resignation or the move cap stays final).
  bool resume_after_passes();
  // Handicap on an empty board before any move: black stones, then white to move. Fixed
  // placement follows GTP v2 (section 4.1.1): 2..9 stones on odd sizes from 9x9, 2..4 on 7x7
  // and even sizes from 8x8, none smaller.
  Result<void> set_fixed_handicap(int stones);
  Result<void> set_free_handicap(std::span<const int> points);
  // The fixed handicap points for a board size, in the GTP spec's order.
  static Result<std::vector<int>> fixed_handicap_points(int size, int stones);

  // --- scoring ---
  // Area: stones of the colour plus empty regions that touch only that colour.
  std::array<int, 2> area() const;
  // Black's area minus white's area minus komi.
  double score() const;
  // For every point of the padded array: the colour whose area it is, kEmpty for neutral
  // points (dame, seki liberties, regions touching no stone), kWall off the board.
  void area_map(std::array<Color, kNumPoints>& owner) const;
  int resigned() const { return resigned_; }  // the colour that resigned, or -1
  // The winner at a terminal position: kBlack, kWhite, or -1 for a tie.
  int winner() const;

  // --- fast queries (no allocation) ---
  Color to_move() const { return static_cast<Color>(to_move_); }
  Color at(int sq) const { return static_cast<Color>(color_[sq]); }
  bool on_board(int sq) const { return sq > 0 && sq < kNumPoints && color_[sq] != kWall; }
  int chain_head(int sq) const { return head_[sq]; }  // same value for all stones of a chain
  int liberties(int sq) const { return is_stone(sq) ? libs_[head_[sq]] : 0; }
  int chain_size(int sq) const { return is_stone(sq) ? size_[head_[sq]] : 0; }
  int next_in_chain(int sq) const { return next_[sq]; }  // circular
  // The side to move's move at an empty point would capture something.
  bool captures(Move m) const;
  // Liberties the side to move's chain through an empty point would have after playing it
  // (captures included), counted up to `limit`.
  int liberties_after(int sq, int limit = 2) const;
  // Distinct liberties of the chain through the stone at sq, in the order a walk of the chain
  // meets them, until `out` is full; returns how many were written.
  int chain_liberties(int sq, std::span<int> out) const;
  // A legal move after which its own chain has exactly one liberty.
  bool is_self_atari(Move m) const;
  // A simple eye of colour c: an empty point whose 4 neighbours are c or wall, with at most one
  // diagonal point of the other colour in the middle of the board and none when the point is
  // on the edge or in a corner (a true eye in all but rare cases; playouts do not fill them).
  bool is_eye(int sq, Color c) const;
  std::span<const std::uint16_t> empty_points() const {  // in no particular order
    return {empty_.data(), static_cast<std::size_t>(num_empty_)};
  }
  int stones_on_board() const { return size() * size() - num_empty_; }
  int ko_point() const { return ko_; }    // point the side to move may not retake, or 0
  int passes() const { return passes_; }  // consecutive passes just played
  int moves_played() const { return moves_; }
  Move last_move() const { return Move{last_move_}; }
  Move previous_move() const { return Move{prev_move_}; }   // the move before last_move()
  int captured(Color c) const { return captured_[c]; }      // stones c has taken
  std::uint64_t stone_hash() const { return stone_hash_; }  // the stones alone (superko key)
  int history_size() const { return static_cast<int>(history_.n); }

  // A diagram: columns A..T without I, rows numbered from the bottom as GTP does; X black,
  // O white, . empty.
  std::string to_string() const;

 private:
  static constexpr std::int8_t kNoColor = -1;

  // Stones seen on the board since the game began (stone hashes), with a 4096-bit filter so
  // that most superko checks need no scan. The copy copies only what is used.
  struct History {
    std::uint32_t n = 0;
    std::array<std::uint64_t, 64> filter{};
    std::array<std::uint64_t, kHistoryCapacity> h;  // uninitialised beyond n
    History() {}
    History(const History& o);
    History& operator=(const History& o);
    void clear() {
      n = 0;
      filter.fill(0);
    }
    void push(std::uint64_t key);
    void replace_last(std::uint64_t key);
    bool contains(std::uint64_t key) const;
  };

  bool is_stone(int sq) const { return color_[sq] <= kWhite; }
  void place_and_merge(int sq, Color c);             // stone, liberties, merges; no captures
  void merge(int a, int b);                          // two chains of one colour (heads)
  int liberties_after_setup(int sq, Color c) const;  // 0 or 1: would a stone there have any
  int remove_chain(int head);                        // returns the stones removed
  std::uint64_t chain_key(int head) const;
  void add_empty(int sq);
  void remove_empty(int sq);
  void refresh_hash();
  std::uint64_t key_for(int t) const;  // compute_hash() of the transform t

  Rules rules_;
  int max_moves_ = 0;
  std::array<std::uint8_t, kNumPoints> color_;
  std::array<std::uint16_t, kNumPoints> head_;  // chain head of a stone; 0 elsewhere
  std::array<std::uint16_t, kNumPoints> next_;  // next stone of the chain (circular)
  std::array<std::uint16_t, kNumPoints> libs_;  // at a head: the chain's liberties
  std::array<std::uint16_t, kNumPoints> size_;  // at a head: the chain's stones
  std::array<std::uint16_t, kMaxBoardPoints> empty_;
  std::array<std::uint16_t, kNumPoints> empty_index_;
  int num_empty_ = 0;
  std::uint64_t stone_hash_ = 0;
  std::uint64_t hash_ = 0;
  std::uint16_t ko_ = kNoPoint;
  std::uint16_t last_move_ = kNoPoint;
  std::uint16_t prev_move_ = kNoPoint;
  std::uint8_t to_move_ = kBlack;
  std::uint8_t passes_ = 0;
  std::int8_t resigned_ = kNoColor;
  int moves_ = 0;
  std::array<int, 2> captured_{};
  History history_;
};

// GTP vertices: "D4" (column letter A..T without I, row number from the bottom), "pass",
// "resign"; case-insensitive. The error names what is wrong and the vertex.
Result<Move> parse_vertex(std::string_view text, int size);
std::string to_vertex(Move m, int size);

}  // namespace kibitz::go

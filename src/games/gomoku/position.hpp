#pragma once
// Gomoku: a board of 15x15 to 20x20 under one of four rule sets (freestyle, exact five, renju,
// and the capture variant "Ninuki": pairs are captured, ten captured stones win, a five can
// be broken by a capture, no double free-three). Make / unmake with captures; an incremental
// Zobrist hash (capture counts included); and an incremental pattern state per line so that
// evaluation and threat detection are O(1) per square and direction.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "api/concepts.hpp"
#include "core/error.hpp"

namespace kibitz::gomoku {

namespace detail {
struct EvalTables;
}

enum class Rule : std::uint8_t { kFreestyle, kExactFive, kRenju, kCapture };
std::string_view rule_name(Rule r);  // "freestyle", "exact5", "renju", "capture"
Result<Rule> parse_rule(std::string_view name);
// Gomocup's `INFO rule` bits: 16 (Kibitz's extension) the capture variant, else 4 renju, else
// 1 exact five, else freestyle; other bits do not choose a rule.
Rule rule_from_gomocup_bits(int bits);

struct Variant {
  int size = 15;  // 15..20 (the capture variant defaults to 19 where a caller picks a default)
  Rule rule = Rule::kFreestyle;
  friend constexpr bool operator==(Variant, Variant) = default;
};

enum Color : std::uint8_t { kBlack = 0, kWhite = 1, kEmpty = 2, kWall = 3 };
inline constexpr Color opponent(Color c) { return c == kBlack ? kWhite : kBlack; }

// Squares are indices into a padded board with a wall border: sq = (y + 1) * kStride + x + 1,
// so square 0 (a wall) is never a playable point and Move{0} is "no move".
inline constexpr int kMaxSize = 20;
inline constexpr int kStride = kMaxSize + 1;
inline constexpr int kSquares = (kMaxSize + 2) * kStride + 1;
inline constexpr int square_of(int x, int y) { return (y + 1) * kStride + x + 1; }
inline constexpr int x_of(int sq) { return sq % kStride - 1; }
inline constexpr int y_of(int sq) { return sq / kStride - 1; }
// Step along each of the four line directions: horizontal, vertical, diagonal, anti-diagonal.
inline constexpr std::array<int, 4> kDirections = {1, kStride, kStride + 1, kStride - 1};

struct Move {
  std::uint16_t sq = 0;
  static constexpr Move none() { return Move{}; }
  constexpr explicit operator bool() const { return sq != 0; }
  friend constexpr bool operator==(Move, Move) = default;
};

// What a stone of one colour placed on an empty point makes along one line (the window of 5
// points each side: the fifth tells an exact five from an overline), strongest last. Only
// shapes through the point count: a four elsewhere on the line is not the point's four. "Flex" =
// open at both ends (FlexFour = an open four, which cannot be stopped; FlexThree = a free three,
// which becomes an open four in one move). Gap shapes count: O_OOO and OO_OO are fours, O_OO with
// open ends is a free three. Two fours on one line (XXX_X_XXX: two five points that are not the
// ends of one straight four) also read as kFlexFour (unstoppable; renju counts it as a double
// four).
enum class Pattern : std::uint8_t {
  kNone,
  kDead,  // stones that can no longer make five on this line
  kTwo,
  kFlexTwo,
  kThree,
  kFlexThree,
  kFour,
  kFlexFour,
  kFive,      // a winning five under the rule for that colour (five or more where overlines win)
  kOverline,  // six or more where that does not win (exact five, renju black: forbidden)
};
// pattern() and threat() are kept for every empty point, colour and direction, and updated
// on make / unmake for the points within 5 of a changed stone along its four lines.

// What a point gives one colour over all four lines together, weakest first (the threat
// vocabulary of threat-space search). kFlexFour covers an open four, two fours on one line
// and a double four across lines (all unstoppable). Forbidden points are not told apart
// here: ask is_forbidden().
enum class Threat : std::uint8_t {
  kNone,
  kTwo,        // a two or a flex two
  kThree,      // a closed three (a four next move)
  kTwoTwo,     // two flex twos
  kFlexThree,  // one free three
  kThreeThree,
  kFour,  // one closed four
  kFourThree,
  kFlexFour,
  kFive,
};

class Position {
 public:
  using Move = gomoku::Move;
  static constexpr std::size_t kMaxMoves = kMaxSize * kMaxSize;
  static constexpr int kMaxPlayers = 2;
  static constexpr bool kZeroSum = true;
  static constexpr int kCaptureWin = 10;  // captured stones that win the capture variant

  struct Undo {
    std::uint64_t hash;
    // Captured stones (up to 8 directions x 2) and the state the move may have changed.
    std::array<std::uint16_t, 16> captured;
    std::uint8_t num_captured;
    std::int8_t winner;
    std::uint8_t five_pending;  // capture variant: a five waiting to be broken (see below)
    std::uint16_t five_square;
    std::uint16_t last_move;
    std::int32_t eval_state[2];
    std::array<std::int32_t, 2> parent_score;  // parent_score_ as it was
    // The pattern state the move's stone changed, put back by unmake as it was instead of
    // recomputed (half the cost of make + unmake). Not used after a capture: unmake then
    // recomputes. One cell per point the move touched (the window's and the stone's own):
    // both colours' summaries, values and four line entries as they were.
    struct Cell {
      std::uint16_t sq;
      std::array<std::uint16_t, 2> summary;
      std::array<std::int16_t, 2> contrib;
      std::array<std::uint32_t, 2> entries;  // entry_[colour][sq] as one word
    };
    bool logged;
    std::uint8_t num_cells;
    std::array<Cell, 41> cells;
    // The window's empty points and what the move's stone added to their keys (unmake takes
    // it off again), near (within four) and five away.
    struct Key {
      std::uint16_t index;  // point * 4 + direction
      std::int16_t unit;
    };
    std::array<Key, 32> near;
    std::array<Key, 8> far;
    std::uint8_t num_near;
    std::uint8_t num_far;
    std::array<std::array<std::uint16_t, 4>, 2> stone_keys;  // the move's point's keys
    std::array<std::array<std::int16_t, 11>, 2> count;
    std::array<std::int32_t, 2> capturable;
  };

  explicit Position(Variant v = {});  // sizes outside 15..20 are clamped into it
  // A position from stones played alternately from black (Gomocup / opening lists); the
  // error names the first bad move.
  static Result<Position> from_moves(Variant v, std::span<const std::pair<int, int>> xy);
  // A position from stones without an order (puzzles): no captures are made while placing;
  // an error when a point repeats, is off the board, or a five is already on the board.
  // `captured`: stones each colour has already taken (capture variant).
  static Result<Position> from_setup(Variant v, std::span<const std::pair<int, int>> black,
                                     std::span<const std::pair<int, int>> white, int side_to_move,
                                     std::array<int, 2> captured = {0, 0});

  Variant variant() const { return variant_; }
  int size() const { return variant_.size; }
  Rule rule() const { return variant_.rule; }

  // The Game concept.
  int current_player() const;  // 0 black, 1 white; kTerminalPlayer when over
  bool is_terminal() const;
  Returns<Position> returns() const;  // {black, white}: +1 / -1, 0 for a draw (full board)
  std::size_t legal_moves(MoveList<Position>& out) const;  // empty points, minus forbidden
  void apply(Move m);
  std::uint64_t hash() const { return hash_; }
  std::uint64_t compute_hash() const;  // the same key computed from scratch (tests)
  // The key after m by the side to move, captures and a pending five aside (a guess good
  // enough to prefetch the transposition table's entry while make() runs).
  std::uint64_t hash_after(Move m) const;
  // Symmetric: one value for a position and its 8 board symmetries (rotations and
  // reflections): the least of the 8 Zobrist keys of the transformed stones, with the side to
  // move, capture counts and a pending five. Computed on demand (not on the search's path).
  static constexpr int kNumSymmetries = 8;
  std::uint64_t sym_hash() const;
  // The position under symmetry t (0..7: bit 0 transposes, bit 1 mirrors x, bit 2 mirrors y).
  Position transformed(int t) const;
  // Undoable.
  void make(Move m, Undo& u);
  void unmake(Move m, const Undo& u);
  // HasEval: pattern evaluation from the side to move's view (see gomoku docs for weights).
  int evaluate() const;

  // ThreatGame. threat_moves: the side to move's moves that make a five, a four or a free
  // three (capture variant: also captures that win or break a five). defence_moves: the
  // answers to the opponent's strongest threat (the point completing its five; against a
  // four, the blocking point(s) and own fives / fours; against a free three, the blocks and
  // counter-fours; captures that break the threat), empty when the opponent threatens nothing.
  // An answer must meet every threat of that level (against an immediate win: the opponent
  // has no immediate win after it). When no move does (an open four, two free threes, a five
  // that breaking cannot save), the list holds the moves that answer some of them, so that a
  // search plays on and sees the loss; it is empty under a threat only when no such move is
  // legal (every blocking point forbidden for renju black).
  std::size_t threat_moves(MoveList<Position>& out) const;
  std::size_t defence_moves(MoveList<Position>& out) const;
  // For VCF: the side to move's moves that make a four or a five (fives first).
  std::size_t four_moves(MoveList<Position>& out) const;
  // A move that wins at once for the side to move (a five under the rule, or the capture
  // variant's tenth captured stone), or Move::none().
  Move winning_move() const;
  // A move that wins in three plies for certain, or Move::none() (the threat search's
  // optional hook): an open four (or a double four) for the side to move while the opponent
  // has no point at all where it would make a four or a five, so it can neither block both
  // ends nor gain a tempo. Not under the capture rule (a capture can break a four).
  Move sure_win_move() const;
  // How many answers the opponent will have to the side to move's threat m, guessed from the
  // pattern state without playing it (the proof-number search's first proof number of a
  // threat): 1 after a four, and after a free three its usual three blocks plus every point
  // where the opponent can make a four. At least 1.
  int answers_estimate(Move m) const;
  // The opponent of the side to move has a move that wins at once (a four on the board).
  bool opponent_can_win() const;
  // The opponent of the side to move could make an open four (or a double four) next: it
  // has a free three (or a shape as strong). Not under the capture rule (a capture can
  // break a four there).
  bool opponent_threatens_open_four() const;
  // Passing (HasNullMove, for the search's null-move and for asking "what would the
  // opponent do if it were its turn"); in_check() = opponent_can_win().
  void make_null(Undo& u);
  void unmake_null(const Undo& u);
  bool in_check() const { return opponent_can_win(); }
  // Candidate moves for alpha-beta: empty, legal points within `radius` of a stone (the
  // centre on an empty board).
  std::size_t candidate_moves(MoveList<Position>& out, int radius = 2) const;

  // Queries (O(1) from the incremental pattern state).
  Color stone(int sq) const { return static_cast<Color>(board_[sq]); }
  Color side_to_move() const { return side_; }
  // What c would make at empty sq along dir; the four lines together. Inline: move ordering
  // asks them for every candidate at every node.
  Pattern pattern(int sq, Color c, int dir) const {
    if (!on_board(sq) || board_[sq] != kEmpty || dir < 0 || dir > 3) return Pattern::kNone;
    return static_cast<Pattern>(entry_[c][sq][dir] & 0x0f);  // patterns.hpp: entry_pattern
  }
  // The four line patterns at once, direction d in byte d (Pattern values), for a point known
  // to be empty and on the board (unchecked: move ordering reads it for every candidate of
  // every node, so it is one load where four pattern() calls test the point four times).
  std::uint32_t line_patterns(int sq, Color c) const {
    std::uint32_t v;
    std::memcpy(&v, entry_[c][sq].data(), sizeof v);
    return v & 0x0f0f0f0fu;  // patterns.hpp: entry_pattern
  }
  Threat threat(int sq, Color c) const {
    if (!on_board(sq) || board_[sq] != kEmpty) return Threat::kNone;
    return static_cast<Threat>(summary_[c][sq] & 0x0f);  // bits 0-3 of the summary
  }
  int capture_count(int sq, Color c) const;  // pairs c would capture by playing sq
  // The point's shape for c (eval_weights.hpp: shape_index), kShapes = 72 where it has none.
  int shape(int sq, Color c) const;
  // The point is (renju black: may be) forbidden to c, so worth nothing to it.
  bool point_flagged(int sq, Color c) const { return (summary_[c][sq] & kFlagged) != 0; }
  // Neither side has a four (a point completing five) or a free three (a point making an
  // open four) on the board.
  bool quiet_position() const {
    constexpr int kFive = static_cast<int>(Threat::kFive);
    constexpr int kFlexFour = static_cast<int>(Threat::kFlexFour);
    return count_[0][kFive] + count_[1][kFive] + count_[0][kFlexFour] + count_[1][kFlexFour] == 0;
  }
  bool makes_five(Move m, Color c) const;  // a winning five for c under the rule
  bool is_forbidden(Move m) const;         // renju black's double-three / double-four / overline;
                                           // capture variant: a double free-three without a capture
  bool is_legal(Move m) const;
  int captured(Color c) const { return captures_[c]; }        // stones c has captured
  int winner() const { return winner_ >= 0 ? winner_ : -1; }  // 0, 1, or -1 (none yet / draw)
  int stones_on_board() const { return stones_; }
  Move last_move() const { return Move{last_}; }
  // Capture variant: the colour whose five waits for the opponent's reply (-1 when none).
  int five_pending() const { return pending_ - 1; }

  std::string to_string() const;  // a board diagram, columns a.., rows 1.. from the top

  // Debugging: the incremental pattern state (keys, patterns, threats, scores, counts)
  // equals one rebuilt from the stones alone.
  bool pattern_state_consistent() const;
  friend bool operator==(const Position&, const Position&) = default;

 private:
  using Board = std::array<std::uint8_t, kSquares>;
  static constexpr std::int8_t kNoWinner = -1;
  static constexpr std::int8_t kDrawNoMoves = -2;  // nothing legal left for the side to move
  // Per-point summary, per colour: bits 0-3 Threat, bits 4-7 pairs captured, bit 8 the move is
  // (or, for renju double-threes, may be) forbidden. 0 on stones and walls, so the board
  // scans for threats read it alone.
  static constexpr std::uint16_t kFlagged = 0x100;
  static constexpr int kFlaggedBucket = 10;  // count_ index for flagged points

  bool on_board(int sq) const { return sq > 0 && sq < kSquares && board_[sq] != kWall; }
  // Points where c makes a four (closed, with a free three, or open / double), flagged aside.
  int four_points(Color c) const {
    return count_[c][static_cast<int>(Threat::kFour)] +
           count_[c][static_cast<int>(Threat::kFourThree)] +
           count_[c][static_cast<int>(Threat::kFlexFour)];
  }
  // The first and last points of the board: scans of the points run between them (the wall
  // cells in between are never empty), not over the padded array of the largest board.
  int first_point() const { return square_of(0, 0); }
  int last_point() const { return square_of(variant_.size - 1, variant_.size - 1); }
  void rebuild();
  // `log` (optional) records what changed for unmake to put back.
  void set_stone(int sq, Color c, Undo* log = nullptr);
  void clear_stone(int sq);
  void load_keys(int sq);     // an empty point's keys from the board
  void load_entries(int sq);  // an empty point's entries and sums from its keys
  void update_lines(int sq, Color c, int sign, Undo* log);
  template <int C>
  void update_lines_as(int sq, int sign, Undo* log);
  void update_near(int sq, int sign);
  void refresh_point(int sq, int colours = 3, Undo* log = nullptr);  // colours: bit 0 black,
                                                                     // bit 1 white
  // An empty point's summary and value from its entries, with the counts and score.
  void refresh_colour(int sq, int c, std::uint32_t entries);
  std::uint32_t entry_word(int c, int sq) const {
    std::uint32_t w;
    std::memcpy(&w, entry_[c][sq].data(), sizeof w);
    return w;
  }
  // The summed counters of a point's four entries (detail::summarise), computed when asked.
  std::uint64_t point_info(int c, int sq) const;
  void unmake_logged(int sq, const Undo& u);
  // Inline: the scans of the board ask it for every point, and all but a few are unflagged.
  bool forbidden_for(int sq, Color c) const {
    return (summary_[c][sq] & kFlagged) && flagged_forbidden(sq, c);
  }
  bool flagged_forbidden(int sq, Color c) const;  // renju.cpp: the flag's full check
  bool renju_forbidden(Board& b, int sq, int depth) const;
  std::uint16_t summary_on(const Board& b, int sq, Color c) const;
  int capture_on(Board& b, int sq, Color c) const;  // plays c at sq on b, returns stones taken
  bool five_breakable(Color c, int sq) const;
  bool breaks_pending(int sq) const;  // the side to move's capture at sq breaks the five
  std::size_t capture_defences(MoveList<Position>& out) const;
  std::size_t open_four_defences(MoveList<Position>& out) const;  // no captures
  void check_no_moves();

  Variant variant_;
  Board board_{};
  Color side_ = kBlack;
  std::array<int, 2> captures_{};
  int stones_ = 0;
  int winner_ = kNoWinner;
  std::uint64_t hash_ = 0;
  std::uint8_t pending_ = 0;  // capture variant: 1 + colour of a five waiting for the reply
  std::uint16_t five_sq_ = 0;
  std::uint16_t last_ = 0;
  // The incremental pattern state: for each colour, point and direction the base-3 key of
  // the five cells each side and its table entry (keys and entries are zero on a stone's
  // point, which make / unmake skip, and are set again when it goes); per point and colour the
  // summary and its evaluation contribution; per colour the summed scores, capturable pairs and
  // point counts by Threat (flagged points apart).
  std::array<const std::uint8_t*, 2> table_{};
  // Per colour, whether its keys hold its own stones five cells away. A pattern never depends
  // on a cell five away except under "exactly five", and there only on whether it holds an own
  // stone (an overline): so the keys read every such cell as empty but for an exact table's own
  // stones, and make / unmake visit the cells five away only for those (detail::outer_key).
  std::array<bool, 2> outer_{};
  const detail::EvalTables* eval_ = nullptr;  // the evaluation weights, fixed at construction
  std::array<std::uint8_t, 2> mode_{};        // per colour: plain, renju black, capture rule
  int capture_weight_ = 0;
  std::array<std::array<std::array<std::uint16_t, 4>, kSquares>, 2> key_{};
  std::array<std::array<std::array<std::uint8_t, 4>, kSquares>, 2> entry_{};
  // Per colour, the weights' direct tables (EvalTables::direct) for points that capture
  // nothing and for points that capture.
  std::array<std::array<const std::uint32_t*, 2>, 2> direct_{};
  std::array<std::array<std::uint16_t, kSquares>, 2> summary_{};
  std::array<std::array<std::int16_t, kSquares>, 2> contrib_{};
  std::array<std::array<std::int16_t, 11>, 2> count_{};
  std::array<std::int32_t, 2> score_{};
  // score_ as it stood before the last move (or pass): the evaluation may average the two
  // (EvalWeights::parent_share). A rebuild keeps it; a position set up without moves starts
  // with its own score.
  std::array<std::int32_t, 2> parent_score_{};
  std::array<std::int32_t, 2> capturable_{};
  // Stones within Chebyshev distance 1 and 2 of each point (candidate moves).
  std::array<std::uint8_t, kSquares> near1_{};
  std::array<std::uint8_t, kSquares> near2_{};
};

// Coordinates: "h8" (column letter a.. from the left, row number 1.. from the top, as the
// diagram) and Gomocup's "x,y" (0-based, y down from the top).
std::string to_text(Move m);
std::string to_gomocup(Move m);
Result<Move> parse_move(const Position& pos, std::string_view text);  // either form; checks
                                                                      // bounds and emptiness

}  // namespace kibitz::gomoku

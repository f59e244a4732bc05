#pragma once
// A chess position: bitboards plus a mailbox, make/unmake with a caller-owned undo record,
// null move, incremental Zobrist hashing, and the game-ending rules (mate, stalemate, 50-move,
// threefold repetition, insufficient material). Satisfies Game, TwoPlayerZeroSum, Undoable
// and HasNullMove (api/concepts.hpp).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "api/concepts.hpp"
#include "core/error.hpp"
#include "core/zobrist.hpp"
#include "games/chess/bitboard.hpp"
#include "games/chess/types.hpp"

namespace kibitz::chess {

inline constexpr std::string_view kStartFen =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

enum class Outcome : std::uint8_t {
  kOngoing,
  kCheckmate,
  kStalemate,
  kFiftyMoves,
  kThreefold,
  kInsufficientMaterial
};
std::string_view outcome_name(Outcome o);

class Position {
 public:
  using Move = chess::Move;
  static constexpr std::size_t kMaxMoves = 256;  // the most legal moves known is 218
  static constexpr int kMaxPlayers = 2;
  static constexpr bool kZeroSum = true;

  // What make() saves so unmake() can restore the position exactly.
  struct Undo {
    std::uint64_t key;
    Bitboard checkers;
    Piece captured;
    std::uint8_t castling;
    std::uint8_t ep;
    std::uint16_t halfmove;
    std::uint16_t plies_from_null;
  };

  Position();  // the standard starting position
  static Result<Position> from_fen(std::string_view fen);
  std::string fen() const;

  // --- the Game concept ---------------------------------------------------------------------
  int current_player() const { return side_; }
  bool is_terminal() const { return outcome() != Outcome::kOngoing; }
  Returns<Position> returns() const;  // {white, black}: +1 win, -1 loss, 0 draw or ongoing
  std::size_t legal_moves(MoveList<Position>& out) const;
  void apply(Move m) {
    Undo u;
    make(m, u);
  }
  std::uint64_t hash() const { return key_; }
  // The key after m, for prefetching the transposition table only: it leaves out the castling,
  // en-passant and promotion terms (a wrong guess costs one wasted cache line).
  std::uint64_t key_after(Move m) const;

  // --- Undoable / HasNullMove ---------------------------------------------------------------
  void make(Move m, Undo& u);
  void unmake(Move m, const Undo& u);
  void make_null(Undo& u);
  void unmake_null(const Undo& u);
  bool in_check() const { return checkers() != 0; }

  // --- queries ------------------------------------------------------------------------------
  Color side_to_move() const { return side_; }
  Piece piece_on(Square s) const { return board_[s]; }
  Bitboard pieces() const { return by_color_[0] | by_color_[1]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType t) const { return by_type_[t]; }
  Bitboard pieces(Color c, PieceType t) const { return by_color_[c] & by_type_[t]; }
  Square king_square(Color c) const { return lsb(pieces(c, kKing)); }
  std::uint8_t castling_rights() const { return castling_; }
  Square ep_square() const { return ep_; }
  int halfmove_clock() const { return halfmove_; }
  int fullmove_number() const { return fullmove_; }
  int game_ply() const { return game_ply_; }

  // Kept by make: every search node asks, and so does move generation.
  Bitboard checkers() const { return checkers_; }
  Bitboard attackers_to(Square s, Bitboard occ) const {
    return (pawn_attacks(kWhite, s) & pieces(kBlack, kPawn)) |
           (pawn_attacks(kBlack, s) & pieces(kWhite, kPawn)) |
           (knight_attacks(s) & pieces(kKnight)) | (king_attacks(s) & pieces(kKing)) |
           (rook_attacks(s, occ) & (pieces(kRook) | pieces(kQueen))) |
           (bishop_attacks(s, occ) & (pieces(kBishop) | pieces(kQueen)));
  }
  bool is_attacked(Square s, Color by, Bitboard occ) const;
  // True when m is one of the legal moves here (for moves from outside: UCI, TT, books).
  // Any 16-bit value is accepted; no move generation.
  bool is_legal(Move m) const;
  // Static exchange evaluation: true when the capture sequence on m.to() started by m gains
  // the mover at least `threshold` centipawns (P 100, N 320, B 330, R 500, Q 950). For a quiet
  // move the value is minus what the opponent can win on m.to(). Precondition: m is legal.
  bool see_ge(Move m, int threshold = 0) const;
  // True when the legal move m gives check (direct, discovered, by promotion, castling or en
  // passant), told without making it.
  bool gives_check(Move m) const;
  // Knights, bishops, rooks or queens (null-move zugzwang guard).
  bool has_non_pawn_material(Color c) const {
    return (pieces(c) & ~pieces(kPawn) & ~pieces(kKing)) != 0;
  }
  // Static evaluation in centipawns from the side to move's view (defined in eval.cpp).
  int evaluate() const;

  Outcome outcome() const;
  // Times the current position occurred before (same side to move, since the last irreversible
  // move): 1 = one earlier occurrence (a twofold repetition).
  int repetitions() const;
  bool insufficient_material() const;

  // The full hash recomputed from scratch (tests check it against the incremental one).
  std::uint64_t compute_hash() const;
  // Same placement, side to move, castling rights, en passant square, halfmove clock and key
  // (move numbers and the repetition history are not compared).
  friend bool operator==(const Position& a, const Position& b) {
    return a.board_ == b.board_ && a.side_ == b.side_ && a.castling_ == b.castling_ &&
           a.ep_ == b.ep_ && a.halfmove_ == b.halfmove_ && a.key_ == b.key_;
  }

 private:
  struct EmptyTag {};
  explicit Position(EmptyTag) {}
  void put(Piece p, Square s);
  void remove(Square s);
  void move_piece(Square from, Square to);
  Bitboard compute_checkers() const {
    return attackers_to(king_square(side_), pieces()) & pieces(~side_);
  }
  bool ep_capturable(Square ep, Color by) const {
    return ep != kNoSquare && (pawn_attacks(~by, ep) & pieces(by, kPawn)) != 0;
  }

  std::array<Bitboard, 6> by_type_{};
  std::array<Bitboard, 2> by_color_{};
  std::array<Piece, 64> board_{};
  Color side_ = kWhite;
  std::uint8_t castling_ = 0;
  std::uint8_t ep_ = kNoSquare;  // set after every double push (FEN convention)
  std::uint16_t halfmove_ = 0;
  std::uint16_t fullmove_ = 1;
  std::uint16_t plies_from_null_ = 0;
  std::uint32_t game_ply_ = 0;
  std::uint64_t key_ = 0;
  Bitboard checkers_ = 0;  // pieces giving check to the side to move
  // Keys of earlier positions for repetition checks; a ring indexed by game_ply_, long enough
  // for the 100 reversible plies the 50-move rule allows.
  static constexpr std::uint32_t kHistory = 128;
  std::array<std::uint64_t, kHistory> history_{};
};

// Zobrist keys: 12 pieces x 64 squares, 16 castling states, 8 en passant files, side.
namespace zobrist {
inline constexpr ZobristTable<12 * 64 + 16 + 8 + 1> kKeys(0x43686573734B6579ull);
inline std::uint64_t piece(Piece p, Square s) { return kKeys[p * 64 + s]; }
inline std::uint64_t castling(unsigned rights) { return kKeys[768 + rights]; }
inline std::uint64_t ep_file(int file) { return kKeys[784 + file]; }
inline std::uint64_t side() { return kKeys[792]; }
}  // namespace zobrist

inline std::uint64_t Position::key_after(Move m) const {
  const Piece pc = board_[m.from()], captured = board_[m.to()];
  std::uint64_t k =
      key_ ^ zobrist::side() ^ zobrist::piece(pc, m.from()) ^ zobrist::piece(pc, m.to());
  if (captured != kNoPiece) k ^= zobrist::piece(captured, m.to());
  return k;
}

static_assert(Game<Position>);
static_assert(TwoPlayerZeroSum<Position>);
static_assert(Undoable<Position>);
static_assert(HasNullMove<Position>);
static_assert(HasEval<Position>);

}  // namespace kibitz::chess

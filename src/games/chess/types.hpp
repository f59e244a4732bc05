#pragma once
// Chess basics: squares (a1 = 0 ... h8 = 63), colours, pieces and the 16-bit move.
#include <bit>
#include <cstdint>

namespace kibitz::chess {

using Bitboard = std::uint64_t;
using Square = int;  // 0..63, a1 = 0, b1 = 1, ..., h8 = 63
inline constexpr Square kNoSquare = 64;

enum Color : std::uint8_t { kWhite = 0, kBlack = 1 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : std::uint8_t { kPawn, kKnight, kBishop, kRook, kQueen, kKing, kNoPieceType };

// Piece = colour * 6 + type; kNoPiece marks an empty square.
enum Piece : std::uint8_t { kNoPiece = 12 };
constexpr Piece make_piece(Color c, PieceType t) { return Piece(c * 6 + t); }
constexpr PieceType type_of(Piece p) { return PieceType(p % 6); }
constexpr Color color_of(Piece p) { return Color(p / 6); }

constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
constexpr Square make_square(int file, int rank) { return rank * 8 + file; }
constexpr Bitboard bb(Square s) { return Bitboard{1} << s; }
// Rank as seen by colour c (rank 0 = its back rank).
constexpr int relative_rank(Color c, Square s) { return c == kWhite ? rank_of(s) : 7 - rank_of(s); }

inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) { return std::countr_zero(b); }
inline Square pop_lsb(Bitboard& b) {
  const Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

// Castling rights bits.
enum CastlingRight : std::uint8_t {
  kWhiteOO = 1,
  kWhiteOOO = 2,
  kBlackOO = 4,
  kBlackOOO = 8,
  kAllCastling = 15
};

// A move in 16 bits: from (6), to (6), flag (4). Castling is the king's move (e1g1).
class Move {
 public:
  enum Flag : std::uint8_t {
    kQuiet = 0,
    kDoublePush = 1,
    kCastleKing = 2,
    kCastleQueen = 3,
    kCapture = 4,
    kEnPassant = 5,
    kPromoKnight = 8,  // + 0..3 = N, B, R, Q; + 4 with capture
    kPromoCaptureKnight = 12,
  };

  // Trivial: move buffers on hot paths are not zero-filled. Move{} and none() are zero.
  Move() = default;
  constexpr Move(Square from, Square to, int flag)
      : v_(static_cast<std::uint16_t>(from | (to << 6) | (flag << 12))) {}
  static constexpr Move none() { return Move(0, 0, 0); }

  constexpr Square from() const { return v_ & 63; }
  constexpr Square to() const { return (v_ >> 6) & 63; }
  constexpr int flag() const { return v_ >> 12; }
  constexpr bool is_capture() const { return (flag() & 4) != 0; }  // including en passant
  constexpr bool is_promotion() const { return (flag() & 8) != 0; }
  constexpr bool is_castling() const { return flag() == kCastleKing || flag() == kCastleQueen; }
  constexpr bool is_en_passant() const { return flag() == kEnPassant; }
  constexpr bool is_tactical() const { return (flag() & 12) != 0; }  // capture or promotion
  constexpr PieceType promotion() const {
    return is_promotion() ? PieceType(kKnight + (flag() & 3)) : kNoPieceType;
  }
  constexpr std::uint16_t raw() const { return v_; }
  constexpr bool is_none() const { return v_ == 0; }
  constexpr explicit operator bool() const { return v_ != 0; }
  friend constexpr bool operator==(Move a, Move b) { return a.v_ == b.v_; }

 private:
  std::uint16_t v_;
};

}  // namespace kibitz::chess

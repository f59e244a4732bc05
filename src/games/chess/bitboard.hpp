#pragma once
// Attack tables: leapers from lookup tables, sliders from fancy magic bitboards whose magic
// multipliers are found at start-up by a seeded search (a few milliseconds, same every run).
#include <array>

#include "core/rng.hpp"
#include "games/chess/types.hpp"

namespace kibitz::chess {

inline constexpr Bitboard kFileA = 0x0101010101010101ull;
inline constexpr Bitboard kFileH = kFileA << 7;
inline constexpr Bitboard kRank1 = 0xFFull;
inline constexpr Bitboard kRank2 = kRank1 << 8;
inline constexpr Bitboard kRank3 = kRank1 << 16;
inline constexpr Bitboard kRank6 = kRank1 << 40;
inline constexpr Bitboard kRank7 = kRank1 << 48;
inline constexpr Bitboard kRank8 = kRank1 << 56;
inline constexpr Bitboard kDarkSquares = 0xAA55AA55AA55AA55ull;

struct Magic {
  Bitboard mask;
  Bitboard magic;
  const Bitboard* attacks;
  unsigned shift;
  unsigned index(Bitboard occ) const {
    return static_cast<unsigned>(((occ & mask) * magic) >> shift);
  }
};

namespace tables {
extern std::array<std::array<Bitboard, 64>, 2> pawn_attacks;
extern std::array<Bitboard, 64> knight_attacks;
extern std::array<Bitboard, 64> king_attacks;
extern std::array<Magic, 64> rook_magics;
extern std::array<Magic, 64> bishop_magics;
extern std::array<std::array<Bitboard, 64>, 64> between;  // squares strictly between, or 0
extern std::array<std::array<Bitboard, 64>, 64> line;     // the whole line through both, or 0
}  // namespace tables

// Builds the tables; called once by a static initialiser in bitboard.cpp, idempotent.
void init_bitboards();

inline Bitboard pawn_attacks(Color c, Square s) { return tables::pawn_attacks[c][s]; }
inline Bitboard knight_attacks(Square s) { return tables::knight_attacks[s]; }
inline Bitboard king_attacks(Square s) { return tables::king_attacks[s]; }
inline Bitboard rook_attacks(Square s, Bitboard occ) {
  const Magic& m = tables::rook_magics[s];
  return m.attacks[m.index(occ)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occ) {
  const Magic& m = tables::bishop_magics[s];
  return m.attacks[m.index(occ)];
}
inline Bitboard queen_attacks(Square s, Bitboard occ) {
  return rook_attacks(s, occ) | bishop_attacks(s, occ);
}
inline Bitboard between(Square a, Square b) { return tables::between[a][b]; }
inline Bitboard line(Square a, Square b) { return tables::line[a][b]; }

// Slow reference slider attacks (ray walking), used to build and to test the magic tables.
Bitboard slow_slider_attacks(PieceType pt, Square s, Bitboard occ);

// The seed of the magic search, the search itself (sparse random candidates until one maps
// every relevant occupancy without a harmful collision; slider = kRook or kBishop), and the
// multipliers it produced, which the tables are built from.
inline constexpr std::uint64_t kMagicSeed = 0x6D616769636Bull;
Bitboard find_magic(PieceType slider, Square s, Rng& rng);
Bitboard stored_magic(PieceType slider, Square s);

template <Color C>
constexpr Bitboard shift_up(Bitboard b) {
  return C == kWhite ? b << 8 : b >> 8;
}

}  // namespace kibitz::chess

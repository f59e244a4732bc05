#include "games/chess/bitboard.hpp"

#include <vector>

#include "core/rng.hpp"

namespace kibitz::chess {

namespace tables {
std::array<std::array<Bitboard, 64>, 2> pawn_attacks;
std::array<Bitboard, 64> knight_attacks;
std::array<Bitboard, 64> king_attacks;
std::array<Magic, 64> rook_magics;
std::array<Magic, 64> bishop_magics;
std::array<std::array<Bitboard, 64>, 64> between;
std::array<std::array<Bitboard, 64>, 64> line;
}  // namespace tables

namespace {

// Shared attack storage: 102,400 rook + 5,248 bishop entries for the standard masks.
std::array<Bitboard, 102400> rook_table;
std::array<Bitboard, 5248> bishop_table;

constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

Bitboard leaper(Square s, const int (*deltas)[2], int n) {
  Bitboard b = 0;
  for (int i = 0; i < n; ++i) {
    const int f = file_of(s) + deltas[i][0], r = rank_of(s) + deltas[i][1];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) b |= bb(make_square(f, r));
  }
  return b;
}

Bitboard ray_attacks(const int (*dirs)[2], Square s, Bitboard occ) {
  Bitboard b = 0;
  for (int d = 0; d < 4; ++d) {
    int f = file_of(s) + dirs[d][0], r = rank_of(s) + dirs[d][1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      const Square t = make_square(f, r);
      b |= bb(t);
      if (occ & bb(t)) break;
      f += dirs[d][0];
      r += dirs[d][1];
    }
  }
  return b;
}

// Relevant occupancy: the rays without their last square (the edge never blocks anything).
Bitboard relevant_mask(const int (*dirs)[2], Square s) {
  Bitboard b = 0;
  for (int d = 0; d < 4; ++d) {
    int f = file_of(s) + dirs[d][0], r = rank_of(s) + dirs[d][1];
    while (f + dirs[d][0] >= 0 && f + dirs[d][0] < 8 && r + dirs[d][1] >= 0 && r + dirs[d][1] < 8 &&
           f >= 0 && f < 8 && r >= 0 && r < 8) {
      b |= bb(make_square(f, r));
      f += dirs[d][0];
      r += dirs[d][1];
    }
  }
  return b;
}

void init_magics(const int (*dirs)[2], std::array<Magic, 64>& magics, Bitboard* table, Rng& rng) {
  std::vector<Bitboard> occupancy(4096), reference(4096);
  std::vector<int> epoch(4096, 0);
  int attempt = 0;
  Bitboard* next = table;
  for (Square s = 0; s < 64; ++s) {
    Magic& m = magics[s];
    m.mask = relevant_mask(dirs, s);
    const int bits = popcount(m.mask);
    m.shift = 64 - bits;
    m.attacks = next;
    // Enumerate every subset of the mask (Carry-Rippler) with its true attack set.
    int size = 0;
    Bitboard sub = 0;
    do {
      occupancy[size] = sub;
      reference[size] = ray_attacks(dirs, s, sub);
      ++size;
      sub = (sub - m.mask) & m.mask;
    } while (sub);
    // Try sparse random multipliers until one maps every subset without a harmful collision.
    for (;;) {
      m.magic = rng.sparse();
      if (popcount((m.mask * m.magic) >> 56) < 6) continue;
      ++attempt;
      int i = 0;
      for (; i < size; ++i) {
        const unsigned idx = m.index(occupancy[i]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          next[idx] = reference[i];
        } else if (next[idx] != reference[i]) {
          break;
        }
      }
      if (i == size) break;
    }
    next += size;
  }
}

}  // namespace

Bitboard slow_slider_attacks(PieceType pt, Square s, Bitboard occ) {
  Bitboard b = 0;
  if (pt == kRook || pt == kQueen) b |= ray_attacks(kRookDirs, s, occ);
  if (pt == kBishop || pt == kQueen) b |= ray_attacks(kBishopDirs, s, occ);
  return b;
}

void init_bitboards() {
  static bool done = false;
  if (done) return;
  done = true;
  constexpr int kKnight[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                 {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  constexpr int kKing[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                               {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  constexpr int kWhitePawn[2][2] = {{-1, 1}, {1, 1}};
  constexpr int kBlackPawn[2][2] = {{-1, -1}, {1, -1}};
  for (Square s = 0; s < 64; ++s) {
    tables::knight_attacks[s] = leaper(s, kKnight, 8);
    tables::king_attacks[s] = leaper(s, kKing, 8);
    tables::pawn_attacks[kWhite][s] = leaper(s, kWhitePawn, 2);
    tables::pawn_attacks[kBlack][s] = leaper(s, kBlackPawn, 2);
  }
  Rng rng(0x6D616769636Bull);  // fixed seed: the same magics every run
  init_magics(kRookDirs, tables::rook_magics, rook_table.data(), rng);
  init_magics(kBishopDirs, tables::bishop_magics, bishop_table.data(), rng);
  for (Square a = 0; a < 64; ++a) {
    for (Square b = 0; b < 64; ++b) {
      tables::between[a][b] = 0;
      tables::line[a][b] = 0;
      if (a == b) continue;
      for (PieceType pt : {kBishop, kRook}) {
        if (slow_slider_attacks(pt, a, 0) & bb(b)) {
          tables::line[a][b] =
              (slow_slider_attacks(pt, a, 0) & slow_slider_attacks(pt, b, 0)) | bb(a) | bb(b);
          tables::between[a][b] =
              slow_slider_attacks(pt, a, bb(b)) & slow_slider_attacks(pt, b, bb(a));
        }
      }
    }
  }
}

namespace {
// The tables are plain globals: build them before main() so hot paths never check.
const struct BitboardInit {
  BitboardInit() { init_bitboards(); }
} bitboard_init;
}  // namespace

}  // namespace kibitz::chess

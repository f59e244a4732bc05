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

// Relevant occupancy: the empty-board rays without the board edges beyond the piece's own
// rank and file (a piece on the edge square never blocks anything).
Bitboard relevant_mask(const int (*dirs)[2], Square s) {
  const Bitboard edges = ((kRank1 | kRank8) & ~(kRank1 << (8 * rank_of(s)))) |
                         ((kFileA | kFileH) & ~(kFileA << file_of(s)));
  return ray_attacks(dirs, s, 0) & ~edges;
}

// Magic multipliers found once by find_magic() (kMagicSeed, rooks a1..h8 then bishops) and
// kept here so start-up takes milliseconds instead of a few hundred; a unit test re-runs the
// search and checks it reproduces them.
constexpr Bitboard kRookMagics[64] = {
    0x0080104000208000ull, 0x0240001000200040ull, 0x0080100080200009ull, 0x1080048010000800ull,
    0x0200100420080200ull, 0x0080040002008001ull, 0x3180088001000200ull, 0x5100108840210002ull,
    0x0004800080400020ull, 0x0000802000804002ull, 0x0142001082094120ull, 0x0049000921001000ull,
    0x4001000410080100ull, 0x5513001300484400ull, 0x0442000188040200ull, 0xa042000200410084ull,
    0x0800818000c00020ull, 0x0010034000600442ull, 0x8000110020010040ull, 0x4051010008100222ull,
    0x0848018008040080ull, 0x0020808004000200ull, 0x0181040008108142ull, 0xa84402000040a104ull,
    0x00c000408009a684ull, 0x0a100040c0006002ull, 0x8010100080200080ull, 0x1002002200081041ull,
    0x60010111002800c4ull, 0x2084020080800400ull, 0x0000020080800100ull, 0x8242010200006084ull,
    0x1040400080800020ull, 0x8441004001002088ull, 0x4404128202002040ull, 0x2100080080801001ull,
    0x0008080080800400ull, 0x0004001002020008ull, 0x0280800100800200ull, 0x0160010042000084ull,
    0x1000804000208008ull, 0x0010004020004010ull, 0x0088402200820014ull, 0x0120100008008080ull,
    0x0880040008008080ull, 0x4902040002008080ull, 0x0016020004010100ull, 0x0002908044020011ull,
    0x2051002050800100ull, 0x0000201000400840ull, 0x2000100080200080ull, 0x2108000c80100080ull,
    0x2948800400080080ull, 0x081a000204008080ull, 0x4402000104080200ull, 0x0012040708815200ull,
    0x2000510640608001ull, 0x0008420020110482ull, 0x0110600189004013ull, 0x0830004500211039ull,
    0x0009004408001003ull, 0x8022000108100402ull, 0x030029581000820cull, 0x0084010020840042ull,
};
constexpr Bitboard kBishopMagics[64] = {
    0x0404040808002080ull, 0x1008102082084100ull, 0x0022120042040189ull, 0x000804a103000880ull,
    0x001310c010000400ull, 0x0008480210400200ull, 0x04008c0120108072ull, 0x0082420800a23004ull,
    0xa400042044a40083ull, 0x6402100202404601ull, 0x0808b0028a244801ull, 0x0000080600caa000ull,
    0x8400040420808000ull, 0x0020008210400001ull, 0x8800020811051012ull, 0x0100342202300401ull,
    0x0024006084445808ull, 0x228840120a980202ull, 0x0282000104040080ull, 0xb018000104110000ull,
    0x0124020201210040ull, 0x9001000080414020ull, 0x1000800414042200ull, 0x100200102201142cull,
    0x9050100040820200ull, 0x0114044210100880ull, 0x0048020004002200ull, 0x0858080004820022ull,
    0x0041010000104000ull, 0x0000460009048200ull, 0x020104002a008480ull, 0x0014008310220108ull,
    0x4054444008041000ull, 0x2100880400083000ull, 0x200402080001004aull, 0x0000400820020200ull,
    0x5012088400020220ull, 0x0080880601504100ull, 0x00040082080c0118ull, 0x0201020200002113ull,
    0x0811412020025084ull, 0x000c042208000220ull, 0x1802030048004440ull, 0x2a02014208001080ull,
    0x0100881014000040ull, 0x8002046800200200ull, 0x0018500442450080ull, 0x00f0009880840900ull,
    0x0242015008040014ull, 0x1004290802100000ull, 0x040100420090a000ull, 0x0404001042020700ull,
    0x2420404005010848ull, 0x0011400408108490ull, 0x184083021c030000ull, 0x0002022401220404ull,
    0x0041030482200200ull, 0x8840221042080408ull, 0x8006008904a8040aull, 0x00941100258c2400ull,
    0x2000080108430400ull, 0x0080081020194102ull, 0x1004d05041a80080ull, 0x0050416800840640ull,
};

const int (*slider_dirs(PieceType pt))[2] { return pt == kRook ? kRookDirs : kBishopDirs; }

// Every subset of the relevant mask (Carry-Rippler order) with its true attack set.
int enumerate_subsets(PieceType pt, Square s, Bitboard mask, std::vector<Bitboard>& occupancy,
                      std::vector<Bitboard>& reference) {
  occupancy.resize(4096);
  reference.resize(4096);
  int size = 0;
  Bitboard sub = 0;
  do {
    occupancy[size] = sub;
    reference[size] = ray_attacks(slider_dirs(pt), s, sub);
    ++size;
    sub = (sub - mask) & mask;
  } while (sub);
  return size;
}

// Writes each subset's attacks to table[m.index(occupancy)]; false when two subsets with
// different attacks share a slot. `epoch` marks the slots written by this attempt.
bool fill_table(const Magic& m, const std::vector<Bitboard>& occupancy,
                const std::vector<Bitboard>& reference, int size, Bitboard* table,
                std::vector<int>& epoch, int attempt) {
  for (int i = 0; i < size; ++i) {
    const unsigned idx = m.index(occupancy[i]);
    if (epoch[idx] < attempt) {
      epoch[idx] = attempt;
      table[idx] = reference[i];
    } else if (table[idx] != reference[i]) {
      return false;
    }
  }
  return true;
}

Magic magic_shape(PieceType pt, Square s) {
  Magic m{};
  m.mask = relevant_mask(slider_dirs(pt), s);
  m.shift = 64 - static_cast<unsigned>(popcount(m.mask));
  return m;
}

// Builds one slider's magics and attack tables from the stored multipliers, falling back to a
// fresh search for any square whose stored multiplier collides.
void init_magics(PieceType pt, const Bitboard (&known)[64], std::array<Magic, 64>& magics,
                 Bitboard* table) {
  std::vector<Bitboard> occupancy, reference;
  std::vector<int> epoch(4096, 0);
  int attempt = 0;
  Rng rng(kMagicSeed);
  Bitboard* next = table;
  for (Square s = 0; s < 64; ++s) {
    Magic& m = magics[s];
    m = magic_shape(pt, s);
    m.attacks = next;
    const int size = enumerate_subsets(pt, s, m.mask, occupancy, reference);
    m.magic = known[s];
    while (!fill_table(m, occupancy, reference, size, next, epoch, ++attempt))
      m.magic = find_magic(pt, s, rng);
    next += size;
  }
}

}  // namespace

Bitboard stored_magic(PieceType slider, Square s) {
  return slider == kRook ? kRookMagics[s] : kBishopMagics[s];
}

Bitboard find_magic(PieceType slider, Square s, Rng& rng) {
  Magic m = magic_shape(slider, s);
  std::vector<Bitboard> occupancy, reference;
  const int size = enumerate_subsets(slider, s, m.mask, occupancy, reference);
  std::vector<Bitboard> table(std::size_t{1} << (64 - m.shift));
  std::vector<int> epoch(table.size(), 0);
  for (int attempt = 1;; ++attempt) {
    // Sparse candidates whose product spreads the mask into the top bits are the likely ones.
    do m.magic = rng.sparse();
    while (popcount((m.mask * m.magic) >> 56) < 6);
    if (fill_table(m, occupancy, reference, size, table.data(), epoch, attempt)) return m.magic;
  }
}

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
  init_magics(kRook, kRookMagics, tables::rook_magics, rook_table.data());
  init_magics(kBishop, kBishopMagics, tables::bishop_magics, bishop_table.data());
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

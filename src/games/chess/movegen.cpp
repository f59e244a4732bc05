#include "games/chess/movegen.hpp"

#include <cassert>

namespace kibitz::chess {

namespace {

template <Color Us, GenType T>
Move* generate_for(const Position& pos, Move* out) {
  constexpr Color Them = Us == kWhite ? kBlack : kWhite;
  constexpr int kUp = Us == kWhite ? 8 : -8;
  constexpr Bitboard kRank7Rel = Us == kWhite ? kRank7 : kRank2;
  constexpr Bitboard kRank3Rel = Us == kWhite ? kRank3 : kRank6;
  constexpr bool kTactical = T != GenType::kQuiet;
  constexpr bool kQuiets = T != GenType::kTactical;

  const Bitboard occ = pos.pieces(), us = pos.pieces(Us), them = pos.pieces(Them);
  const Square ksq = pos.king_square(Us);
  const Bitboard checkers = pos.checkers();  // kept by make (Us is the side to move)

  // King moves: the destination must not be attacked once the king has left its square.
  {
    Bitboard targets = king_attacks(ksq) & ~us;
    if constexpr (!kQuiets) targets &= them;
    if constexpr (!kTactical) targets &= ~them;
    const Bitboard occ_no_king = occ ^ bb(ksq);
    while (targets) {
      const Square to = pop_lsb(targets);
      if (!pos.is_attacked(to, Them, occ_no_king))
        *out++ = Move(ksq, to, (them & bb(to)) ? Move::kCapture : Move::kQuiet);
    }
  }
  if (more_than_one(checkers)) return out;  // double check: only the king may move

  // In single check, other pieces must capture the checker or block.
  const Bitboard check_mask = checkers ? (between(ksq, lsb(checkers)) | checkers) : ~Bitboard{0};

  // Pieces pinned to our king may move only along the pin line.
  Bitboard pinned = 0;
  {
    const Bitboard rq = pos.pieces(Them, kRook) | pos.pieces(Them, kQueen);
    const Bitboard bq = pos.pieces(Them, kBishop) | pos.pieces(Them, kQueen);
    Bitboard snipers = (rook_attacks(ksq, 0) & rq) | (bishop_attacks(ksq, 0) & bq);
    while (snipers) {
      const Bitboard blockers = between(ksq, pop_lsb(snipers)) & occ;
      if (blockers && !more_than_one(blockers) && (blockers & us)) pinned |= blockers;
    }
  }

  Bitboard targets = T == GenType::kTactical ? them : T == GenType::kQuiet ? ~occ : ~us;
  targets &= check_mask;

  // Knights (a pinned knight can never move).
  for (Bitboard b = pos.pieces(Us, kKnight) & ~pinned; b;) {
    const Square from = pop_lsb(b);
    for (Bitboard a = knight_attacks(from) & targets; a;) {
      const Square to = pop_lsb(a);
      *out++ = Move(from, to, (them & bb(to)) ? Move::kCapture : Move::kQuiet);
    }
  }
  // Sliders.
  const Bitboard queens = pos.pieces(Us, kQueen);
  for (Bitboard b = pos.pieces(Us, kBishop) | queens; b;) {
    const Square from = pop_lsb(b);
    Bitboard a = bishop_attacks(from, occ) & targets;
    if (pinned & bb(from)) a &= line(ksq, from);
    while (a) {
      const Square to = pop_lsb(a);
      *out++ = Move(from, to, (them & bb(to)) ? Move::kCapture : Move::kQuiet);
    }
  }
  for (Bitboard b = pos.pieces(Us, kRook) | queens; b;) {
    const Square from = pop_lsb(b);
    Bitboard a = rook_attacks(from, occ) & targets;
    if (pinned & bb(from)) a &= line(ksq, from);
    while (a) {
      const Square to = pop_lsb(a);
      *out++ = Move(from, to, (them & bb(to)) ? Move::kCapture : Move::kQuiet);
    }
  }

  // Pawns, set-wise; a pinned pawn's move is kept only when it stays on the pin line.
  const Bitboard pawns = pos.pieces(Us, kPawn);
  const Bitboard on7 = pawns & kRank7Rel, rest = pawns & ~kRank7Rel;
  const Bitboard empty = ~occ;
  auto emit = [&](Bitboard tos, int delta, int flag) {
    while (tos) {
      const Square to = pop_lsb(tos);
      const Square from = to - delta;
      if ((pinned & bb(from)) && !(line(ksq, from) & bb(to))) continue;
      *out++ = Move(from, to, flag);
    }
  };
  auto emit_promotions = [&](Bitboard tos, int delta, int base) {
    while (tos) {
      const Square to = pop_lsb(tos);
      const Square from = to - delta;
      if ((pinned & bb(from)) && !(line(ksq, from) & bb(to))) continue;
      for (int p = 3; p >= 0; --p) *out++ = Move(from, to, base + p);  // queen first
    }
  };
  // Capture directions: "west" (towards the a-file) and "east", as shifts relative to us.
  constexpr int kWest = kUp - 1, kEast = kUp + 1;
  auto shift = [](Bitboard b, int d) { return d > 0 ? b << d : b >> -d; };
  const Bitboard not_a = ~kFileA, not_h = ~kFileH;

  if constexpr (kQuiets) {
    const Bitboard single = shift(rest, kUp) & empty;
    const Bitboard dbl = shift(single & kRank3Rel, kUp) & empty;
    emit(single & check_mask, kUp, Move::kQuiet);
    emit(dbl & check_mask, 2 * kUp, Move::kDoublePush);
  }
  if constexpr (kTactical) {
    if (on7) {
      emit_promotions(shift(on7, kUp) & empty & check_mask, kUp, Move::kPromoKnight);
      emit_promotions(shift(on7 & not_a, kWest) & them & check_mask, kWest,
                      Move::kPromoCaptureKnight);
      emit_promotions(shift(on7 & not_h, kEast) & them & check_mask, kEast,
                      Move::kPromoCaptureKnight);
    }
    emit(shift(rest & not_a, kWest) & them & check_mask, kWest, Move::kCapture);
    emit(shift(rest & not_h, kEast) & them & check_mask, kEast, Move::kCapture);

    const Square ep = pos.ep_square();
    if (ep != kNoSquare) {
      const Square captured = ep - kUp;
      // Full legality test: rare, and it covers discovered checks along the rank.
      for (Bitboard b = pawn_attacks(Them, ep) & rest; b;) {
        const Square from = pop_lsb(b);
        const Bitboard after = (occ ^ bb(from) ^ bb(captured)) | bb(ep);
        const Bitboard attackers =
            ((rook_attacks(ksq, after) & (pos.pieces(Them, kRook) | pos.pieces(Them, kQueen))) |
             (bishop_attacks(ksq, after) & (pos.pieces(Them, kBishop) | pos.pieces(Them, kQueen))) |
             (knight_attacks(ksq) & pos.pieces(Them, kKnight)) |
             (pawn_attacks(Us, ksq) & pos.pieces(Them, kPawn) & ~bb(captured)));
        if (!attackers) *out++ = Move(from, ep, Move::kEnPassant);
      }
    }
  }

  if constexpr (kQuiets) {
    if (!checkers) {
      constexpr Square e1 = Us == kWhite ? 4 : 60;
      constexpr std::uint8_t oo = Us == kWhite ? kWhiteOO : kBlackOO;
      constexpr std::uint8_t ooo = Us == kWhite ? kWhiteOOO : kBlackOOO;
      const std::uint8_t rights = pos.castling_rights();
      if ((rights & oo) && !(occ & (bb(e1 + 1) | bb(e1 + 2))) &&
          !pos.is_attacked(e1 + 1, Them, occ) && !pos.is_attacked(e1 + 2, Them, occ))
        *out++ = Move(e1, e1 + 2, Move::kCastleKing);
      if ((rights & ooo) && !(occ & (bb(e1 - 1) | bb(e1 - 2) | bb(e1 - 3))) &&
          !pos.is_attacked(e1 - 1, Them, occ) && !pos.is_attacked(e1 - 2, Them, occ))
        *out++ = Move(e1, e1 - 2, Move::kCastleQueen);
    }
  }
  return out;
}

}  // namespace

template <GenType T>
Move* generate(const Position& pos, Move* out) {
  if constexpr (T == GenType::kEvasions) {
    assert(pos.in_check());
    return generate<GenType::kAll>(pos, out);
  } else {
    return pos.side_to_move() == kWhite ? generate_for<kWhite, T>(pos, out)
                                        : generate_for<kBlack, T>(pos, out);
  }
}

template Move* generate<GenType::kTactical>(const Position&, Move*);
template Move* generate<GenType::kQuiet>(const Position&, Move*);
template Move* generate<GenType::kAll>(const Position&, Move*);
template Move* generate<GenType::kEvasions>(const Position&, Move*);

std::size_t count_legal(const Position& pos) {
  Move buf[Position::kMaxMoves];
  return static_cast<std::size_t>(generate<GenType::kAll>(pos, buf) - buf);
}

std::size_t Position::legal_moves(MoveList<Position>& out) const {
  return generate<GenType::kAll>(*this, out);
}

}  // namespace kibitz::chess

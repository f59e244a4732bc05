#pragma once
// Gomoku hooks for the generic alpha-beta: moves near stones only (the rest of the board is
// never worth searching), fours and fives as the "tactical" stage (quiescence follows them),
// the forced block when the opponent has a four, ordering by the pattern a move makes (the
// seed's priorities), history indexed by point.
#include "api/concepts.hpp"
#include "games/gomoku/position.hpp"

namespace kibitz {

template <>
struct SearchTraits<gomoku::Position> : DefaultSearchTraits<gomoku::Position> {
  using Position = gomoku::Position;
  using Move = gomoku::Move;

  static constexpr int kHistorySize = gomoku::kSquares;
  static int history_index(Move m) { return m.sq; }
  // Evaluation units are pattern scores (an open three is ~1000): futility margins in kind.
  static constexpr int kReverseFutilityMargin = 400;
  static constexpr int kReverseFutilityDepth = 4;

  // Under a four (the opponent threatens five) only the answers to it. Under a free three
  // (the opponent threatens an open four) only its answers too: the blocks and our own
  // fours (defence_moves lists both); any other move lets the open four in, which only a
  // win by fours could outrun, and that starts with one of our fours. Else fours and fives.
  static void generate_tactical(const Position& p, MoveList<Position>& buf) {
    if (p.opponent_can_win() || p.opponent_threatens_open_four())
      p.defence_moves(buf);
    else
      p.four_moves(buf);
  }
  // Quiescence (not under a four): only a move that wins at once; the threat stages before
  // the alpha-beta cover the forcing sequences.
  static void generate_quiescence(const Position& p, MoveList<Position>& buf) {
    buf.clear();
    if (const Move w = p.winning_move()) buf.push_back(w);
  }
  static void generate_quiet(const Position& p, MoveList<Position>& buf) {
    buf.clear();
    if (p.opponent_can_win() || p.opponent_threatens_open_four()) return;
    MoveList<Position> all;
    p.candidate_moves(all);
    for (Move m : all)
      if (!is_tactical(p, m)) buf.push_back(m);
  }
  static bool is_tactical(const Position& p, Move m) {
    const auto c = p.side_to_move();
    for (int d = 0; d < 4; ++d)
      if (p.pattern(m.sq, c, d) >= gomoku::Pattern::kFour) return true;
    return false;
  }
  // A move that makes a four (or five) leaves the opponent "in check" (in_check() after it):
  // known before the move is made, so late move pruning skips make / unmake.
  static bool gives_check(const Position& p, Move m) { return is_tactical(p, m); }
  static bool is_legal(const Position& p, Move m) { return p.is_legal(m); }
  // Ordering inside the tactical stage: fives first, then open fours, then fours.
  static int mvv_lva(const Position& p, Move m) { return move_value(p, m); }

  // The seed's ordering priorities from the pattern state: own five, block of the opponent's
  // five, own open four, own four, block of a four, own free three, block of a free three,
  // then twos; captures (capture variant) rank with threes.
  static int move_value(const Position& p, Move m) {
    const auto me = p.side_to_move();
    const auto them = gomoku::opponent(me);
    int own = 0, block = 0;
    for (int d = 0; d < 4; ++d) {
      own = std::max(own, static_cast<int>(p.pattern(m.sq, me, d)));
      block = std::max(block, static_cast<int>(p.pattern(m.sq, them, d)));
    }
    return own * 16 + block * 12;
  }
  // No move at all: a full board (a draw), or renju black whose only answers to a four or a
  // free three are forbidden points (lost).
  static int no_moves_result(const Position& p) {
    return p.opponent_can_win() || p.opponent_threatens_open_four() ? -1 : 0;
  }
  // Quiet moves by the shapes they make and block, on the history scale (+-16384): a three
  // outranks anything history learns, a two most of it.
  static int quiet_value(const Position& p, Move m) { return move_value(p, m) * 128; }
  // Passing is no move in gomoku: null-move pruning is for the ablation only.
  static bool null_move_safe(const Position&) { return false; }
};

}  // namespace kibitz

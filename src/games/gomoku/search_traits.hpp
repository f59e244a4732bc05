#pragma once
// Gomoku hooks for the generic alpha-beta: moves near stones only (the rest of the board is
// never worth searching), fives, fours and free threes as the "tactical" stage, the forced
// answers when the opponent has a four or a free three, quiet moves ordered by the shapes they
// make and block, move-count pruning by remaining depth, history indexed by point.
#include <array>

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
  // win by fours could outrun, and that starts with one of our fours. Else the threats:
  // fives, fours and free threes. A free three forces an answer as a four does, so it is
  // searched as a tactical move (never reduced or pruned as a late quiet one): that is how
  // the alpha-beta reads threat sequences with threes, where the opponent's replies are few.
  static void generate_tactical(const Position& p, MoveList<Position>& buf) {
    if (p.opponent_can_win() || p.opponent_threatens_open_four()) {
      p.defence_moves(buf);
      return;
    }
    p.threat_moves(buf);
    // The capture rule's list also has captures that break a pending five: those stay with
    // the quiet moves (generate_quiet keeps every move is_tactical does not claim).
    if (p.rule() == gomoku::Rule::kCapture) {
      std::size_t kept = 0;
      for (std::size_t i = 0; i < buf.size(); ++i)
        if (is_tactical(p, buf[i])) buf[kept++] = buf[i];
      buf.resize(kept);
    }
  }
  // Quiescence (not under a four): only a move that wins at once; the threat stages before
  // the alpha-beta cover the forcing sequences.
  static void generate_quiescence(const Position& p, MoveList<Position>& buf) {
    buf.clear();
    if (const Move w = p.winning_move()) buf.push_back(w);
  }
  // At a quiescence node that stands below beta: does the side to move win by a narrow
  // VCF (the first four builds on a three; each later four lies on a line through the
  // previous one, at most two tried; the defender only blocks)? The plies to the five, or 0.
  // Cheap enough for every leaf where the side to move has a four to make.
  static int quiescence_win(Position& p);
  static void generate_quiet(const Position& p, MoveList<Position>& buf) {
    buf.clear();
    if (p.opponent_can_win() || p.opponent_threatens_open_four()) return;
    MoveList<Position> all;
    p.candidate_moves(all);
    for (Move m : all)
      if (!is_tactical(p, m)) buf.push_back(m);
  }
  // Whether one of the packed line patterns (Position::line_patterns) is a four or more.
  static bool has_four(std::uint32_t patterns) {
    for (int d = 0; d < 4; ++d)
      if (((patterns >> (8 * d)) & 0x0f) >= static_cast<std::uint32_t>(gomoku::Pattern::kFour))
        return true;
    return false;
  }
  // Killers reach is_tactical before their legality is checked: an occupied point (or a
  // wall) makes nothing. Past that one test the packed patterns need no checks.
  static bool makes_four(const Position& p, Move m) {
    return m.sq < gomoku::kSquares && p.stone(m.sq) == gomoku::kEmpty &&
           has_four(p.line_patterns(m.sq, p.side_to_move()));
  }
  // What threat_moves lists (the capture rule's five-breaking captures aside): a five, a four
  // or a free three.
  static bool is_tactical(const Position& p, Move m) {
    return makes_four(p, m) || p.threat(m.sq, p.side_to_move()) >= gomoku::Threat::kFlexThree;
  }
  // A move that makes a four (or five) leaves the opponent "in check" (in_check() after it):
  // known before the move is made, so late move pruning skips make / unmake. Only fours are
  // extended: extending free threes too was measured far weaker (BENCHMARKS.md, issue 23).
  static bool gives_check(const Position& p, Move m) { return makes_four(p, m); }
  static bool is_legal(const Position& p, Move m) { return p.is_legal(m); }
  static std::uint64_t hash_after(const Position& p, Move m) { return p.hash_after(m); }
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
  // Quiet moves by what they make and block, summed over the four lines (a point that builds
  // or blocks on two lines outranks one that does so on one), on the history scale: a free
  // three or a four made or blocked on one line (2,048 x 8) matches the most history learns;
  // a flex two or a closed three an eighth of that, a two 1/128. With the wider move-count
  // limits (search_traits.cpp) this scored 46% against PentaZen at 1,000 ms over 80 games
  // where ordering by the strongest line alone (own x 16 + blocked x 12) scored 25%
  // (BENCHMARKS.md, issue 23, tenth step); ordering by the evaluation's per-point values
  // played no better, and would tie the order to the weights.
  static int quiet_value(const Position& p, Move m) {
    const auto me = p.side_to_move();
    const auto them = gomoku::opponent(me);
    // Quiet moves are empty points on the board: the packed patterns need no checks.
    const std::uint32_t own = p.line_patterns(m.sq, me), theirs = p.line_patterns(m.sq, them);
    int v = 0;
    for (int d = 0; d < 4; ++d)
      v += kQuietLineValue[(own >> (8 * d)) & 0x0f] + kQuietLineValue[(theirs >> (8 * d)) & 0x0f];
    return v * 8;
  }
  // By Pattern (none, dead, two, flex two, three, free three, four, open four, five, overline).
  static constexpr std::array<int, 10> kQuietLineValue = {0,    0,    16,   256,  256,
                                                          2048, 2048, 4096, 8192, 0};
  // Move-count pruning (the generic late move pruning, at every depth): quiet moves come
  // ordered by the shapes they make, and past the first few the rest are not worth a search.
  // Fewer when someone has a four or a free three on the board (the game is forcing there).
  static int late_move_limit(const Position& p, int depth);
  // Passing is no move in gomoku: null-move pruning is for the ablation only.
  static bool null_move_safe(const Position&) { return false; }
};

}  // namespace kibitz

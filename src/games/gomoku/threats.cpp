// Position's move lists for the searches: legal and candidate moves, wins, fours, threats and
// the answers to the opponent's threats.
#include "games/gomoku/position.hpp"

#include <algorithm>

#include "games/gomoku/position_detail.hpp"

namespace kibitz::gomoku {

using namespace detail;

// --- move lists ----------------------------------------------------------------------------

std::size_t Position::legal_moves(MoveList<Position>& out) const {
  out.clear();
  if (is_terminal()) return 0;
  for (int sq = first_point(); sq <= last_point(); ++sq)
    if (board_[sq] == kEmpty && !forbidden_for(sq, side_))
      out.push_back(Move{static_cast<std::uint16_t>(sq)});
  return out.size();
}

std::size_t Position::candidate_moves(MoveList<Position>& out, int radius) const {
  out.clear();
  if (is_terminal()) return 0;
  if (stones_ == 0) {
    const int centre = square_of(variant_.size / 2, variant_.size / 2);
    if (!forbidden_for(centre, side_)) out.push_back(Move{static_cast<std::uint16_t>(centre)});
    return out.size();
  }
  if (radius == 1 || radius == 2) {
    // Branch-free (whether a point is a candidate is a coin toss for the predictor): every
    // point is written, and only the kept ones advance the count.
    const auto& near = radius == 1 ? near1_ : near2_;
    Move* const raw = out.data();
    std::size_t kept = 0;
    for (int sq = first_point(); sq <= last_point(); ++sq) {
      raw[kept] = Move{static_cast<std::uint16_t>(sq)};
      kept += (board_[sq] == kEmpty) & (near[sq] > 0);
    }
    // Forbidden points (renju black, the capture rule's double three) are flagged first.
    if (count_[side_][kFlaggedBucket] > 0) {
      std::size_t legal = 0;
      for (std::size_t i = 0; i < kept; ++i)
        if (!forbidden_for(raw[i].sq, side_)) raw[legal++] = raw[i];
      kept = legal;
    }
    out.set_size(kept);
    return kept;
  }
  const int n = variant_.size;
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (board_[sq] != kEmpty) continue;
    // Wider radii (not the search's): look at the square around the point.
    bool near = false;
    const int x = x_of(sq), y = y_of(sq);
    for (int yy = std::max(0, y - radius); yy <= std::min(n - 1, y + radius) && !near; ++yy)
      for (int xx = std::max(0, x - radius); xx <= std::min(n - 1, x + radius); ++xx) {
        const auto s = board_[square_of(xx, yy)];
        if (s == kBlack || s == kWhite) {
          near = true;
          break;
        }
      }
    if (near && !forbidden_for(sq, side_)) out.push_back(Move{static_cast<std::uint16_t>(sq)});
  }
  return out.size();
}

Move Position::winning_move() const {
  if (is_terminal()) return Move::none();
  const Color c = side_;
  if (variant_.rule != Rule::kCapture) {
    if (count_[c][static_cast<int>(Threat::kFive)] == 0) return Move::none();
    for (int sq = first_point(); sq <= last_point(); ++sq)
      if (board_[sq] == kEmpty &&
          summary_threat(summary_[c][sq]) == static_cast<int>(Threat::kFive))
        return Move{static_cast<std::uint16_t>(sq)};
    return Move::none();
  }
  // Capture variant: the tenth captured stone, or a five the opponent cannot break (and,
  // facing a pending five, only after breaking it).
  const bool tenth = captures_[c] + 2 >= kCaptureWin && capturable_[c] > 0;
  if (!tenth && count_[c][static_cast<int>(Threat::kFive)] == 0) return Move::none();
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (board_[sq] != kEmpty) continue;
    const std::uint16_t s = summary_[c][sq];
    const int pairs = summary_captures(s);
    if (pairs && captures_[c] + 2 * pairs >= kCaptureWin)
      return Move{static_cast<std::uint16_t>(sq)};
    if (summary_threat(s) != static_cast<int>(Threat::kFive)) continue;
    if (pending_ && !breaks_pending(sq)) continue;
    Position after = *this;
    after.apply(Move{static_cast<std::uint16_t>(sq)});
    if (after.winner_ == c) return Move{static_cast<std::uint16_t>(sq)};
  }
  return Move::none();
}

bool Position::opponent_can_win() const {
  if (is_terminal()) return false;
  const Color o = opponent(side_);
  const bool fives = count_[o][static_cast<int>(Threat::kFive)] > 0;
  if (variant_.rule != Rule::kCapture) return fives;
  // Capture variant: a pending five, the tenth stone, or a five that cannot be broken.
  if (pending_ == o + 1 || (captures_[o] + 2 >= kCaptureWin && capturable_[o] > 0)) return true;
  if (!fives) return false;
  Position passed = *this;
  Undo u;
  passed.make_null(u);
  return static_cast<bool>(passed.winning_move());
}

Move Position::sure_win_move() const {
  if (is_terminal() || variant_.rule == Rule::kCapture) return Move::none();
  const Color c = side_, o = opponent(c);
  const auto& mine = count_[c];
  const auto& theirs = count_[o];
  if (mine[static_cast<int>(Threat::kFlexFour)] == 0) return Move::none();
  // A flagged point of the opponent's might be a four it is allowed to play: not certain.
  if (four_points(o) + theirs[static_cast<int>(Threat::kFive)] + theirs[kFlaggedBucket] != 0)
    return Move::none();
  for (int sq = first_point(); sq <= last_point(); ++sq)
    if (board_[sq] == kEmpty && !(summary_[c][sq] & kFlagged) &&
        summary_threat(summary_[c][sq]) == static_cast<int>(Threat::kFlexFour))
      return Move{static_cast<std::uint16_t>(sq)};
  return Move::none();
}

bool Position::opponent_threatens_open_four() const {
  if (is_terminal() || variant_.rule == Rule::kCapture) return false;
  return count_[opponent(side_)][static_cast<int>(Threat::kFlexFour)] > 0;
}

std::size_t Position::four_moves(MoveList<Position>& out) const {
  out.clear();
  if (is_terminal()) return 0;
  const Color c = side_;
  // Nothing to find without a five, four or flagged (maybe forbidden) point.
  const auto& n = count_[c];
  constexpr int kFive = static_cast<int>(Threat::kFive);
  constexpr int kFour = static_cast<int>(Threat::kFour);
  const int unflagged = n[kFive] + four_points(c);
  if (unflagged + n[kFlaggedBucket] == 0) return 0;
  // One scan, fives first and then fours (each in board order). The counts say how many
  // there are, so it stops at the last one, unless a flagged point may be one too.
  const int expected = n[kFlaggedBucket] ? static_cast<int>(kMaxMoves) : unflagged;
  MoveList<Position> fours;
  int found = 0;
  for (int sq = first_point(); sq <= last_point() && found < expected; ++sq) {
    const int t = summary_threat(summary_[c][sq]);  // 0 off the empty points
    if (t < kFour) continue;
    ++found;
    if (forbidden_for(sq, c)) continue;
    (t == kFive ? out : fours).push_back(Move{static_cast<std::uint16_t>(sq)});
  }
  for (const Move m : fours) out.push_back(m);
  return out.size();
}

int Position::answers_estimate(Move m) const {
  const int t = summary_threat(summary_[side_][m.sq]);
  if (t >= static_cast<int>(Threat::kFour)) return 1;
  return 3 + four_points(opponent(side_));
}

std::size_t Position::threat_moves(MoveList<Position>& out) const {
  out.clear();
  if (is_terminal()) return 0;
  const Color c = side_, o = opponent(c);
  const bool capture = variant_.rule == Rule::kCapture;
  // Nothing to find without a point that makes a free three or more (or a flagged one);
  // the capture rule's captures are not counted, so it always looks.
  const auto& n = count_[c];
  const int unflagged =
      n[static_cast<int>(Threat::kFlexThree)] + n[static_cast<int>(Threat::kThreeThree)] +
      n[static_cast<int>(Threat::kFour)] + n[static_cast<int>(Threat::kFourThree)] +
      n[static_cast<int>(Threat::kFlexFour)] + n[static_cast<int>(Threat::kFive)];
  if (!capture && unflagged + n[kFlaggedBucket] == 0) return 0;
  // The counts say how many such points there are, so the scan stops at the last one,
  // unless a flagged point may be one too (or captures count).
  const int expected = capture || n[kFlaggedBucket] ? static_cast<int>(kMaxMoves) : unflagged;
  int found = 0;
  // One pass: fives and winning captures first, then fours, then free threes and
  // five-breaking captures (the threat search tries them in that order); within fours and
  // threes the stronger shapes first (open and double fours, four-threes, double threes),
  // which a threat search finds its wins with soonest.
  MoveList<Position> fours, threes, strong_fours, strong_threes;
  for (int sq = first_point(); sq <= last_point() && found < expected; ++sq) {
    const std::uint16_t s = summary_[c][sq];  // 0 off the empty points
    const int t = summary_threat(s);
    // Most points make less than a free three: skip them on one test.
    if (t < static_cast<int>(Threat::kFlexThree) && !(capture && summary_captures(s))) continue;
    if (t >= static_cast<int>(Threat::kFlexThree)) ++found;
    const int pairs = capture ? summary_captures(s) : 0;
    const bool wins_by_capture = pairs && captures_[c] + 2 * pairs >= kCaptureWin;
    MoveList<Position>* list = nullptr;
    if (t == static_cast<int>(Threat::kFive) || wins_by_capture)
      list = &out;
    else if (t >= static_cast<int>(Threat::kFourThree))
      list = &strong_fours;
    else if (t >= static_cast<int>(Threat::kFour))
      list = &fours;
    else if (t == static_cast<int>(Threat::kThreeThree))
      list = &strong_threes;
    else if (t >= static_cast<int>(Threat::kFlexThree) ||
             (pairs && pending_ == o + 1 && breaks_pending(sq)))
      list = &threes;
    if (list && !forbidden_for(sq, c)) list->push_back(Move{static_cast<std::uint16_t>(sq)});
  }
  for (const Move m : strong_fours) out.push_back(m);
  for (const Move m : fours) out.push_back(m);
  for (const Move m : strong_threes) out.push_back(m);
  for (const Move m : threes) out.push_back(m);
  return out.size();
}

std::uint16_t Position::summary_on(const Board& b, int sq, Color c) const {
  std::uint64_t sum = 0;
  for (int d = 0; d < 4; ++d)
    sum += eval_->entry_info[table_[c][scan_key(b.data(), sq, kDirections[d], c)]];
  int value = 0;
  return summarise(sum, mode_[c], value);
}

std::size_t Position::defence_moves(MoveList<Position>& out) const {
  out.clear();
  if (is_terminal()) return 0;
  const Color c = side_, o = opponent(c);
  const bool capture = variant_.rule == Rule::kCapture;
  constexpr int kFive = static_cast<int>(Threat::kFive);
  constexpr int kFour = static_cast<int>(Threat::kFour);
  const auto push = [&](int sq) { out.push_back(Move{static_cast<std::uint16_t>(sq)}); };
  const bool fours = count_[o][kFive] > 0;

  // Capture variant against an immediate win (a five to complete, a pending five, the tenth
  // stone to take): beyond blocks and captures, a stone that flanks a pair of the coming
  // five makes it breakable, so candidates are gathered generously and each is played out.
  if (capture && opponent_can_win()) return capture_defences(out);

  // Against fives to complete (no captures): a stone on one five point cannot take another
  // away (that five is the other point and four of the opponent's stones), so the answer to
  // one is that point, and against several there is none (each is listed as a partial
  // answer). Own fives win first. Same list as the general case below, without its trials.
  if (fours && !capture) {
    const bool single = count_[o][kFive] == 1;
    MoveList<Position> partial;
    // Five points are never flagged for their own colour, so the counts say how many there
    // are: the scan stops at the last one.
    const int expected = count_[o][kFive] + count_[c][kFive];
    int found = 0;
    for (int sq = first_point(); sq <= last_point() && found < expected; ++sq) {
      const bool mine = summary_threat(summary_[c][sq]) == kFive;  // none off the empty points
      const bool theirs = summary_threat(summary_[o][sq]) == kFive;
      found += mine | theirs;
      if ((!mine && !theirs) || forbidden_for(sq, c)) continue;
      if (mine || single)
        push(sq);
      else
        partial.push_back(Move{static_cast<std::uint16_t>(sq)});
    }
    if (out.size() == 0)
      for (Move m : partial) out.push_back(m);
    return out.size();
  }

  // Against open-four points (no captures): a stone changes a threat point's pattern only
  // along the one line joining them, so each trial is one table lookup, not a board rescan.
  if (!capture) return open_four_defences(out);

  // Points the opponent would complete a five on, or else where it would make an
  // unstoppable four (an open four, or two fours).
  std::array<int, kMaxMoves> threats{};
  int num_threats = 0;
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (board_[sq] != kEmpty) continue;
    const int t = summary_threat(summary_[o][sq]);
    if (fours ? t == kFive : t == static_cast<int>(Threat::kFlexFour) && !forbidden_for(sq, o))
      threats[num_threats++] = sq;
  }
  if (num_threats == 0) return 0;
  const int level = fours ? kFive : static_cast<int>(Threat::kFlexFour);

  // A point on a threat's lines (within the window) may block it.
  std::array<bool, kSquares> on_line{};
  for (int i = 0; i < num_threats; ++i) {
    const int t = threats[i];
    on_line[t] = true;
    for (const int e : kEightWays) {
      int p = t;
      for (int k = 1; k <= detail::kHalfWindow; ++k) {
        p += e;
        if (board_[p] == kWall) break;
        on_line[p] = true;
      }
    }
  }

  // Answers to every threat go to `out`; answers to some of them (when several threats
  // leave no full answer) to `partial`, returned instead so that a search plays on and
  // finds the loss rather than taking "no answer" for "no threat".
  MoveList<Position> partial;
  Board scratch = board_;
  for (int sq = first_point(); sq <= last_point(); ++sq) {
    if (board_[sq] != kEmpty || forbidden_for(sq, c)) continue;
    const int mine = summary_threat(summary_[c][sq]);
    const int pairs = capture ? summary_captures(summary_[c][sq]) : 0;
    bool ok = mine == kFive || (!fours && mine >= kFour);  // a win, or a counter-four
    if (!ok && (on_line[sq] || pairs)) {
      // Play it on a scratch board and see which threats are left.
      if (capture)
        capture_on(scratch, sq, c);
      else
        scratch[sq] = c;
      int left = 0;
      for (int i = 0; i < num_threats; ++i) {
        const int t = threats[i];
        if (t != sq && scratch[t] == kEmpty && summary_threat(summary_on(scratch, t, o)) >= level)
          ++left;
      }
      if (capture)
        scratch = board_;
      else
        scratch[sq] = kEmpty;
      ok = left == 0;
      if (!ok && left < num_threats) partial.push_back(Move{static_cast<std::uint16_t>(sq)});
    }
    if (ok) push(sq);
  }
  if (out.size() == 0)
    for (Move m : partial) out.push_back(m);
  return out.size();
}

std::size_t Position::open_four_defences(MoveList<Position>& out) const {
  const Color c = side_, o = opponent(c);
  constexpr int kFive = static_cast<int>(Threat::kFive);
  constexpr int kFlexFour = static_cast<int>(Threat::kFlexFour);
  constexpr int kFour = static_cast<int>(Threat::kFour);
  // The threat points. The counts say how many there are, so the scan stops at the last one
  // (unless a flagged point, which the counts keep apart, may be one too).
  std::array<std::uint16_t, kMaxMoves> threats;
  int num_threats = 0;
  const int expected = count_[o][kFlaggedBucket] ? kMaxMoves : count_[o][kFlexFour];
  // (The summaries are 0 off the empty points.)
  for (int sq = first_point(); sq <= last_point() && num_threats < expected; ++sq)
    if (summary_threat(summary_[o][sq]) == kFlexFour && !forbidden_for(sq, o))
      threats[num_threats++] = static_cast<std::uint16_t>(sq);
  if (num_threats == 0) return 0;
  // For each empty point, how many threats a stone of c there removes: the threat point
  // itself, and any threat whose summary falls below an open four once c blocks that cell of
  // its window. A stone changes a threat's pattern only along the one line joining them, so
  // each trial is one table look-up, made walking out from the threat (no point outside the
  // windows can block). The windows' points are listed once each, for the scans below.
  std::array<std::uint8_t, kSquares> removed{};
  std::array<std::uint8_t, kSquares> near_threat{};
  std::array<std::uint16_t, kMaxMoves + 1> near;  // + 1: the branch-free append's last write
  int num_near = 0;
  const auto mark = [&](int p) {
    near[num_near] = static_cast<std::uint16_t>(p);
    num_near += !near_threat[p];
    near_threat[p] = 1;
  };
  const std::uint64_t* const entry_info = eval_->entry_info.data();
  for (int i = 0; i < num_threats; ++i) {
    const int t = threats[i];
    mark(t);
    ++removed[t];
    for (int d = 0; d < 4; ++d) {
      const int key = key_[o][t][d];
      // The point's sums without this line: each trial adds the line's new entry.
      const std::uint64_t rest = point_info(o, t) - entry_info[entry_[o][t][d]];
      for (int side = -1; side <= 1; side += 2) {
        int p = t;
        for (int k = 1; k <= detail::kHalfWindow; ++k) {
          p += side * kDirections[d];
          if (board_[p] == kWall) break;
          mark(p);
          if (board_[p] != kEmpty) continue;
          // c's stone is a blocked cell (digit 2) in o's key where there was an empty one.
          const int blocked = key + 2 * kPow3[detail::digit_of(side * k)];
          int value = 0;
          removed[p] += summary_threat(summarise(rest + entry_info[table_[o][blocked]], mode_[o],
                                                 value)) < kFlexFour;
        }
      }
    }
  }
  MoveList<Position> partial;
  // A point answers by a counter-four (or a five), or by blocking: then it lies within the
  // window of a threat along its lines (no other point can change the threat's pattern).
  const auto consider = [&](int sq, bool in_window) {
    if (board_[sq] != kEmpty) return;
    const int mine = summary_threat(summary_[c][sq]);
    if ((mine < kFour && !in_window) || forbidden_for(sq, c)) return;
    if (mine >= kFour) {
      out.push_back(Move{static_cast<std::uint16_t>(sq)});
      return;
    }
    const int left = num_threats - removed[sq];
    if (left == 0)
      out.push_back(Move{static_cast<std::uint16_t>(sq)});
    else if (left < num_threats)
      partial.push_back(Move{static_cast<std::uint16_t>(sq)});
  };
  const auto& mine = count_[c];
  const bool counter_fours = four_points(c) + mine[kFive] + mine[kFlaggedBucket] > 0;
  if (counter_fours) {
    // consider() keeps only window points and own fours: test those two first, cheaply.
    // The scan stops past the last window point once the counts' own fours are all seen
    // (unless a flagged point, which the counts keep apart, may be one too).
    const int last_near = *std::max_element(near.begin(), near.begin() + num_near);
    const int own_fours = mine[kFlaggedBucket] ? kMaxMoves : four_points(c) + mine[kFive];
    int found = 0;
    for (int sq = first_point(); sq <= last_point() && (sq <= last_near || found < own_fours);
         ++sq) {
      const bool four = summary_threat(summary_[c][sq]) >= kFour;
      found += four;
      if (near_threat[sq] || four) consider(sq, near_threat[sq] != 0);
    }
  } else {
    // Only the windows, in board order (the list's order is the search's move order).
    std::sort(near.begin(), near.begin() + num_near);
    for (int i = 0; i < num_near; ++i) consider(near[i], true);
  }
  if (out.size() == 0)
    for (Move m : partial) out.push_back(m);
  return out.size();
}

}  // namespace kibitz::gomoku

// Position's move lists for the searches: legal and candidate moves, wins, fours, threats and
// the answers to the opponent's threats.
#include "games/gomoku/position.hpp"

#include <algorithm>
#include <bit>

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
    // 64 points a compare (whether a point is a candidate is a coin toss for a branch).
    const auto& near = radius == 1 ? near1_ : near2_;
    Move* const raw = out.data();
    std::size_t kept = 0;
    for (int base = first_point(); base <= last_point(); base += 64)
      for (std::uint64_t m = candidate_mask(board_.data() + base, near.data() + base,
                                            std::min(64, last_point() - base + 1));
           m; m &= m - 1)
        raw[kept++] = Move{static_cast<std::uint16_t>(base + std::countr_zero(m))};
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
    // (The summaries are 0 off the empty points.)
    constexpr int kFive = static_cast<int>(Threat::kFive);
    Move win = Move::none();
    for_each_threat_point(summary_[c].data(), first_point(), last_point(), kFive, kFive,
                          [&](int sq) {
                            win = Move{static_cast<std::uint16_t>(sq)};
                            return false;
                          });
    return win;
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
  constexpr int kFlexFour = static_cast<int>(Threat::kFlexFour);
  Move win = Move::none();  // (the summaries are 0 off the empty points)
  for_each_threat_point(summary_[c].data(), first_point(), last_point(), kFlexFour, kFlexFour,
                        [&](int sq) {
                          if (summary_[c][sq] & kFlagged) return true;
                          win = Move{static_cast<std::uint16_t>(sq)};
                          return false;
                        });
  return win;
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
  // One scan, fives first and then fours (each in board order; the summaries are 0 off the
  // empty points).
  MoveList<Position> fours;
  for_each_threat_point(summary_[c].data(), first_point(), last_point(), kFour, kTopClass,
                        [&](int sq) {
                          if (!forbidden_for(sq, c))
                            (summary_threat(summary_[c][sq]) == kFive ? out : fours)
                                .push_back(Move{static_cast<std::uint16_t>(sq)});
                          return true;
                        });
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
  // One pass: fives and winning captures first, then fours, then free threes and
  // five-breaking captures (the threat search tries them in that order); within fours and
  // threes the stronger shapes first (open and double fours, four-threes, double threes),
  // which a threat search finds its wins with soonest.
  MoveList<Position> fours, threes, strong_fours, strong_threes;
  const auto visit = [&](int sq) {
    const std::uint16_t s = summary_[c][sq];  // 0 off the empty points
    const int t = summary_threat(s);
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
  };
  if (capture) {
    // Captures are no threat class: every point is looked at.
    for (int sq = first_point(); sq <= last_point(); ++sq) {
      const std::uint16_t s = summary_[c][sq];
      if (summary_threat(s) >= static_cast<int>(Threat::kFlexThree) || summary_captures(s))
        visit(sq);
    }
  } else {
    for_each_threat_point(summary_[c].data(), first_point(), last_point(),
                          static_cast<int>(Threat::kFlexThree), kTopClass, [&](int sq) {
                            visit(sq);
                            return true;
                          });
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
    // Both colours' five points, in board order (none off the empty points).
    for (int base = first_point(); base <= last_point(); base += 32) {
      const int n = std::min(32, last_point() - base + 1);
      const std::uint32_t mine = threat_mask(summary_[c].data() + base, n, kFive, kFive);
      for (std::uint32_t m = mine | threat_mask(summary_[o].data() + base, n, kFive, kFive); m;
           m &= m - 1) {
        const int k = std::countr_zero(m), sq = base + k;
        if (forbidden_for(sq, c)) continue;
        if (((mine >> k) & 1) || single)
          push(sq);
        else
          partial.push_back(Move{static_cast<std::uint16_t>(sq)});
      }
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
  // The threat points (the summaries are 0 off the empty points).
  std::array<std::uint16_t, kMaxMoves> threats;
  int num_threats = 0;
  for_each_threat_point(summary_[o].data(), first_point(), last_point(), kFlexFour, kFlexFour,
                        [&](int sq) {
                          if (!forbidden_for(sq, o))
                            threats[num_threats++] = static_cast<std::uint16_t>(sq);
                          return true;
                        });
  if (num_threats == 0) return 0;
  // For each empty point, how many threats a stone of c there removes: the threat point
  // itself, and any threat whose summary falls below an open four once c blocks that cell of
  // its window. A stone changes a threat's pattern only along the one line joining them, so
  // each trial is one table look-up, made walking out from the threat (no point outside the
  // windows can block). The windows' points are marked, for the scans below.
  std::array<std::uint8_t, kSquares> removed{};
  std::array<std::uint8_t, kSquares> near_threat{};
  const std::uint64_t* const entry_info = eval_->entry_info.data();
  for (int i = 0; i < num_threats; ++i) {
    const int t = threats[i];
    near_threat[t] = 1;
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
          near_threat[p] = 1;
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
  // consider() keeps only window points and own fours: one scan finds both, in board order
  // (the list's order is the search's move order); without own fours only the windows.
  const auto& mine = count_[c];
  const bool counter_fours = four_points(c) + mine[kFive] + mine[kFlaggedBucket] > 0;
  for_each_threat_point(
      summary_[c].data(), first_point(), last_point(), counter_fours ? kFour : kNoClass, kTopClass,
      [&](int sq) {
        consider(sq, near_threat[sq] != 0);
        return true;
      },
      near_threat.data());
  if (out.size() == 0)
    for (Move m : partial) out.push_back(m);
  return out.size();
}

}  // namespace kibitz::gomoku

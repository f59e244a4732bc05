// Threat queries on small hand-built positions: the answers to a five threat, to an open
// three, counter-fours, and the moves that make fours and threes; the sure open four and the
// quiescence's narrow VCF against brute force and the full threat search on random games; the
// proof-number search's guessed answers and its agreement with the iterative deepening.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "core/rng.hpp"
#include "games/gomoku/position_detail.hpp"
#include "games/gomoku/search_traits.hpp"
#include "search/threat/proof_number_search.hpp"
#include "search/threat/threat_search.hpp"
#include "unit/gomoku/gomoku_test_util.hpp"

namespace kibitz::gomoku {
namespace {

using testing::at;
using testing::setup;
using testing::squares;
using testing::squares_of;

TEST(GomokuThreats, AgainstAFourOnlyTheCompletionPoint) {
  // White to move; black's four f8..i8 is blocked at e8 by white and completes at j8.
  Position p = setup({}, {"OXXXX."}, kWhite, 4, 7);
  EXPECT_TRUE(p.opponent_can_win());
  MoveList<Position> moves;
  p.defence_moves(moves);
  EXPECT_EQ(squares(moves), squares_of({at(9, 7)}));
  EXPECT_EQ(p.winning_move(), Move::none());
  // With black to move the same point wins, and it is the only four move.
  Position b = setup({}, {"OXXXX."}, kBlack, 4, 7);
  EXPECT_EQ(b.winning_move(), at(9, 7));
  b.four_moves(moves);
  ASSERT_GE(moves.size(), 1u);
  EXPECT_EQ(moves[0], at(9, 7));  // fives first
  EXPECT_FALSE(b.opponent_can_win());
}

TEST(GomokuThreats, AnOwnFiveAnswersAFour) {
  // White can block at j8 or win at once on column b.
  Position q = setup({}, {".O", ".O", ".O", ".O", "..", "..", "..", "OXXXX."}, kWhite, 0, 0);
  MoveList<Position> moves;
  q.defence_moves(moves);
  EXPECT_EQ(squares(moves), squares_of({at(1, 4), at(5, 7)}));
}

TEST(GomokuThreats, AgainstAnOpenFourBothBlocksThoughNeitherSaves) {
  Position p = setup({}, {".XXXX."}, kWhite, 4, 7);
  EXPECT_TRUE(p.opponent_can_win());
  MoveList<Position> moves;
  p.defence_moves(moves);
  EXPECT_EQ(squares(moves), squares_of({at(4, 7), at(9, 7)}));
  EXPECT_LE(p.evaluate(), -10000);
}

TEST(GomokuThreats, AgainstTwoFreeThreesTheAnswersToEither) {
  // Black's c4 c5 c6 and h11 i11 j11: no single move stops both open fours, so the list
  // holds the moves that stop one (adjacent blocks, and far blocks that stop one side).
  const std::vector<std::pair<int, int>> black = {{2, 3},  {2, 4},  {2, 5},
                                                  {7, 10}, {8, 10}, {9, 10}};
  auto p = Position::from_setup({}, black, {}, 1);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_FALSE(p->opponent_can_win());
  MoveList<Position> moves;
  p->defence_moves(moves);
  EXPECT_EQ(squares(moves), squares_of({at(2, 1), at(2, 2), at(2, 6), at(2, 7), at(5, 10),
                                        at(6, 10), at(10, 10), at(11, 10)}));
}

TEST(GomokuThreats, AgainstAnOpenThreeTheTwoBlocks) {
  // Black's f8 g8 h8 with room on both sides: only e8 and i8 stop the open four.
  Position p = setup({}, {"XXX"}, kWhite, 5, 7);
  EXPECT_FALSE(p.opponent_can_win());
  MoveList<Position> moves;
  p.defence_moves(moves);
  EXPECT_EQ(squares(moves), squares_of({at(4, 7), at(8, 7)}));
}

TEST(GomokuThreats, AgainstASplitThreeTheGapAndBothEnds) {
  // _X_XX_ : the gap makes the straight four; both ends and the gap stop it.
  Position p = setup({}, {"X.XX"}, kWhite, 5, 7);
  MoveList<Position> moves;
  p.defence_moves(moves);
  EXPECT_EQ(squares(moves), squares_of({at(4, 7), at(6, 7), at(9, 7)}));
}

TEST(GomokuThreats, CounterFoursAnswerAnOpenThree) {
  // White also has a three against the top edge (a1 b1 c1): d1 and e1 make fours.
  Position q = setup({}, {"OOO", "", "", "", "", "", "", ".....XXX"}, kWhite, 0, 0);
  MoveList<Position> moves;
  q.defence_moves(moves);
  EXPECT_EQ(squares(moves), squares_of({at(3, 0), at(4, 0), at(4, 7), at(8, 7)}));
}

TEST(GomokuThreats, NothingToAnswer) {
  Position p = setup({}, {"XX"}, kWhite, 5, 7);
  MoveList<Position> moves;
  EXPECT_EQ(p.defence_moves(moves), 0u);
  EXPECT_FALSE(p.opponent_can_win());
}

TEST(GomokuThreats, ThreatAndFourMoves) {
  // Black's open two g8 h8: the free threes are e8 f8 i8 j8 (no fours yet).
  Position two = setup({}, {"XX"}, kBlack, 6, 7);
  MoveList<Position> moves;
  two.threat_moves(moves);
  EXPECT_EQ(squares(moves), squares_of({at(4, 7), at(5, 7), at(8, 7), at(9, 7)}));
  EXPECT_EQ(two.four_moves(moves), 0u);
  // An open three f8 g8 h8: fours at d8 e8 i8 j8.
  Position three = setup({}, {"XXX"}, kBlack, 5, 7);
  three.four_moves(moves);
  EXPECT_EQ(squares(moves), squares_of({at(3, 7), at(4, 7), at(8, 7), at(9, 7)}));
  for (Move m : moves) {
    EXPECT_GE(three.threat(m.sq, kBlack), Threat::kFour);
    EXPECT_TRUE(three.makes_five(m, kBlack) == false);
  }
  three.threat_moves(moves);
  EXPECT_EQ(moves.size(), 4u);  // the fours (a further three would need more stones)
}

TEST(GomokuThreats, RenjuThreatsLeaveOutForbiddenPoints) {
  // Black's h8 is a double three (forbidden), so it is no threat move for black.
  Position p = setup({.rule = Rule::kRenju}, {".XX", "X..", "X.."}, kBlack, 7, 7);
  MoveList<Position> moves;
  p.threat_moves(moves);
  EXPECT_FALSE(moves.contains(at(7, 7)));
  EXPECT_TRUE(moves.contains(at(10, 7)));  // h8 is out, but k8 still makes a free three
  Position w = setup({.rule = Rule::kFreestyle}, {".XX", "X..", "X.."}, kBlack, 7, 7);
  w.threat_moves(moves);
  EXPECT_TRUE(moves.contains(at(7, 7)));
}

// defence_moves against a brute-force reading of its definition on random positions (no
// captures): the threats are the opponent's five points, else its open-four points (not
// forbidden to it); a full answer is a legal move that makes our own four or five, or after
// which none of those points is a threat any more; without one, the moves that answer some.
TEST(GomokuThreats, DefenceMovesMatchBruteForceOnRandomPositions) {
  int checked = 0;
  for (const Rule rule : {Rule::kFreestyle, Rule::kExactFive, Rule::kRenju}) {
    Rng rng(static_cast<std::uint64_t>(rule) + 11);
    for (int game = 0; game < 60; ++game) {
      Position p(Variant{15, rule});
      for (int ply = 0; ply < 50 && !p.is_terminal(); ++ply) {
        const Color c = p.side_to_move(), o = opponent(c);
        const bool fours = p.opponent_can_win();
        const Threat level = fours ? Threat::kFive : Threat::kFlexFour;
        Position passed = p;  // o to move: is_forbidden() asks for o
        Position::Undo nu;
        passed.make_null(nu);
        std::vector<int> threats;
        for (int sq = 0; sq < kSquares; ++sq)
          if (p.threat(sq, o) == level &&
              (fours || !passed.is_forbidden(Move{static_cast<std::uint16_t>(sq)})))
            threats.push_back(sq);
        std::vector<int> full, partial;
        for (int sq = 0; sq < kSquares; ++sq) {
          const Move m{static_cast<std::uint16_t>(sq)};
          if (threats.empty() || p.stone(sq) != kEmpty || !p.is_legal(m)) continue;
          const Threat mine = p.threat(sq, c);
          if (mine == Threat::kFive || (!fours && mine >= Threat::kFour)) {
            full.push_back(sq);
            continue;
          }
          Position q = p;
          Position::Undo u;
          q.make(m, u);
          int left = 0;
          for (int t : threats)
            if (t != sq && q.threat(t, o) >= level) ++left;
          if (left == 0)
            full.push_back(sq);
          else if (left < static_cast<int>(threats.size()))
            partial.push_back(sq);
        }
        MoveList<Position> got;
        p.defence_moves(got);
        const std::vector<int> want = threats.empty() ? std::vector<int>{}
                                      : full.empty()  ? partial
                                                      : full;
        ASSERT_EQ(squares(got), want) << p.to_string();
        checked += threats.empty() ? 0 : 1;
        MoveList<Position> moves;
        p.candidate_moves(moves, 1);
        if (moves.size() == 0) break;
        p.apply(moves[rng.below(moves.size())]);
      }
    }
  }
  EXPECT_GT(checked, 200);
}

// Positions of random games (moves next to stones, so that fours and threes are frequent)
// under the three rules without captures, handed to `check` one by one.
template <class F>
void for_random_positions(std::uint64_t seed, int games, F&& check) {
  for (const Rule rule : {Rule::kFreestyle, Rule::kExactFive, Rule::kRenju}) {
    Rng rng(static_cast<std::uint64_t>(rule) + seed);
    for (int game = 0; game < games; ++game) {
      Position p(Variant{15, rule});
      for (int ply = 0; ply < 60 && !p.is_terminal(); ++ply) {
        check(p);
        MoveList<Position> moves;
        p.candidate_moves(moves, 1);
        if (moves.size() == 0) break;
        p.apply(moves[rng.below(moves.size())]);
      }
    }
  }
}

// The move lists read the board with 32- and 64-point masks (AVX-512 where built for it):
// each list equals a plain point-by-point scan, on every board size (the last mask is short).
TEST(GomokuThreats, MoveListsMatchAPlainScanOnRandomPositions) {
  int fours_seen = 0, threats_seen = 0;
  for (const int size : {15, 17, 19, 20}) {
    for (const Rule rule : {Rule::kFreestyle, Rule::kExactFive, Rule::kRenju}) {
      Rng rng(static_cast<std::uint64_t>(rule) * 100 + static_cast<std::uint64_t>(size));
      for (int game = 0; game < 12; ++game) {
        Position p(Variant{size, rule});
        for (int ply = 0; ply < 70 && !p.is_terminal(); ++ply) {
          const Color c = p.side_to_move();
          std::vector<int> fives, fours, strong_fours, plain_fours, strong_threes, threes;
          std::vector<int> near[3];
          for (int sq = 0; sq < kSquares; ++sq) {
            const Move m{static_cast<std::uint16_t>(sq)};
            if (p.stone(sq) != kEmpty || !p.is_legal(m)) continue;
            const Threat t = p.threat(sq, c);
            if (t == Threat::kFive) fives.push_back(sq);
            if (t >= Threat::kFour && t < Threat::kFive) fours.push_back(sq);
            if (t == Threat::kFourThree || t == Threat::kFlexFour) strong_fours.push_back(sq);
            if (t == Threat::kFour) plain_fours.push_back(sq);
            if (t == Threat::kThreeThree) strong_threes.push_back(sq);
            if (t == Threat::kFlexThree) threes.push_back(sq);
            for (int r = 1; r <= 2; ++r) {
              bool by_stone = false;
              for (int dy = -r; dy <= r; ++dy)
                for (int dx = -r; dx <= r; ++dx) {
                  const int x = x_of(sq) + dx, y = y_of(sq) + dy;
                  by_stone |=
                      x >= 0 && y >= 0 && x < size && y < size &&
                      (p.stone(square_of(x, y)) == kBlack || p.stone(square_of(x, y)) == kWhite);
                }
              if (by_stone) near[r].push_back(sq);
            }
          }
          const auto cat = [](std::initializer_list<const std::vector<int>*> parts) {
            std::vector<int> all;
            for (const auto* part : parts) all.insert(all.end(), part->begin(), part->end());
            return all;
          };
          const auto in_order = [](const MoveList<Position>& list) {  // squares() sorts
            std::vector<int> out;
            for (const Move m : list) out.push_back(m.sq);
            return out;
          };
          MoveList<Position> got;
          p.four_moves(got);
          ASSERT_EQ(in_order(got), cat({&fives, &fours})) << p.to_string();
          p.threat_moves(got);
          ASSERT_EQ(in_order(got),
                    cat({&fives, &strong_fours, &plain_fours, &strong_threes, &threes}))
              << p.to_string();
          // (A five point is legal for renju black too, so the first is the first five.)
          EXPECT_EQ(p.winning_move().sq, fives.empty() ? 0 : fives[0]) << p.to_string();
          for (int r = 1; r <= 2 && ply > 0; ++r) {
            p.candidate_moves(got, r);
            ASSERT_EQ(in_order(got), near[r]) << p.to_string();
          }
          fours_seen += !fours.empty();
          threats_seen += !strong_fours.empty() + !strong_threes.empty();
          p.candidate_moves(got, 1);
          if (got.size() == 0) break;
          p.apply(got[rng.below(got.size())]);
        }
      }
    }
  }
  EXPECT_GT(fours_seen, 500);
  EXPECT_GT(threats_seen, 100);
}

// The vector masks against their scalar forms on random summaries, marks, lengths and bounds.
TEST(GomokuThreats, BoardScanMasksMatchTheirScalarForms) {
  Rng rng(5);
  std::array<std::uint16_t, 32> s{};
  std::array<std::uint8_t, 64> marks{}, board{}, near{};
  for (int trial = 0; trial < 20000; ++trial) {
    for (auto& v : s) v = static_cast<std::uint16_t>(rng.below(1 << 16));
    for (int k = 0; k < 64; ++k) {
      marks[k] = static_cast<std::uint8_t>(rng.below(8) == 0 ? 1 + rng.below(255) : 0);
      board[k] = static_cast<std::uint8_t>(rng.below(4));
      near[k] = static_cast<std::uint8_t>(rng.below(3) == 0 ? 0 : rng.below(256));
    }
    const int n = 1 + static_cast<int>(rng.below(32));
    const int lo = static_cast<int>(rng.below(17)), hi = static_cast<int>(rng.below(16));
    const std::uint8_t* m = trial % 2 ? marks.data() : nullptr;
    ASSERT_EQ(detail::threat_mask(s.data(), n, lo, hi, m),
              detail::threat_mask_scalar(s.data(), n, lo, hi, m))
        << "n " << n << " lo " << lo << " hi " << hi;
    const int n64 = 1 + static_cast<int>(rng.below(64));
    ASSERT_EQ(detail::candidate_mask(board.data(), near.data(), n64),
              detail::candidate_mask_scalar(board.data(), near.data(), n64))
        << "n " << n64;
  }
}

TEST(GomokuThreats, SureOpenFourOnAHandBuiltPosition) {
  // Black's free three c3-e3 on an otherwise open board: b3 or f3 makes an open four, and
  // white has nothing that makes a four.
  const Variant v{15, Rule::kFreestyle};
  Position p = setup(v, {"", "", "..XXX.....", "", "", ".O..O....O"}, kBlack, 2, 2);
  const Move m = p.sure_win_move();
  ASSERT_TRUE(m);
  EXPECT_EQ(p.threat(m.sq, kBlack), Threat::kFlexFour);
  // Give white a closed three it can turn into a four: no longer certain.
  Position q = setup(v, {"", "", "..XXX.....", "", "", "XOOO......"}, kBlack, 2, 2);
  EXPECT_FALSE(q.sure_win_move());
}

// sure_win_move() against brute force: after its move every legal reply leaves the side
// that played it a five to make, and the opponent never had one first.
TEST(GomokuThreats, SureOpenFourWinsAgainstEveryReply) {
  int claims = 0;
  for_random_positions(31, 40, [&](const Position& p) {
    const Move m = p.sure_win_move();
    if (!m) return;
    ++claims;
    ASSERT_TRUE(p.is_legal(m)) << p.to_string();
    Position q = p;
    q.apply(m);
    ASSERT_FALSE(q.is_terminal());
    ASSERT_FALSE(q.winning_move()) << "the opponent wins first\n" << q.to_string();
    MoveList<Position> replies;
    q.legal_moves(replies);
    for (const Move r : replies) {
      Position t = q;
      t.apply(r);
      ASSERT_FALSE(t.is_terminal()) << t.to_string();
      ASSERT_TRUE(t.winning_move()) << "reply " << to_text(r) << " holds\n" << t.to_string();
    }
  });
  EXPECT_GT(claims, 20);
}

// The quiescence's narrow VCF claims only real wins: each claim is confirmed by the full VCF
// search, within as many attacker moves.
TEST(GomokuThreats, NarrowVcfClaimsAreProvenByTheThreatSearch) {
  search::ThreatSearch<Position> threats(16);
  int claims = 0;
  for_random_positions(47, 40, [&](const Position& p) {
    Position q = p;
    const int plies = SearchTraits<Position>::quiescence_win(q);
    ASSERT_EQ(q, p) << "the position was not restored";
    if (plies == 0) return;
    ++claims;
    threats.clear();
    const auto r = threats.solve(q, search::ThreatKind::kVcf, {.max_depth = (plies + 1) / 2});
    ASSERT_TRUE(r.win) << plies << " plies claimed\n" << p.to_string();
  });
  EXPECT_GT(claims, 50);
}

// The proof-number search's guess of a threat's answers: one after a four, and after a free
// three its three usual blocks plus the defender's own four points.
TEST(GomokuThreats, AnswersEstimateOnHandBuiltPositions) {
  // Black's g8 h8 i8: f8 or j8 makes an open four (guessed as a four, one answer).
  Position three = setup({}, {"XXX"}, kBlack, 6, 7);
  EXPECT_EQ(three.answers_estimate(at(9, 7)), 1);
  // Black's open two g8 h8: f8 makes a free three; white has no four to make.
  Position two = setup({}, {"XX"}, kBlack, 6, 7);
  EXPECT_EQ(two.answers_estimate(at(5, 7)), 3);
  // White's a1 b1 c1 against the edge: d1 and e1 would be its counter-fours.
  Position counter = setup({}, {"OOO", "", "", "", "", "", "", "......XX"}, kBlack, 0, 0);
  EXPECT_EQ(counter.answers_estimate(at(5, 7)), 5);
}

// After a four with a single five point the guess (1) is the true number of answers, unless
// a side had a four on the board before it or the defender has a five of its own after it
// (or is renju black, forbidden the block).
TEST(GomokuThreats, AnswersEstimateOfAFourIsExact) {
  int fours = 0;
  for_random_positions(53, 40, [&](const Position& p) {
    if (p.opponent_can_win() || p.winning_move()) return;  // a four already on the board
    MoveList<Position> moves;
    p.four_moves(moves);
    for (const Move m : moves) {
      const Threat t = p.threat(m.sq, p.side_to_move());
      if (t != Threat::kFour && t != Threat::kFourThree) continue;
      Position q = p;
      q.apply(m);
      if (q.is_terminal() || q.winning_move()) continue;
      MoveList<Position> answers;
      q.defence_moves(answers);
      ASSERT_EQ(p.answers_estimate(m), 1);
      // Renju black may be forbidden the block, and then has no answer at all.
      if (p.rule() == Rule::kRenju && q.side_to_move() == kBlack)
        ASSERT_LE(answers.size(), 1u) << p.to_string();
      else
        ASSERT_EQ(answers.size(), 1u) << p.to_string();
      ++fours;
    }
  });
  EXPECT_GT(fours, 200);
}

// With the guessed first proof numbers the proof-number search still searches the whole tree
// to its cap: on random positions it proves exactly what the iterative deepening proves, to
// the same number of attacker moves, and each proven line replays to the attacker's five.
TEST(GomokuThreats, ProofNumbersAgreeWithTheIterativeDeepening) {
  search::ThreatSearch<Position> id(16);
  search::ProofNumberSearch<Position> pn(16);
  int compared = 0, wins = 0;
  for_random_positions(59, 12, [&](const Position& p) {
    if (p.is_terminal()) return;
    for (const auto kind : {search::ThreatKind::kVcf, search::ThreatKind::kVct}) {
      Position a = p, b = p;
      const auto x = id.solve(a, kind, {.max_depth = 3});
      const auto y = pn.solve(b, kind, {.max_depth = 3});
      ASSERT_FALSE(x.aborted || y.aborted);
      ASSERT_EQ(b, p) << "the position was not restored";
      ASSERT_EQ(x.win, y.win) << "kind " << static_cast<int>(kind) << "\n" << p.to_string();
      ++compared;
      if (!y.win) continue;
      ++wins;
      Position r = p;
      for (const Move m : y.line) r.apply(m);
      EXPECT_TRUE(r.is_terminal() && r.winner() == p.side_to_move()) << p.to_string();
    }
  });
  EXPECT_GT(compared, 1000);
  EXPECT_GT(wins, 100);
}

}  // namespace
}  // namespace kibitz::gomoku

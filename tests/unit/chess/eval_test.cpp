// The evaluation: linear in its weights (the trace reproduces it exactly), colour-symmetric,
// and sensible on a few positions whose verdict is clear.
#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <string>

#include "core/rng.hpp"
#include "games/chess/eval.hpp"
#include "games/chess/movegen.hpp"
#include "unit/chess/fen.hpp"

namespace kibitz::chess {
namespace {

// The colour-mirrored position: board flipped vertically, colours, side to move, castling
// rights and the en passant square swapped accordingly.
Position mirror(const Position& pos) {
  const std::string fen = pos.fen();
  std::string fields[6];
  std::size_t i = 0;
  for (int f = 0; f < 6; ++f) {
    const std::size_t j = fen.find(' ', i);
    fields[f] = fen.substr(i, j == std::string::npos ? std::string::npos : j - i);
    i = j + 1;
  }
  std::string ranks[8], placement;
  for (int r = 0, start = 0; r < 8; ++r) {
    const auto end = fields[0].find('/', static_cast<std::size_t>(start));
    ranks[r] = fields[0].substr(static_cast<std::size_t>(start),
                                end == std::string::npos ? std::string::npos : end - start);
    start = static_cast<int>(end + 1);
  }
  auto swap_case = [](std::string s) {
    for (char& c : s)
      c = std::isupper(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c))
                                                      : static_cast<char>(std::toupper(c));
    return s;
  };
  for (int r = 7; r >= 0; --r) placement += swap_case(ranks[r]) + (r ? "/" : "");
  const std::string side = fields[1] == "w" ? "b" : "w";
  const std::string castling = fields[2] == "-" ? "-" : swap_case(fields[2]);
  std::string ep = fields[3];
  if (ep != "-") ep[1] = static_cast<char>('1' + ('8' - ep[1]));
  return *Position::from_fen(placement + " " + side + " " + castling + " " + ep + " " + fields[4] +
                             " " + fields[5]);
}

// Positions from random playouts of several openings and endgames.
std::vector<Position> random_positions(std::size_t count, std::uint64_t seed) {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
      "4k3/8/8/8/8/8/8/R3K2B w Q - 0 1",
      "2b1k3/pp3ppp/8/8/8/8/PP3PPP/4KB2 w - - 0 1",
  };
  Rng rng(seed);
  std::vector<Position> out;
  while (out.size() < count) {
    Position pos = P(fens[rng.below(std::size(fens))]);
    const int plies = static_cast<int>(rng.below(160));
    for (int ply = 0; ply < plies; ++ply) {
      MoveList<Position> moves;
      if (pos.legal_moves(moves) == 0) break;
      pos.apply(moves[rng.below(moves.size())]);
      if (ply % 8 == 0) out.push_back(pos);
    }
  }
  out.resize(count);
  return out;
}

TEST(Eval, ParameterNamesAreUniqueAndComplete) {
  std::set<std::string> names;
  for (int i = 0; i < kNumEvalParams; ++i) {
    EXPECT_FALSE(eval_param_name(i).empty()) << i;
    names.insert(eval_param_name(i));
  }
  EXPECT_EQ(names.size(), static_cast<std::size_t>(kNumEvalParams));
  EXPECT_EQ(eval_param_name(eval_param::kTempo), "tempo");
  EXPECT_EQ(eval_param_name(eval_param::kMaterial + kKnight), "material_knight");
  const std::string src = format_eval_params(kDefaultEvalParams);
  EXPECT_NE(src.find("const EvalParams kDefaultEvalParams"), std::string::npos);
  EXPECT_NE(src.find("// mobility_queen_27\n"), std::string::npos);
}

TEST(Eval, EqualsItsTraceOnRandomPositions) {
  // Recomputed here from the documented formula, independently of evaluate_trace().
  EvalTrace t;
  for (const Position& pos : random_positions(4000, 11)) {
    eval_trace(pos, t);
    long mg = 0, eg = 0;
    for (int i = 0; i < kNumEvalParams; ++i) {
      mg += t.coeff[static_cast<std::size_t>(i)] * kDefaultEvalParams[i].mg;
      eg += t.coeff[static_cast<std::size_t>(i)] * kDefaultEvalParams[i].eg;
    }
    const int scale = eg > 0 ? t.scale[kWhite] : eg < 0 ? t.scale[kBlack] : 64;
    ASSERT_GE(t.phase, 0);
    ASSERT_LE(t.phase, 24);
    const long white = (mg * t.phase * 64 + eg * scale * (24 - t.phase)) / (24 * 64);
    const int stm =
        pos.side_to_move() == kWhite ? static_cast<int>(white) : -static_cast<int>(white);
    ASSERT_EQ(pos.evaluate(), stm) << pos.fen();
    ASSERT_EQ(evaluate_trace(t, kDefaultEvalParams), static_cast<int>(white)) << pos.fen();
  }
}

TEST(Eval, LinearInTheWeightsForAnyWeights) {
  // Random weights: the trace must still reproduce the evaluation.
  Rng rng(5);
  EvalParams w;
  for (auto& p : w.v)
    p = {static_cast<int>(rng.below(401)) - 200, static_cast<int>(rng.below(401)) - 200};
  EvalTrace t;
  for (const Position& pos : random_positions(1000, 12)) {
    eval_trace(pos, t);
    const int white = evaluate_trace(t, w);
    ASSERT_EQ(evaluate(pos, w), pos.side_to_move() == kWhite ? white : -white) << pos.fen();
  }
}

TEST(Eval, ColourMirrorGivesTheSameScore) {
  for (const Position& pos : random_positions(4000, 13)) {
    const Position m = mirror(pos);
    ASSERT_EQ(pos.evaluate(), m.evaluate()) << pos.fen() << " vs " << m.fen();
    EvalTrace a, b;
    eval_trace(pos, a);
    eval_trace(m, b);
    for (int i = 0; i < kNumEvalParams; ++i)
      ASSERT_EQ(a.coeff[static_cast<std::size_t>(i)], -b.coeff[static_cast<std::size_t>(i)])
          << eval_param_name(i) << " in " << pos.fen();
  }
}

TEST(Eval, MirrorHelperRoundTrips) {
  const Position p = P("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K1R1 b Qkq - 3 9");
  EXPECT_EQ(mirror(mirror(p)).fen(), p.fen());
  EXPECT_EQ(mirror(P("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")).fen(),
            "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1");
}

TEST(Eval, StartPositionIsTheTempoBonus) {
  const Position start;
  EXPECT_EQ(start.evaluate(), kDefaultEvalParams[eval_param::kTempo].mg);
}

TEST(Eval, ClearVerdicts) {
  // A queen up is winning for the side that has it, whoever moves.
  EXPECT_GT(P("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").evaluate(), 700);
  EXPECT_LT(P("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").evaluate(), -700);
  // Rook against bishop without pawns is close to a draw; rook against bare king is not.
  EXPECT_LT(std::abs(P("4k3/8/8/8/8/8/3b4/3RK3 w - - 0 1").evaluate()), 60);
  EXPECT_GT(P("4k3/8/8/8/8/8/8/3RK3 w - - 0 1").evaluate(), 400);
  // A lone minor piece cannot win (only the 1/24 middlegame share is left).
  EXPECT_LT(P("4k3/8/8/8/8/8/8/3NK3 w - - 0 1").evaluate(), 20);
  // A far advanced passed pawn is worth more than one at home.
  EXPECT_GT(P("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").evaluate(),
            P("4k3/8/8/8/8/8/1P6/4K3 w - - 0 1").evaluate());
  // A king behind its pawn shield is safer than one in the open.
  EXPECT_GT(P("r4rk1/ppp2ppp/8/8/8/8/PPP2PPP/R4RK1 w - - 0 1").evaluate(),
            P("r4rk1/ppp2ppp/8/8/8/8/PPP2PPP/R2K1R2 w - - 0 1").evaluate());
}

TEST(Eval, OppositeBishopsScaleTheEndgame) {
  EvalTrace t;
  eval_trace(P("4kb2/pp6/8/8/8/8/1PP5/3BK3 w - - 0 1"), t);  // d1 light, f8 dark
  EXPECT_EQ(t.scale[kWhite], 32);
  EXPECT_EQ(t.scale[kBlack], 32);
  eval_trace(P("4kb2/8/8/8/8/8/1PP5/2B1K3 w - - 0 1"), t);  // c1 and f8 both dark
  EXPECT_EQ(t.scale[kWhite], 64);
}

}  // namespace
}  // namespace kibitz::chess

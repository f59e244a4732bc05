// The chess network: the incremental accumulator equals a full refresh along random walks
// (moves, take-backs, null moves, castling, en passant, promotions; evaluated now and then); the
// quantised network stays within a stated distance of the float one; bad files are refused in one
// line; the trainer is deterministic and learns a target it can represent.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <vector>

#include "core/rng.hpp"
#include "engine/any_engine.hpp"
#include "games/chess/nnue.hpp"
#include "games/chess/nnue_train.hpp"
#include "games/chess/training_data.hpp"

namespace kibitz::chess::nnue {
namespace {

// Weights of about the size training gives (the first layer's sums mostly inside [0, 1]).
FloatNetwork nn_random_float(std::uint64_t seed) {
  Rng rng(seed);
  FloatNetwork f;
  const auto u = [&](double a) { return static_cast<float>((rng.uniform01() * 2 - 1) * a); };
  for (float& w : f.w1) w = u(0.13);  // rms 0.075 (a network trained on 470k positions: 0.073)
  for (float& w : f.b1) w = 0.12f + u(0.1);
  for (float& w : f.w2) w = u(0.1);  // rms 0.058 (trained: 0.061)
  std::fill(f.b2.begin(), f.b2.end(), 0.05f);
  return f;
}

const std::vector<const char*> kStarts = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
};

TEST(ChessNnue, IncrementalAccumulatorEqualsAFullRefresh) {
  const Network net = Network::quantise(nn_random_float(1), "test");
  Rng rng(2);
  Evaluator eval(net);
  int checked = 0, castles = 0, en_passant = 0, promotions = 0, nulls = 0;
  for (const char* fen : kStarts) {
    Position pos = *Position::from_fen(fen);
    eval.reset(pos);
    ASSERT_EQ(eval.evaluate(pos), net.evaluate(pos));
    struct Step {
      Move m;
      Position::Undo u;
    };
    std::vector<Step> stack;
    // Walks of 60 steps from the start, each unwound to the start again.
    for (int i = 0; i < 6000; ++i) {
      const bool unwind = i % 120 >= 60;
      if (unwind && stack.empty()) continue;
      const double r = unwind ? 0.0 : rng.uniform01();
      if (!stack.empty() && r < 0.2) {
        const Step s = stack.back();
        stack.pop_back();
        if (s.m.is_none()) {
          pos.unmake_null(s.u);
          eval.unmake_null(pos);
        } else {
          pos.unmake(s.m, s.u);
          eval.unmake(pos, s.m);
        }
      } else if (r < 0.35 && !pos.in_check()) {
        Step s{Move::none(), {}};
        eval.make_null(pos);
        pos.make_null(s.u);
        stack.push_back(s);
        ++nulls;
      } else {
        MoveList<Position> moves;
        if (pos.legal_moves(moves) == 0) continue;
        // Prefer the rare kinds of move, so each shows up often.
        Move m = moves[rng.below(moves.size())];
        for (std::size_t k = 0; k < moves.size(); ++k)
          if ((moves[k].is_castling() || moves[k].is_en_passant() || moves[k].is_promotion()) &&
              rng.uniform01() < 0.8)
            m = moves[k];
        castles += m.is_castling();
        en_passant += m.is_en_passant();
        promotions += m.is_promotion();
        Step s{m, {}};
        eval.make(pos, m);
        pos.make(m, s.u);
        stack.push_back(s);
      }
      // Not at every step: the evaluator brings skipped plies up to date when asked.
      if (rng.uniform01() < 0.4) {
        ASSERT_EQ(eval.evaluate(pos), net.evaluate(pos)) << pos.fen();
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 5000);
  EXPECT_GT(castles, 20);
  EXPECT_GT(en_passant, 20);
  EXPECT_GT(promotions, 20);
  EXPECT_GT(nulls, 100);
  // A copy (the search copies the evaluator per thread) carries the stack on.
  Position pos;
  eval.reset(pos);
  Evaluator copy(eval);
  EXPECT_EQ(copy.evaluate(pos), net.evaluate(pos));
}

// Each of the 512 output terms is off by at most 0.5/kQB in its weight and by the accumulator's
// rounding (0.5/kQA a feature) in its input; with weights of trained size this stays within a
// few centipawns: mean at most 3 cp and never more than 20 cp over random positions.
TEST(ChessNnue, QuantisedNetworkStaysCloseToTheFloatOne) {
  Rng rng(5);
  double sum = 0, worst = 0;
  int n = 0;
  for (std::uint64_t seed = 10; seed < 13; ++seed) {
    const FloatNetwork f = nn_random_float(seed);
    const Network q = Network::quantise(f, "test");
    for (const char* fen : kStarts) {
      Position pos = *Position::from_fen(fen);
      for (int ply = 0; ply < 150 && !pos.is_terminal(); ++ply) {
        const double d = std::abs(q.evaluate(pos) - f.forward(pos) * kOutputScale);
        sum += d;
        worst = std::max(worst, d);
        ++n;
        MoveList<Position> moves;
        pos.legal_moves(moves);
        pos.apply(moves[rng.below(moves.size())]);
      }
    }
  }
  EXPECT_GT(n, 500);
  EXPECT_LE(sum / n, 3.0);
  EXPECT_LE(worst, 20.0);
}

TEST(ChessNnue, FilesRoundTripAndBadOnesAreRefusedInOneLine) {
  const Network net = Network::quantise(nn_random_float(7), "made by a test");
  const auto bytes = net.serialise();
  const auto back = Network::parse(bytes);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(back->provenance(), "made by a test");
  EXPECT_EQ(back->serialise(), bytes);
  const Position pos;
  EXPECT_EQ(back->evaluate(pos), net.evaluate(pos));

  const auto message = [](std::vector<std::uint8_t> b) {
    const auto r = Network::parse(b);
    return r ? std::string("accepted") : r.error().message;
  };
  EXPECT_EQ(message({}), "not a Kibitz network file (no KBZNNUE1)");
  auto cut = bytes;
  cut.resize(bytes.size() / 2);
  EXPECT_EQ(message(cut), "network file cut short: " + std::to_string(cut.size()) + " bytes, " +
                              std::to_string(bytes.size()) + " expected");
  auto header = bytes;
  header.resize(20);
  EXPECT_EQ(message(header), "network file cut short in its header");
  auto hidden = bytes;
  hidden[16] = 128;  // the hidden size, 256 = 00 01 00 00, becomes 128
  hidden[17] = 0;
  EXPECT_EQ(message(hidden), "network file has hidden size 128 (this build runs 256)");
  auto older = bytes;
  older[8] = 2;  // a file of the version before output buckets
  EXPECT_EQ(message(older), "network file has version 2 (this build runs 3)");
  auto flipped = bytes;
  flipped[bytes.size() / 2] ^= 1;
  EXPECT_EQ(message(flipped), "network file checksum mismatch");
  auto longer = bytes;
  longer.push_back(0);
  EXPECT_EQ(message(longer), "network file has 1 bytes after its checksum");
  const auto missing = Network::load("/nonexistent/kibitz.nnue");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "cannot read network file '/nonexistent/kibitz.nnue'");
}

// The network compiled in: it parses, says what made it, and serialises back to its bytes.
TEST(ChessNnue, TheBuiltinNetworkParsesAndNamesItsMaking) {
  const auto bytes = builtin_network_bytes();
  const auto net = Network::parse(bytes);
  ASSERT_TRUE(net) << net.error().message;
  EXPECT_NE(net->provenance().find("kibitz train-nnue"), std::string::npos) << net->provenance();
  EXPECT_EQ(net->serialise(), std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
  // Its float weights (what train-nnue --init starts from) quantise back to the same network.
  EXPECT_EQ(Network::quantise(net->dequantise(), net->provenance()).serialise(), net->serialise());
  ASSERT_NE(builtin_network(), nullptr);
  EXPECT_EQ(builtin_network(), builtin_network());  // parsed once, shared
  // A trained network knows a queen from a pawn.
  const Position up_a_queen = *Position::from_fen("4k3/8/8/8/8/8/4P3/3QK3 w - - 0 1");
  EXPECT_GT(net->evaluate(up_a_queen), 500);
  EXPECT_LT(net->evaluate(*Position::from_fen("4k3/8/8/8/8/8/4P3/3QK3 b - - 0 1")), -500);
}

// The engine's EvalFile / UseNNUE options: the built-in network by default; a bad file is
// refused in one line and the hand-written evaluation goes on; a good one is what a one-ply
// search sees at its leaves (after each of White's first moves Black has no capture, so the
// leaf value is the network's static value); UseNNUE=false and EvalFile=<empty> bring the
// hand-written evaluation back, EvalFile=<builtin> the built-in network.
TEST(ChessNnue, TheEngineLoadsANetworkAndFallsBack) {
  const Network net = Network::quantise(nn_random_float(3), "engine test");
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("kibitz_nnue_" + std::to_string(::getpid()) + ".nnue"))
                               .string();
  {
    const auto bytes = net.serialise();
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
  }
  Position start;
  int expected = -search::kInfinite, hce = -search::kInfinite, builtin = -search::kInfinite;
  MoveList<Position> moves;
  start.legal_moves(moves);
  for (const Move m : moves) {
    Position p = start;
    p.apply(m);
    expected = std::max(expected, -net.evaluate(p));
    hce = std::max(hce, -p.evaluate());
    builtin = std::max(builtin, -builtin_network()->evaluate(p));
  }
  ASSERT_NE(expected, hce);
  ASSERT_NE(builtin, hce);
  ASSERT_NE(builtin, expected);
  const auto depth_one = [](engine::AnyEngine& e) {
    EXPECT_TRUE(e.set_position("startpos"));
    engine::EngineLimits l;
    l.depth = 1;
    const auto r = e.think(l);
    EXPECT_TRUE(r);
    return r ? static_cast<int>(r->score) : 0;
  };
  auto e = engine::make_chess_any_engine();
  const auto eval_file = [&] {
    for (const auto& o : e->options())
      if (o.name == "EvalFile") return o.text;
    return std::string("(none)");
  };
  EXPECT_EQ(eval_file(), "<builtin>");
  EXPECT_EQ(depth_one(*e), builtin);
  const auto bad = e->set_option("EvalFile", path + ".missing");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "EvalFile: cannot read network file '" + path +
                                     ".missing' (the hand-written evaluation runs)");
  EXPECT_EQ(depth_one(*e), hce);
  ASSERT_TRUE(e->set_option("EvalFile", path));
  EXPECT_EQ(eval_file(), path);
  EXPECT_EQ(depth_one(*e), expected);
  ASSERT_TRUE(e->set_option("UseNNUE", "false"));
  EXPECT_EQ(depth_one(*e), hce);
  ASSERT_TRUE(e->set_option("UseNNUE", "true"));
  EXPECT_EQ(depth_one(*e), expected);
  ASSERT_TRUE(e->set_option("EvalFile", "<builtin>"));
  EXPECT_EQ(depth_one(*e), builtin);
  ASSERT_TRUE(e->set_option("EvalFile", "<empty>"));
  EXPECT_EQ(depth_one(*e), hce);
  // A truncated file: refused, and the hand-written evaluation again.
  std::filesystem::resize_file(path, 1000);
  const auto cut = e->set_option("EvalFile", path);
  ASSERT_FALSE(cut);
  EXPECT_NE(cut.error().message.find("cut short"), std::string::npos) << cut.error().message;
  EXPECT_EQ(eval_file(), "");
  EXPECT_EQ(depth_one(*e), hce);
  std::filesystem::remove(path);
}

// Positions labelled by material alone (a function of the inputs the network sees), results
// drawn from that expectation: the trainer must fit them far better than a constant, the same
// way under one seed whatever the thread count.
TEST(ChessNnue, TrainerLearnsMaterialAndIsDeterministic) {
  static constexpr int kValue[6] = {100, 300, 300, 500, 900, 0};
  Rng rng(9);
  TrainData data;
  for (int g = 0; data.train.size() < 6000; ++g) {
    Position pos;
    for (int ply = 0; ply < 120 && !pos.is_terminal(); ++ply) {
      MoveList<Position> moves;
      pos.legal_moves(moves);
      Move m = moves[rng.below(moves.size())];
      for (std::size_t k = 0; k < moves.size(); ++k)
        if (moves[k].is_capture() && rng.uniform01() < 0.3) m = moves[k];
      pos.apply(m);
      if (ply < 10) continue;
      int white = 0;
      for (Square s = 0; s < 64; ++s) {
        const Piece p = pos.piece_on(s);
        if (p != kNoPiece)
          white += color_of(p) == kWhite ? kValue[type_of(p)] : -kValue[type_of(p)];
      }
      const TrainingRecord r = pack_training_record(pos, white, white > 0 ? 1 : white < 0 ? -1 : 0);
      const auto s = make_sample(r);
      ASSERT_TRUE(s);
      (g % 10 == 0 ? data.validation : data.train).push_back(*s);
    }
  }
  TrainOptions o;
  o.epochs = 12;
  o.batch = 256;
  o.learning_rate = 0.003;
  o.wdl = 0.0;
  FloatNetwork zero;
  std::fill(zero.w2.begin(), zero.w2.end(), 0.0f);
  const double constant = network_loss(zero, data.validation, o);
  std::vector<double> val;
  const FloatNetwork a = train_network(data, o, [&](int, double, double v) { val.push_back(v); });
  EXPECT_LT(val.back(), constant * 0.25) << "constant " << constant;
  EXPECT_LT(val.back(), val.front());
  o.threads = 2;
  const FloatNetwork b = train_network(data, o, {});
  EXPECT_EQ(a.w1, b.w1);
  EXPECT_EQ(a.w2, b.w2);
  EXPECT_EQ(a.b2, b.b2);

  // Started from the trained network, one epoch at a small step keeps what it knew: better
  // than the first epoch from random weights, close to where it ended.
  o.init = a;
  o.epochs = 1;
  o.learning_rate = 0.0003;
  double warm = 0;
  train_network(data, o, [&](int, double, double v) { warm = v; });
  EXPECT_LT(warm, val.front());
  EXPECT_LT(warm, val.back() * 1.5) << "from " << val.back();
}

// Held-out files (train-nnue --validation-data) are validation in full, whatever the share,
// and leave the split of the training files as it was.
TEST(ChessNnue, HeldOutFilesAreValidationOnly) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string a = (dir / ("nnue_held_a_" + std::to_string(getpid()) + ".kbd")).string();
  const std::string b = (dir / ("nnue_held_b_" + std::to_string(getpid()) + ".kbd")).string();
  const auto write = [&](const std::string& path, int games, int score) {
    std::filesystem::remove(path);
    auto w = TrainingDataWriter::open(path);
    ASSERT_TRUE(w) << w.error().message;
    for (int g = 0; g < games; ++g) {
      for (const char* fen : kStarts)
        w->add(pack_training_record(*Position::from_fen(fen), score + g, 0));
      ASSERT_TRUE(w->flush());  // a chunk per game, as self-play writes
    }
  };
  write(a, 40, 0);
  write(b, 5, 1000);
  const auto alone = load_train_data({a}, 0.25, 3, 0);
  ASSERT_TRUE(alone) << alone.error().message;
  const auto held = load_train_data({a}, 0.25, 3, 0, {b});
  ASSERT_TRUE(held) << held.error().message;
  EXPECT_EQ(held->train.size(), alone->train.size());
  EXPECT_EQ(held->validation.size(), alone->validation.size() + 5 * kStarts.size());
  EXPECT_EQ(held->games, 45u);
  // The held-out positions come last, all of them (their scores are 1000 and up).
  for (std::size_t i = alone->validation.size(); i < held->validation.size(); ++i)
    EXPECT_GE(std::abs(held->validation[i].score), 1000.0f);
  const auto only = load_train_data({a}, 0.0, 3, 0, {b});
  ASSERT_TRUE(only);
  EXPECT_EQ(only->train.size(), 40 * kStarts.size());
  EXPECT_EQ(only->validation.size(), 5 * kStarts.size());
  EXPECT_EQ(only->validation_records.size(), only->validation.size());
  std::filesystem::remove(a);
  std::filesystem::remove(b);
}

}  // namespace
}  // namespace kibitz::chess::nnue

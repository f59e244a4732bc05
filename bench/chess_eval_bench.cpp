// Micro-benchmarks of the chess evaluation, static exchange evaluation and legality check,
// over a fixed set of positions from random playouts (so every term and branch is exercised;
// few enough, at about 1 KB a Position, to stay in cache as a search's positions would).
// Run: build/release/bench/kibitz_bench --benchmark_filter='BM_Evaluate|BM_See'
#include <benchmark/benchmark.h>

#include <vector>

#include "core/rng.hpp"
#include "games/chess/eval.hpp"
#include "games/chess/movegen.hpp"

namespace {

using namespace kibitz::chess;

std::vector<Position> bench_positions() {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
  };
  kibitz::Rng rng(1);
  std::vector<Position> out;
  for (const char* fen : fens) {
    for (int game = 0; game < 8; ++game) {
      Position pos = *Position::from_fen(fen);
      for (int ply = 0; ply < 100; ++ply) {
        kibitz::MoveList<Position> moves;
        if (pos.legal_moves(moves) == 0) break;
        pos.apply(moves[rng.below(moves.size())]);
        if (ply % 10 == 0) out.push_back(pos);
      }
    }
  }
  return out;
}

// Per call, averaged over a mix of openings, middlegames and endgames.
void BM_Evaluate(benchmark::State& state) {
  const std::vector<Position> positions = bench_positions();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(positions[i].evaluate());
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Evaluate);

// One position, to compare with the movegen figures.
void BM_EvaluateKiwipete(benchmark::State& state) {
  const Position pos =
      *Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  for (auto _ : state) benchmark::DoNotOptimize(pos.evaluate());
}
BENCHMARK(BM_EvaluateKiwipete);

// see_ge(m, 0) over the captures of the same positions, per call.
void BM_SeeCaptures(benchmark::State& state) {
  std::vector<std::pair<const Position*, Move>> work;
  static const std::vector<Position> positions = bench_positions();
  for (const Position& p : positions) {
    kibitz::MoveList<Position> moves;
    generate<GenType::kTactical>(p, moves);
    for (Move m : moves) work.emplace_back(&p, m);
  }
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(work[i].first->see_ge(work[i].second, 0));
    if (++i == work.size()) i = 0;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_SeeCaptures);

// is_legal on the legal moves of the same positions (the TT-move check), per call.
void BM_IsLegal(benchmark::State& state) {
  std::vector<std::pair<const Position*, Move>> work;
  static const std::vector<Position> positions = bench_positions();
  for (const Position& p : positions) {
    kibitz::MoveList<Position> moves;
    p.legal_moves(moves);
    for (Move m : moves) work.emplace_back(&p, m);
  }
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(work[i].first->is_legal(work[i].second));
    if (++i == work.size()) i = 0;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_IsLegal);

}  // namespace

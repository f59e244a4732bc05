// Micro-benchmarks of the gomoku position: make + unmake (the incremental pattern state),
// evaluation, and the move lists a search asks for, over midgame positions from random
// playouts near the stones, under each rule.
// Run: build/release/bench/kibitz_bench --benchmark_filter='BM_Gomoku'
#include <benchmark/benchmark.h>

#include <vector>

#include "core/rng.hpp"
#include "games/gomoku/position.hpp"

namespace {

using namespace kibitz::gomoku;

std::vector<Position> bench_positions(Rule rule) {
  kibitz::Rng rng(1);
  std::vector<Position> out;
  for (int game = 0; game < 16; ++game) {
    Position pos({.size = rule == Rule::kCapture ? 19 : 15, .rule = rule});
    for (int ply = 0; ply < 60 && !pos.is_terminal(); ++ply) {
      kibitz::MoveList<Position> moves;
      if (pos.candidate_moves(moves, 1) == 0) break;
      pos.apply(moves[rng.below(moves.size())]);
      if (ply >= 20 && ply % 10 == 0) out.push_back(pos);
    }
  }
  return out;
}

// make + unmake of every candidate move, per pair.
void BM_GomokuMakeUnmake(benchmark::State& state) {
  std::vector<Position> positions = bench_positions(static_cast<Rule>(state.range(0)));
  std::int64_t n = 0;
  for (auto _ : state) {
    for (Position& p : positions) {
      kibitz::MoveList<Position> moves;
      p.candidate_moves(moves);
      for (Move m : moves) {
        Position::Undo u;
        p.make(m, u);
        benchmark::DoNotOptimize(p.hash());
        p.unmake(m, u);
      }
      n += static_cast<std::int64_t>(moves.size());
    }
  }
  state.SetItemsProcessed(n);
}
BENCHMARK(BM_GomokuMakeUnmake)->Arg(0)->Arg(2)->Arg(3);  // freestyle, renju, capture

void BM_GomokuEvaluate(benchmark::State& state) {
  const std::vector<Position> positions = bench_positions(static_cast<Rule>(state.range(0)));
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(positions[i].evaluate());
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GomokuEvaluate)->Arg(0)->Arg(3);

// candidate_moves + four_moves + threat_moves + defence_moves, per position.
void BM_GomokuMoveLists(benchmark::State& state) {
  const std::vector<Position> positions = bench_positions(static_cast<Rule>(state.range(0)));
  std::size_t i = 0;
  for (auto _ : state) {
    kibitz::MoveList<Position> moves;
    const Position& p = positions[i];
    benchmark::DoNotOptimize(p.candidate_moves(moves));
    benchmark::DoNotOptimize(p.four_moves(moves));
    benchmark::DoNotOptimize(p.threat_moves(moves));
    benchmark::DoNotOptimize(p.defence_moves(moves));
    if (++i == positions.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GomokuMoveLists)->Arg(0)->Arg(2)->Arg(3);

}  // namespace

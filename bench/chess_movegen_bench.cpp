// Micro-benchmarks of the chess kernels: legal move generation per stage, make/unmake, and
// perft with bulk counting. Run: make bench (or build/release/bench/kibitz_bench).
#include <benchmark/benchmark.h>

#include "games/chess/movegen.hpp"
#include "games/chess/perft.hpp"

namespace {

using namespace kibitz::chess;

const char* kFens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
};
const char* kNames[] = {"startpos", "kiwipete", "cpw4", "cpw5"};

template <GenType T>
void BM_Generate(benchmark::State& state) {
  const Position pos = *Position::from_fen(kFens[state.range(0)]);
  Move buf[Position::kMaxMoves];
  std::size_t n = 0;
  for (auto _ : state) {
    Move* end = generate<T>(pos, buf);
    n = static_cast<std::size_t>(end - buf);
    benchmark::DoNotOptimize(buf);
    benchmark::ClobberMemory();
  }
  state.SetLabel(kNames[state.range(0)]);
  state.counters["moves"] = static_cast<double>(n);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Generate<GenType::kAll>)->DenseRange(0, 3);
BENCHMARK(BM_Generate<GenType::kTactical>)->DenseRange(0, 3);
BENCHMARK(BM_Generate<GenType::kQuiet>)->DenseRange(0, 3);

// The same through Position::legal_moves into a fresh MoveList, as a search node does.
void BM_LegalMovesIntoList(benchmark::State& state) {
  const Position pos = *Position::from_fen(kFens[state.range(0)]);
  for (auto _ : state) {
    kibitz::MoveList<Position> moves;
    pos.legal_moves(moves);
    benchmark::DoNotOptimize(moves.data());
    benchmark::ClobberMemory();
  }
  state.SetLabel(kNames[state.range(0)]);
}
BENCHMARK(BM_LegalMovesIntoList)->DenseRange(0, 3);

// make + unmake of every legal move of the position, per move.
void BM_MakeUnmake(benchmark::State& state) {
  Position pos = *Position::from_fen(kFens[state.range(0)]);
  kibitz::MoveList<Position> moves;
  pos.legal_moves(moves);
  Position::Undo u;
  for (auto _ : state) {
    for (Move m : moves) {
      pos.make(m, u);
      benchmark::DoNotOptimize(pos.hash());
      pos.unmake(m, u);
    }
  }
  state.SetLabel(kNames[state.range(0)]);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * moves.size()));
}
BENCHMARK(BM_MakeUnmake)->DenseRange(0, 3);

void BM_Perft(benchmark::State& state) {
  Position pos = *Position::from_fen(kFens[state.range(0)]);
  const int depth = static_cast<int>(state.range(1));
  std::uint64_t nodes = 0;
  for (auto _ : state) nodes += perft(pos, depth);
  state.SetLabel(kNames[state.range(0)]);
  state.counters["nodes/s"] =
      benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Perft)->Args({0, 4})->Args({1, 3})->Unit(benchmark::kMillisecond);

}  // namespace

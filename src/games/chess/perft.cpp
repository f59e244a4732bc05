#include "games/chess/perft.hpp"

#include "games/chess/movegen.hpp"

namespace kibitz::chess {

namespace {
std::uint64_t perft_rec(Position& pos, int depth) {
  Move moves[Position::kMaxMoves];
  Move* const end = generate<GenType::kAll>(pos, moves);
  if (depth == 1) return static_cast<std::uint64_t>(end - moves);
  std::uint64_t nodes = 0;
  Position::Undo u;
  for (Move* m = moves; m != end; ++m) {
    pos.make(*m, u);
    nodes += perft_rec(pos, depth - 1);
    pos.unmake(*m, u);
  }
  return nodes;
}
}  // namespace

std::uint64_t perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  return perft_rec(pos, depth);
}

std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth) {
  std::vector<std::pair<Move, std::uint64_t>> out;
  if (depth <= 0) return out;
  MoveList<Position> moves;
  pos.legal_moves(moves);
  Position::Undo u;
  for (Move m : moves) {
    pos.make(m, u);
    out.emplace_back(m, perft(pos, depth - 1));
    pos.unmake(m, u);
  }
  return out;
}

}  // namespace kibitz::chess

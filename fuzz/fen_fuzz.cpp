// FEN parser: any accepted position must round-trip and support move generation safely.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/chess/movegen.hpp"
#include "games/chess/position.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kibitz::chess;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto pos = Position::from_fen(text);
  kibitz::fuzz::require_one_line_error(pos);
  if (!pos) return 0;
  auto again = Position::from_fen(pos->fen());
  if (!again || again->fen() != pos->fen() || again->hash() != pos->hash()) std::abort();
  kibitz::MoveList<Position> moves;
  pos->legal_moves(moves);
  for (Move m : moves) {
    Position::Undo u;
    pos->make(m, u);
    if (pos->hash() != pos->compute_hash()) std::abort();
    pos->unmake(m, u);
  }
  (void)pos->outcome();
  return 0;
}

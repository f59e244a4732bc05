// Gomoku position text ("renju 15 h8 i9 ...") and move notation: either a clean error or a
// position whose legal moves all apply; the notation of every legal move reads back.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/gomoku/gomoku_game.hpp"
#include "games/gomoku/position.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto state = kibitz::gomoku::new_any_state(text);
  kibitz::fuzz::require_one_line_error(state);
  const kibitz::gomoku::Position empty;
  auto m = kibitz::gomoku::parse_move(empty, text);
  kibitz::fuzz::require_one_line_error(m);
  if (m) {
    const auto back = kibitz::gomoku::parse_move(empty, kibitz::gomoku::to_text(*m));
    if (!back || *back != *m) std::abort();
  }
  if (state) {
    const auto moves = (*state)->legal_moves();
    if (!(*state)->is_terminal() && !moves.empty() && !(*state)->apply(moves.front())) std::abort();
  }
  return 0;
}

// Every registry entry's position text: the first line names the game ("hearts"), the rest is
// its position text. Either a clean one-line error, or a state whose text reads back to the
// same state and whose first legal move applies.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto [name, text] = kibitz::fuzz::game_and_text(data, size);
  const kibitz::GameEntry* g = kibitz::builtin_registry().find(name);
  if (!g || !g->new_state) return 0;
  auto state = g->new_state(text);
  kibitz::fuzz::require_one_line_error(state);
  if (!state) return 0;
  auto& s = **state;
  auto back = g->new_state(s.to_string());
  if (!back || (*back)->hash() != s.hash()) std::abort();
  const auto moves = s.legal_moves();
  if (!s.is_terminal() && !moves.empty() && !s.apply(moves.front())) std::abort();
  kibitz::fuzz::require_one_line_error(s.apply("\x01"));
  return 0;
}

// Every engine's position text (the registry entries' engines): the first line names the game,
// the rest is the text set_position reads — the game's position text, a Hearts seat's view
// ("view S left hand ..."), Diplomacy's power and state JSON. Either a clean one-line error or
// a position; a Hearts view that reads reads back to the same text.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/hearts/hearts_game.hpp"
#include "games/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto [name, text] = kibitz::fuzz::game_and_text(data, size);
  const kibitz::GameEntry* g = kibitz::builtin_registry().find(name);
  if (!g || !g->engine) return 0;
  // One engine per game for the whole run: making one is not what is fuzzed.
  static std::unique_ptr<kibitz::engine::AnyEngine> engines[8];
  const auto index = static_cast<std::size_t>(g - kibitz::builtin_registry().games().data());
  if (index >= 8) return 0;
  if (!engines[index]) engines[index] = g->engine();
  kibitz::fuzz::require_one_line_error(engines[index]->set_position(text));
  if (name == "hearts") {
    auto view = kibitz::hearts::parse_view_text(text);
    kibitz::fuzz::require_one_line_error(view);
    if (view) {
      const std::string again = kibitz::hearts::view_text(*view);
      auto back = kibitz::hearts::parse_view_text(again);
      if (!back || kibitz::hearts::view_text(*back) != again) std::abort();
    }
  }
  return 0;
}

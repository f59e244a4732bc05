// The games `kibitz match` can referee. Each new game adds its GameKind here.
#include <fmt/format.h>

#include <algorithm>

#include "match/arena.hpp"
#include "match/chess_arena.hpp"
#include "match/diplomacy_arena.hpp"
#include "match/go_arena.hpp"
#include "match/gomoku_arena.hpp"
#include "match/hearts_arena.hpp"

namespace kibitz::match {

Result<std::unique_ptr<GameKind>> make_game_kind(std::string_view name,
                                                 const GameSettings& settings) {
  const auto names = game_kind_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string known;
    for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
    return fail("unknown game '{}' (known: {})", name, known);
  }
  if (settings.max_year && name != "diplomacy")
    return fail("{} has no --max-year (only Diplomacy has)", name);
  if (name == "go") return make_go_kind(settings);
  if (name == "hearts") return make_hearts_kind(settings);
  if (name == "diplomacy") return make_diplomacy_kind(settings);
  if (settings.komi != kDefaultKomi) return fail("{} has no --komi (only Go has)", name);
  if (name == "chess") {
    if (settings.board_size || !settings.rule.empty())
      return fail("chess has no --board-size or --rule");
    return make_chess_kind();
  }
  return make_gomoku_kind(settings);
}

std::vector<std::string> game_kind_names() {
  return {"chess", "gomoku", "go", "hearts", "diplomacy"};
}

}  // namespace kibitz::match

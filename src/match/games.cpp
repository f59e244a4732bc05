// The games `kibitz match` can referee. Each new game adds its GameKind here.
#include <fmt/format.h>

#include "match/arena.hpp"
#include "match/chess_arena.hpp"
#include "match/go_arena.hpp"
#include "match/gomoku_arena.hpp"

namespace kibitz::match {

Result<std::unique_ptr<GameKind>> make_game_kind(std::string_view name,
                                                 const GameSettings& settings) {
  if (name == "go") return make_go_kind(settings);
  if (settings.komi != kDefaultKomi && (name == "chess" || name == "gomoku"))
    return fail("{} has no --komi (only Go has)", name);
  if (name == "chess") {
    if (settings.board_size || !settings.rule.empty())
      return fail("chess has no --board-size or --rule");
    return make_chess_kind();
  }
  if (name == "gomoku") return make_gomoku_kind(settings);
  std::string known;
  for (const auto& n : game_kind_names()) known += (known.empty() ? "" : ", ") + n;
  return fail("unknown game '{}' (known: {})", name, known);
}

std::vector<std::string> game_kind_names() { return {"chess", "gomoku", "go"}; }

}  // namespace kibitz::match

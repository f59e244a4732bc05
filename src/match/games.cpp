// The games `kibitz match` can referee. Each new game adds its GameKind here.
#include "match/arena.hpp"
#include "match/chess_arena.hpp"

namespace kibitz::match {

std::unique_ptr<GameKind> make_game_kind(std::string_view name) {
  if (name == "chess") return make_chess_kind();
  return nullptr;
}

std::vector<std::string> game_kind_names() { return {"chess"}; }

}  // namespace kibitz::match

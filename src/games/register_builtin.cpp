#include "api/registry.hpp"
#include "games/chess/chess_game.hpp"
#include "games/go/go_game.hpp"
#include "games/gomoku/gomoku_game.hpp"

namespace kibitz {

void register_builtin_games(Registry& registry) {
  registry.add(chess::chess_game_entry());
  registry.add(gomoku::gomoku_game_entry());
  registry.add(go::go_game_entry());
}

}  // namespace kibitz

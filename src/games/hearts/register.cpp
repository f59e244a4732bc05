// Hearts' entry in the registry: whole deals as positions, duplicate matches between the
// in-process bots in `kibitz match`, and `kibitz hearts` (matches, terminal play, the
// JSON-lines bot).
#include "games/hearts/register.hpp"
#include "cli/commands.hpp"
#include "games/hearts/hearts_game.hpp"
#include "match/hearts_arena.hpp"

namespace kibitz::hearts {

GameEntry registry_entry() {
  GameEntry e;
  e.name = "hearts";
  e.title = "Hearts";
  e.summary =
      "Hearts, four seats, the whole deal visible (position: [pass] 52 cards N E S W or "
      "\"seed N\", then the cards played)";
  e.num_players = 4;
  e.new_state = new_any_state;
  e.engine = engine::make_hearts_any_engine;
  e.arena = match::make_hearts_kind;
  e.commands = [](CLI::App& app) { return std::vector<Command>{{"hearts", cli::add_hearts(app)}}; };
  return e;
}

}  // namespace kibitz::hearts

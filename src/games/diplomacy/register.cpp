// Diplomacy's entry in the registry: the standard map's seven powers, games between the
// in-process bots in `kibitz match`, and `kibitz diplomacy` (rules, play, search). Its phases
// are simultaneous, so it has no AnyState (no position text).
#include "games/diplomacy/register.hpp"
#include "cli/commands.hpp"
#include "match/diplomacy_arena.hpp"

namespace kibitz::diplomacy {

GameEntry registry_entry() {
  GameEntry e;
  e.name = "diplomacy";
  e.title = "Diplomacy";
  e.summary = "Diplomacy, the standard map, seven powers moving at once (no position text)";
  e.num_players = 7;
  e.match_settings = kMaxYearSetting;
  e.arena = match::make_diplomacy_kind;
  e.commands = [](CLI::App& app) {
    return std::vector<Command>{{"diplomacy", cli::add_diplomacy(app)}};
  };
  return e;
}

}  // namespace kibitz::diplomacy

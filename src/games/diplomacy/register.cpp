// Diplomacy's entry in the registry: the standard map's seven powers, games between the
// in-process bots in `kibitz match`, the engine (one power's orders for a phase, behind the
// engine contract: engine/diplomacy_engine.hpp), and `kibitz diplomacy` (rules, play, search).
// Its phases are simultaneous, so it has no AnyState (no sequence of moves to replay).
#include "games/diplomacy/register.hpp"
#include "cli/commands.hpp"
#include "engine/diplomacy_engine.hpp"
#include "match/diplomacy_arena.hpp"

namespace kibitz::diplomacy {

GameEntry registry_entry() {
  GameEntry e;
  e.name = "diplomacy";
  e.title = "Diplomacy";
  e.demo = cli::demo_diplomacy;
  e.summary =
      "Diplomacy, the standard map, seven powers moving at once (engine position: a power, then "
      "the state as JSON)";
  e.num_players = 7;
  e.match_settings = kMaxYearSetting;
  e.arena = match::make_diplomacy_kind;
  e.engine = engine::make_diplomacy_any_engine;
  e.records = "JSON lines";
  e.bots = "rm, heuristic, random";
  e.match_help =
      R"(Diplomacy (--game diplomacy; in-process bots only): pair k plays power k mod 7 (map order)
  with game seed --seed + k; the first player of a game plays that power, the second the other
  six, and the pair's other game swaps them. A game runs to a solo (its holder wins) or to the
  end of --max-year (default 1930), when more centres per power wins ("France(rm) 12 -
  others(heuristic) avg 3.67"). The rm bot thinks --movetime per movement phase and power
  (default 300 ms; --nodes: a fixed iteration count; option.strength, option.iterations). The
  report adds centres per power; records are a JSON line per game (diplomacy play's format).)";
  e.commands = [](CLI::App& app) {
    return std::vector<Command>{{"diplomacy", cli::add_diplomacy(app)}};
  };
  return e;
}

}  // namespace kibitz::diplomacy

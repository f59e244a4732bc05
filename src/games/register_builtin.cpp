// The one list of the games this build has, in the order `kibitz games` shows them (the
// first is the default of `kibitz match` and `kibitz bench`).
#include "games/chess/register.hpp"
#include "games/diplomacy/register.hpp"
#include "games/go/register.hpp"
#include "games/gomoku/register.hpp"
#include "games/hearts/register.hpp"
#include "games/registry.hpp"

namespace kibitz {

void register_builtin_games(Registry& registry) {
  registry.add(chess::registry_entry());
  registry.add(gomoku::registry_entry());
  registry.add(go::registry_entry());
  registry.add(hearts::registry_entry());
  registry.add(diplomacy::registry_entry());
}

}  // namespace kibitz

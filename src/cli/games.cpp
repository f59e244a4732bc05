#include <fmt/format.h>

#include "cli/commands.hpp"

namespace kibitz::cli {

Runner add_games(CLI::App& root, const Registry& registry) {
  auto* cmd = root.add_subcommand("games", "List the games this build plays");
  cmd->footer("Example:\n  kibitz games");
  return [&registry] {
    for (const auto& g : registry.games())
      fmt::print("{:<12} {} players  {}\n", g.name, g.num_players, g.summary);
    return 0;
  };
}

}  // namespace kibitz::cli

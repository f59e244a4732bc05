// kibitz games: the registry, a game a line (name, players, what the entry wires, the position
// text), or with --verbose the commands and engine options of each.
#include <fmt/format.h>

#include <memory>

#include "cli/commands.hpp"

namespace kibitz::cli {

Runner add_games(CLI::App& root, const Registry& registry) {
  auto* cmd = root.add_subcommand("games", "List the games this build plays");
  auto verbose = std::make_shared<bool>(false);
  cmd->add_flag("--verbose,-v", *verbose, "each game's engine options too");
  cmd->footer("Example:\n  kibitz games\n  kibitz games --verbose");
  return [&registry, verbose] {
    for (const auto& g : registry.games()) {
      std::string has;
      const auto add = [&](bool present, const char* what) {
        if (present) has += (has.empty() ? "" : ",") + std::string(what);
      };
      add(static_cast<bool>(g.engine), "engine");
      add(static_cast<bool>(g.arena), "referee");
      add(static_cast<bool>(g.bench), "bench");
      fmt::print("{:<12} {} players  {:<21} {}\n", g.name, g.num_players, has.empty() ? "-" : has,
                 g.summary);
      if (!*verbose || !g.engine) continue;
      const auto engine = g.engine();  // kept: the options live in it
      for (const auto& o : engine->options()) {
        using T = engine::EngineOption::Type;
        const std::string kind =
            o.type == T::kBool     ? fmt::format("bool default {}", o.value ? "true" : "false")
            : o.type == T::kButton ? std::string("button")
            : o.type == T::kReal
                ? fmt::format("real default {} ({} to {})", o.real, o.real_min, o.real_max)
            : o.type == T::kString
                ? fmt::format("text default '{}'", o.text)
                : fmt::format("int default {} ({} to {})", o.value, o.min, o.max);
        fmt::print("    option {:<18} {}  {}\n", o.name, kind, o.help);
      }
    }
    return 0;
  };
}

}  // namespace kibitz::cli

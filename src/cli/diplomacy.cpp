// kibitz diplomacy: the rules engine (adjudicate, datc) and games between bots (play).
#include "cli/diplomacy.hpp"

namespace kibitz::cli {

Runner add_diplomacy(CLI::App& root) {
  CLI::App* cmd = root.add_subcommand(
      "diplomacy",
      "Diplomacy: adjudicate a phase, run DATC case files, play games between bots, search");
  cmd->require_subcommand(1);
  SubRunners subs = add_diplomacy_rules(*cmd);
  for (auto& s : add_diplomacy_play(*cmd)) subs.push_back(std::move(s));
  for (auto& s : add_diplomacy_search(*cmd)) subs.push_back(std::move(s));
  return [subs] {
    for (const auto& [app, run] : subs)
      if (app->parsed()) return run();
    return 2;
  };
}

}  // namespace kibitz::cli

// kibitz diplomacy: the rules engine (adjudicate, datc) and games between bots (play).
#include "cli/diplomacy.hpp"

#include <fmt/format.h>

#include "core/text.hpp"

namespace kibitz::cli {

std::optional<std::string> rm_options_error(int movetime, double strength) {
  if (movetime < 1 || movetime > 3600000)
    return fmt::format("--movetime {}: from 1 to 3600000 ms", movetime);
  if (!(strength > 0 && strength <= 16))
    return fmt::format("--strength {}: above 0, at most 16", strength);
  return std::nullopt;
}

std::vector<std::string> split_commas(std::string_view text) {
  std::vector<std::string> out;
  for (std::string_view rest = text;;) {
    const auto comma = rest.find(',');
    out.push_back(to_lower(trim(rest.substr(0, comma))));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return out;
}

Runner add_diplomacy(CLI::App& root) {
  CLI::App* cmd = root.add_subcommand(
      "diplomacy",
      "Diplomacy: adjudicate a phase, run DATC case files, play games between bots, search");
  cmd->require_subcommand(1);
  SubRunners subs = add_diplomacy_rules(*cmd);
  for (auto& s : add_diplomacy_play(*cmd)) subs.push_back(std::move(s));
  for (auto& s : add_diplomacy_search(*cmd)) subs.push_back(std::move(s));
  for (auto& s : add_diplomacy_daide(*cmd)) subs.push_back(std::move(s));
  return [subs] {
    for (const auto& [app, run] : subs)
      if (app->parsed()) return run();
    return 2;
  };
}

}  // namespace kibitz::cli

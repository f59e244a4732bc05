#pragma once
// `kibitz diplomacy ...`: each file registers its subcommands under the `diplomacy` command and
// returns them with the function that runs them (src/cli/diplomacy.cpp picks the one parsed).
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"

namespace kibitz::cli {

using SubRunners = std::vector<std::pair<CLI::App*, Runner>>;

// adjudicate, datc (src/cli/diplomacy_rules.cpp).
SubRunners add_diplomacy_rules(CLI::App& diplomacy);
// play (src/cli/diplomacy_play.cpp).
SubRunners add_diplomacy_play(CLI::App& diplomacy);
// search (src/cli/diplomacy_search.cpp).
SubRunners add_diplomacy_search(CLI::App& diplomacy);
// daide: a bot on a DAIDE server (src/cli/diplomacy_daide.cpp).
SubRunners add_diplomacy_daide(CLI::App& diplomacy);

// A comma-separated list, each word trimmed and lower-cased ("rm, Heuristic" -> rm, heuristic):
// the bots of `play --bots` and the seats of `daide-server --seats`.
std::vector<std::string> split_commas(std::string_view text);

// The RM+ options `play` and `search` share: the error message for a value out of range
// (--iterations needs none: main.cpp refuses negative numeric options).
std::optional<std::string> rm_options_error(int movetime, double strength);

}  // namespace kibitz::cli

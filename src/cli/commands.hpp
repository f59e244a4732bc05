#pragma once
// Each subcommand registers its options on the root app and returns the function that runs
// it; main() calls the one the user picked. Runners return the process exit status.
#include <CLI/CLI.hpp>

#include <functional>

#include "api/registry.hpp"

namespace kibitz::cli {

using Runner = std::function<int()>;

Runner add_demo(CLI::App& root);
Runner add_games(CLI::App& root, const Registry& registry);
Runner add_perft(CLI::App& root);
Runner add_tune(CLI::App& root);
Runner add_uci(CLI::App& root);
Runner add_bench(CLI::App& root);
Runner add_selfplay(CLI::App& root);
Runner add_match(CLI::App& root);
Runner add_gomocup(CLI::App& root);
Runner add_gomoku(CLI::App& root);
Runner add_gtp(CLI::App& root);
Runner add_hearts(CLI::App& root);

// Prints "kibitz: error: <message>" on stderr (one line) and returns `status`.
int report_error(const std::string& message, int status = 1);

}  // namespace kibitz::cli

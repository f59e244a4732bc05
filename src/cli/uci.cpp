// kibitz uci: the chess engine over the UCI protocol on stdin/stdout.
#include <iostream>

#include "cli/commands.hpp"
#include "protocol/uci/uci.hpp"

namespace kibitz::cli {

Runner add_uci(CLI::App& root) {
  auto* cmd = root.add_subcommand("uci", "Play chess over the UCI protocol (stdin/stdout)");
  cmd->footer(
      "Load 'kibitz uci' as the engine command in a chess GUI, fastchess or cutechess.\n"
      "Example:\n"
      "  printf 'uci\\nposition startpos moves e2e4\\ngo depth 8\\n' | kibitz uci");
  return [] {
    std::ios::sync_with_stdio(false);
    uci::Session session(std::cin, std::cout);
    return session.run();
  };
}

}  // namespace kibitz::cli

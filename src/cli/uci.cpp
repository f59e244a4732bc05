// kibitz uci: the chess engine over the UCI protocol on stdin/stdout.
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "protocol/uci/uci.hpp"

namespace kibitz::cli {

Runner add_uci(CLI::App& root) {
  auto* cmd = root.add_subcommand("uci", "Play chess over the UCI protocol (stdin/stdout)");
  auto args = std::make_shared<OptionArgs>();
  add_option_flags(cmd, *args);
  cmd->footer(
      "Load 'kibitz uci' as the engine command in a chess GUI, fastchess or cutechess.\n"
      "Example:\n"
      "  printf 'uci\\nposition startpos moves e2e4\\ngo depth 8\\n' | kibitz uci\n"
      "  kibitz uci --option Hash=64 --option 'Move Overhead=50'");
  return [args] {
    std::ios::sync_with_stdio(false);
    auto settings = option_settings(*args);
    if (!settings) return report_error(settings.error().message, 2);
    uci::Session session(std::cin, std::cout);
    for (const auto& [name, value] : *settings)
      if (auto ok = session.set_option(name, value); !ok)
        return report_error(ok.error().message, 2);
    return session.run();
  };
}

}  // namespace kibitz::cli

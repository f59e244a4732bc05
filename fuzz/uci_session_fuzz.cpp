// UCI command lines: a whole session of arbitrary lines must never crash or hang, and every
// request that expects an answer gets exactly one: a bestmove per `go`, a readyok per
// `isready` (up to `quit`). Searches are kept short (every `go` gets a final `depth 2`, perft
// and bench are left out), so the fuzzer explores the parser, not the search.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>

#include "core/text.hpp"
#include "fuzz_support.hpp"
#include "protocol/uci/uci.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kibitz::fuzz::silence_logs();
  std::string script;
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  int gos = 0, readies = 0;
  bool quit = false;
  for (std::string line; std::getline(lines, line);) {
    const auto first = line.find_first_not_of(" \t");
    const std::string_view cmd =
        first == std::string::npos ? std::string_view() : std::string_view(line).substr(first);
    if (cmd.starts_with("bench") || cmd.find("perft") != std::string_view::npos ||
        cmd.starts_with("setoption name Hash") || cmd.starts_with("setoption name Threads"))
      continue;
    if (cmd.starts_with("go")) line += " depth 2";
    // The session's own reading of a line: trimmed, the command up to the first blank.
    const auto words = kibitz::split_blanks(kibitz::trim(line));
    if (!quit && !words.empty()) {
      gos += words[0] == "go";
      readies += words[0] == "isready";
      quit = words[0] == "quit";
    }
    script += line;
    script += '\n';
  }
  std::istringstream in(script);
  std::ostringstream out;
  kibitz::uci::Session session(in, out);
  session.run();
  int bestmoves = 0, readyoks = 0;
  std::istringstream answers(out.str());
  for (std::string line; std::getline(answers, line);) {
    bestmoves += line.starts_with("bestmove ");
    readyoks += line == "readyok";
  }
  if (bestmoves != gos || readyoks != readies) std::abort();
  return 0;
}

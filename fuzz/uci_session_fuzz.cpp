// UCI command lines: a whole session of arbitrary lines must never crash or hang. Searches
// are kept short (every `go` gets a final `depth 2`, perft and bench are capped), so the
// fuzzer explores the parser, not the search.
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "protocol/uci/uci.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kibitz::fuzz::silence_logs();
  std::string script;
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string line; std::getline(lines, line);) {
    const auto first = line.find_first_not_of(" \t");
    const std::string_view cmd =
        first == std::string::npos ? std::string_view() : std::string_view(line).substr(first);
    if (cmd.starts_with("bench") || cmd.find("perft") != std::string_view::npos ||
        cmd.starts_with("setoption name Hash") || cmd.starts_with("setoption name Threads"))
      continue;
    if (cmd.starts_with("go")) line += " depth 2";
    script += line;
    script += '\n';
  }
  std::istringstream in(script);
  std::ostringstream out;
  kibitz::uci::Session session(in, out);
  session.run();
  return 0;
}

// GTP command lines: a whole session of arbitrary lines must never crash or hang, and every
// command (up to quit) gets exactly one response, "=" or "?". genmove is limited to a few
// visits and files are never opened, so the fuzzer explores the protocol.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "core/text.hpp"
#include "fuzz_support.hpp"
#include "protocol/gtp/gtp.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kibitz::fuzz::silence_logs();
  const std::string input(reinterpret_cast<const char*>(data), size);
  // The commands the session will read: non-empty once cleaned, up to and with quit.
  int commands = 0;
  {
    std::istringstream lines(input);
    for (std::string line; std::getline(lines, line);) {
      const std::string clean = kibitz::gtp::clean_line(line);
      if (clean.empty()) continue;
      ++commands;
      auto words = kibitz::split_blanks(clean);
      if (words.size() > 1 && words[0].size() <= 18 &&
          words[0].find_first_not_of("0123456789") == std::string::npos)
        words.erase(words.begin());
      if (words[0] == "quit") break;
    }
  }
  std::istringstream in(input);
  std::ostringstream out;
  kibitz::gtp::SessionOptions o;
  o.visits = 8;
  o.size = 9;
  o.allow_files = false;
  o.ownership_playouts = 4;
  o.engine.max_nodes = 1 << 14;
  kibitz::gtp::Session session(in, out, o);
  session.run();
  int responses = 0;
  std::istringstream answers(out.str());
  for (std::string line; std::getline(answers, line);)
    responses += line.starts_with('=') || line.starts_with('?');
  if (responses != commands) std::abort();
  return 0;
}

#pragma once
// The UCI protocol over the chess engine behind the engine contract (engine::AnyEngine): a
// text adapter only. Reads commands from `in` on the calling thread while the engine searches
// on its own, writes responses to `out` (one lock for every line, so search output and
// command replies never interleave), and logs malformed commands on stderr, ignoring them, as
// the protocol expects. The options are the engine's declared ones.
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "engine/any_engine.hpp"
#include "games/chess/position.hpp"

namespace kibitz::uci {

class Session {
 public:
  Session(std::istream& in, std::ostream& out);
  // Runs until `quit` or end of input; returns the process exit status (0).
  int run();
  // One command line (exposed for tests); false after `quit`.
  bool handle(std::string_view line);
  // Sets an engine option before the session runs (--option, --option-file): one of the
  // engine's declarations, as the protocol's own setting would.
  Result<void> set_option(std::string_view name, std::string_view value);

 private:
  void send(std::string_view line);
  void warn(std::string_view message);  // on stderr and to the GUI as `info string`
  void cmd_uci();
  void cmd_setoption(std::string_view args);
  void cmd_position(std::string_view args);
  void cmd_go(std::string_view args);
  void cmd_bench(std::string_view args);
  void cmd_perft(int depth);

  std::istream& in_;
  std::ostream& out_;
  std::mutex out_mutex_;
  std::unique_ptr<engine::AnyEngine> engine_;
  chess::Position position_;
  std::string position_text_ = "startpos";  // position_ as the engine is given it
  std::string position_error_;  // why the last `position` was refused (empty: it was not)
  // Options set while searching that apply from the next go (MultiPV, Move Overhead).
  std::map<std::string, std::string> pending_;
  bool infinite_ = false;   // the last go runs until stop (infinite, or no limit at all)
  bool pondering_ = false;  // the last go was ponder, not yet ponderhit
};

// The UCI info line for one report (without a trailing newline).
std::string format_info(const engine::EngineReport& info);

}  // namespace kibitz::uci

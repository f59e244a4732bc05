#pragma once
// The UCI protocol over the chess engine: a text adapter only. Reads commands from `in` on
// the calling thread while the engine searches on its own, writes responses to `out` (one
// lock for every line, so search output and command replies never interleave), and logs
// malformed commands on stderr, ignoring them, as the protocol expects.
#include <iosfwd>
#include <mutex>
#include <string>
#include <string_view>

#include "engine/chess_engine.hpp"
#include "games/chess/position.hpp"

namespace kibitz::uci {

class Session {
 public:
  Session(std::istream& in, std::ostream& out);
  // Runs until `quit` or end of input; returns the process exit status (0).
  int run();
  // One command line (exposed for tests); false after `quit`.
  bool handle(std::string_view line);

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
  engine::ChessEngine engine_;
  chess::Position position_;
  std::string position_error_;  // why the last `position` was refused (empty: it was not)
  int multipv_ = 1;
  bool infinite_ = false;   // the last go runs until stop (infinite, or no limit at all)
  bool pondering_ = false;  // the last go was ponder, not yet ponderhit
};

// The UCI info line for one PV (without a trailing newline).
std::string format_info(const search::PvInfo<chess::Move>& info);

}  // namespace kibitz::uci

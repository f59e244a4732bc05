#pragma once
// Time controls of `kibitz match` and the clocks of one game. A player either has a clock
// (moves/time+increment) or a fixed limit per move (movetime, nodes, depth); the referee
// charges each move's wall time to the mover's clock and decides time forfeits.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace kibitz::match {

struct TimeControl {
  int moves = 0;  // moves per period (0 = the whole game)
  std::int64_t base_ms = 0;
  std::int64_t increment_ms = 0;

  // "10+0.1" (seconds + increment), "40/60" (40 moves in 60 s, repeating), "1:30+1"
  // (minutes:seconds), "40/1:00+0.5".
  static Result<TimeControl> parse(std::string_view text);
  std::string to_string() const;  // the form parse() reads
  std::string pgn() const;        // PGN TimeControl tag: "40/60", "10+0.1"
};

struct MoveLimits {
  std::optional<TimeControl> clock;
  std::int64_t movetime_ms = 0;  // 0 = none
  std::uint64_t nodes = 0;       // 0 = none
  int depth = 0;                 // 0 = none
  bool empty() const { return !clock && movetime_ms == 0 && nodes == 0 && depth == 0; }
  std::string to_string() const;  // "tc=10+0.1", "nodes=2000 depth=8", "none"
};

// What the mover is told before it thinks (both sides' clocks, as UCI's go and GTP's
// time_left show them) and the wall-time deadline the referee enforces.
struct ClockView {
  std::array<std::int64_t, 2> remaining_ms{-1, -1};  // -1 = that side has no clock
  std::array<std::int64_t, 2> increment_ms{0, 0};
  int moves_to_go = 0;  // 0 = sudden death
};

class GameClocks {
 public:
  // `move_timeout_ms` caps the wait for a player without a clock (movetime adds to it);
  // `grace_ms` is tolerated past a clock before the move counts as a time forfeit.
  GameClocks(const std::array<MoveLimits, 2>& limits, std::int64_t grace_ms,
             std::int64_t move_timeout_ms);

  ClockView view(int mover) const;
  // How long the referee waits for `mover`'s answer before it declares a time forfeit.
  std::int64_t budget_ms(int mover) const;
  // Charges `elapsed_ms` to the mover; false when it exceeded its clock (plus grace).
  bool charge(int mover, double elapsed_ms);
  bool has_clock(int side) const { return limits_[side].clock.has_value(); }
  double remaining_ms(int side) const { return remaining_[side]; }

 private:
  std::array<MoveLimits, 2> limits_;
  std::array<double, 2> remaining_{};
  std::array<int, 2> moves_made_{};
  std::int64_t grace_ms_;
  std::int64_t move_timeout_ms_;
};

}  // namespace kibitz::match

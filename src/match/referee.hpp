#pragma once
// The bookkeeping every game's referee shares: each seat's limits and clock, the ending of
// the outcome, forfeits and their counters, and the time accounting of each move.
#include <array>
#include <memory>
#include <string>
#include <string_view>

#include "core/process.hpp"
#include "match/arena.hpp"

namespace kibitz::match {

// Starts an external player's program (its working directory, its stderr shown or not).
Result<std::unique_ptr<Subprocess>> spawn_player(const PlayerSpec& spec);

class RefereeBook {
 public:
  // `results`: the game's notation for a first-seat win, a second-seat win, a draw and an
  // unfinished game ("1-0", "0-1", "1/2-1/2", "*" in chess).
  RefereeBook(GameOutcome& out, std::array<const PlayerSpec*, 2> specs,
              const GameSettings& settings, std::array<std::string_view, 4> results);

  const MoveLimits& limits(int seat) const { return limits_[seat]; }
  GameClocks& clocks() { return clocks_; }

  // first_score: 1, 0.5, 0, or negative for unfinished.
  void end(double first_score, std::string termination, std::string reason);
  // `seat` loses: its counter for the fault goes up.
  void forfeit(int seat, Fault fault, std::string termination, std::string reason);
  // Charges a move's wall time to `seat` (its longest move and least clock left are kept).
  // On a timeout or a clock run out, records the time forfeit of `who` and returns false.
  bool charge(int seat, double elapsed_ms, bool timed_out, std::string_view who);

 private:
  GameOutcome& out_;
  std::array<MoveLimits, 2> limits_;
  GameClocks clocks_;
  std::array<std::string_view, 4> results_;
};

}  // namespace kibitz::match

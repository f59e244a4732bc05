#pragma once
// The one time manager: a clock, however a protocol gives it (UCI's wtime/winc/movestogo,
// GTP's time_settings/time_left with Canadian byo-yomi, Gomocup's timeout_turn/time_left),
// turned into a move's budget, {soft target, hard limit}, by one rule. What differs between
// games is a TimePolicy: the game's hook says how many more moves the mover expects to make,
// and a few shares say how boldly it spends (a chess engine stretches an unclear move to 5
// shares, Go's search to 3, gomoku's pipeline never). Every engine, protocol and match seat
// plans through plan_move_time.
#include <cstdint>

#include "core/time_budget.hpp"

namespace kibitz {

// The mover's clock.
struct MoverClock {
  TimeBudget::Millis left_ms = -1;  // what is left (-1: no clock)
  TimeBudget::Millis increment_ms = 0;
  // Moves left_ms must last: a control's moves to go, or the stones of a byo-yomi period
  // (0: sudden death).
  int moves_to_go = 0;
  // Byo-yomi after the main time (period_moves moves in period_ms each period): its time per
  // move comes on top of the main time's share.
  TimeBudget::Millis period_ms = 0;
  int period_moves = 0;
  TimeBudget::Millis move_cap_ms = -1;  // the most one move may take (Gomocup's turn; -1: none)
};

// A fraction of the usable clock.
struct TimeShare {
  std::int64_t num = 1;
  std::int64_t den = 1;
  TimeBudget::Millis of(TimeBudget::Millis ms) const { return ms * num / den; }
};

// How a game spends its clock. The defaults are the alpha-beta chess engine's.
struct TimePolicy {
  int expected_moves = 30;  // the game's hook: moves still to make in sudden death
  int max_horizon = 50;     // a control's moves to go counted at most
  // Kept back from the clock before sharing it: reserve_ms, or (reserve_divisor > 0) at most
  // the clock / reserve_divisor.
  TimeBudget::Millis reserve_ms = 0;
  int reserve_divisor = 0;
  // Kept back from the share and the limit after planning: at most margin_ms, at most a
  // fifth of the share (so a short share is not eaten by it).
  TimeBudget::Millis margin_ms = 0;
  int increment_percent = 75;   // of the increment, added to the share
  TimeShare soft_cap{6, 10};    // the share never plans more than this of the usable clock
  int stretch = 5;              // an unclear move may take this many shares ...
  TimeShare hard_cap{8, 10};    // ... within this of the usable clock (main time)
  int period_stretch = 5;       // in a control or a period: this many shares,
  TimeShare period_cap{8, 10};  // within this of the usable clock,
  bool keep_half = false;       // and (true) while every other move of it keeps half its share
};

// The policy that spends a clock evenly over `expected_moves` moves (a control's moves to go
// counted in full), ¾ of an increment on top, never stretching a move and keeping nothing
// back: gomoku's pipeline and the Hearts bot, whose searches have no "unclear move" to give
// more time to.
TimePolicy even_share_policy(int expected_moves);

struct ClockAllocation {
  TimeBudget::Millis soft_ms;  // stop starting new work
  TimeBudget::Millis hard_ms;  // abort work in progress
};

// The move's budget, both at least 1 ms. A clock of -1 (none) gives the unlimited budget.
ClockAllocation plan_move_time(const MoverClock& clock, const TimePolicy& policy);

}  // namespace kibitz

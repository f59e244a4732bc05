#pragma once
// Go for `kibitz match` (GTP engines and in-process bots; SGF or vertex-list openings; SGF
// records), with the pieces the tests check on their own: the verdict of an ended game and
// the GTP clock commands.
#include <memory>
#include <string>

#include "games/go/board.hpp"
#include "match/arena.hpp"

namespace kibitz::match {

// The board size (default 19, 5..19), komi and rule (empty, chinese or tromp-taylor: all
// the same area rules) come from the settings.
Result<std::unique_ptr<GameKind>> make_go_kind(const GameSettings& settings);

// How a game stands by the rules: a resignation ("B+R", "W+R"), else the Tromp-Taylor area
// count with komi, every stone alive ("B+3.5", "W+7.5", "0" for a tie on integer komi).
struct GoVerdict {
  double black_score = 0.5;  // 1, 0.5 or 0
  std::string result;
  std::string reason;  // "two passes: area B 41 W 40, komi 7.5"
};
GoVerdict go_verdict(const go::Position& pos);

// GTP has whole seconds only. A clock M+I is main time M with the increment as a byo-yomi of
// I per 1 stone ("time_settings M I 1"; "M 0 0", absolute time, when I < 1 s); moves/time is
// Canadian byo-yomi of that many stones from the start ("time_settings 0 T N"; an increment
// on top is not told); a fixed movetime without a clock is a byo-yomi of the movetime
// (rounded up) per stone. Empty when there is nothing to tell (nodes or no limit).
std::string gtp_time_settings(const MoveLimits& limits);
// "time_left b T S" for `side` (0 Black, 1 White): its clock in whole seconds (rounded down)
// and the moves left in the period (0 in sudden death). Empty when the side has no clock.
std::string gtp_time_left(const ClockView& clock, int side);

}  // namespace kibitz::match

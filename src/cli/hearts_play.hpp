#pragma once
// `kibitz hearts play`: a person plays one seat of a whole game of Hearts in the terminal
// against three bots. The deals come from a seed, so a game can be replayed. The session
// reads the person's lines from `in` and writes everything to `out` (the terminal, or a
// test's streams); it is compiled into kibitz_engine so that tests can drive it.
//
// Shown: the hand grouped by suit, the trick so far, each bot's card, trick winners, the
// hand's points and the running scores. Each prompt ends in "> " and is flushed; the play
// prompt lists the legal cards ("Your card (legal: 2C 9C)> "). Accepted input: cards as
// "qs", "10h", "Q♠" (three of them, blank- or comma-separated, when passing), `hint` (the
// search bot's suggestion), `help`, `quit`. Anything else is answered with a one-line reason
// and the prompt again.
#include <array>
#include <cstdint>
#include <iosfwd>
#include <string>

#include "engine/hearts_engine.hpp"
#include "games/hearts/state.hpp"

namespace kibitz::cli {

struct HeartsPlayOptions {
  int seat = 2;  // the person's seat: 0 North, 1 East, 2 South, 3 West
  // The bots in the other three seats in seat order (North, East, West for a person at
  // South): random, rule or search.
  std::array<std::string, 3> bots = {"search", "search", "search"};
  hearts::SearchCfg search;  // the search bots' settings, and the hints'
  hearts::Options rules;     // rules.game_target (100) ends the game
  std::uint64_t seed = 1;    // the deals and the bots' randomness
};

// Plays the game; returns 0 when it ends, the person quits or the input ends, and 2 (after an
// "error: ..." line on `out`) when the options are unusable (a seat outside 0-3, an unknown
// bot name).
int hearts_play_session(std::istream& in, std::ostream& out, const HeartsPlayOptions& options);

}  // namespace kibitz::cli

#pragma once
// Hearts behind the registry's type-erased AnyState: the whole deal is visible (as in
// OpenSpiel's state; a seat's view is the Observation). Position text: a pass direction
// (left, right, across, none), then either the 52 cards dealt North, East, South, West (13
// each, as in the shared deal files) or "seed N" (a deal drawn from seed N), then the cards
// played so far, passes first (three picks a seat, from North). "" is "left seed 1".
// Returns are the negated hand scores (higher is better).
#include "api/any_state.hpp"
#include "games/hearts/state.hpp"

namespace kibitz::hearts {

Result<std::unique_ptr<AnyState>> new_any_state(std::string_view text);
// The same position text as a State (what the bots' engine reads).
Result<State> parse_position_text(std::string_view text);

// One seat's view of a hand as text (what a bot lent to another program is told: the JSON-
// lines server, a web page): "view SEAT DIR hand CARDS [scores N E S W] [passed CARDS]
// [received CARDS] [plays SEAT:CARD ...]" with SEAT one of N E S W, DIR the pass direction,
// hand the 13 cards dealt to the seat, scores the game scores before the hand, passed and
// received the seat's passing, and plays every card played so far by whom, in order
// ("view S left hand 2C 3C ... passed QS AS KH received 2D 5D 9H plays W:2C N:4C").
std::string view_text(const Observation& o);
// The view back (every event checked as Observation checks it); the rules the hand is played
// under are not in the text.
Result<Observation> parse_view_text(std::string_view text, const Options& rules = {});

}  // namespace kibitz::hearts

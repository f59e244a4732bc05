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

}  // namespace kibitz::hearts

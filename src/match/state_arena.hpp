#pragma once
// `kibitz match` for a game whose registry entry has no referee of its own: two in-process
// bots play through the game's AnyState (moves as text). Any two-player game in the registry
// is playable this way with nothing but its state factory.
#include <memory>
#include <string>

#include "api/any_state.hpp"
#include "match/arena.hpp"

namespace kibitz::match {

// Bots: random (a legal move drawn from the match's seed, the pair and the seat) and first
// (the first legal move). Openings: a text file of position texts, one a line ('#' comments).
// Records: the final position text, one line per game. An error when the game does not have
// two players.
Result<std::unique_ptr<GameKind>> make_state_kind(std::string name, StateFactory factory);

}  // namespace kibitz::match

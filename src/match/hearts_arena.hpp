#pragma once
// Hearts in `kibitz match`: four seats mapped onto the two-player arena as duplicate bridge
// does it. The first seat of a game (GameJob::seats[0]) plays North and South, the second
// East and West; the two games of a pair deal the same cards with the players swapped. A game
// is one hand (the deal's own passing direction); the side whose two seats took fewer points
// wins. Openings are deals: a deal file (`id pass N E S W`, as deals_10000_v1.tsv) or, without
// one, 10,000 deals drawn from the match's seed as `kibitz hearts match` draws them. Players
// are the in-process bots (random, rule, search); Hearts has no engine protocol here.
#include <memory>

#include "match/arena.hpp"

namespace kibitz::match {

// Refuses the board games' settings (--board-size, --rule, --komi, --max-moves).
Result<std::unique_ptr<GameKind>> make_hearts_kind(const GameSettings& settings);

}  // namespace kibitz::match

#pragma once
// The generic MCTS (search/mcts) over a game's position text, for GameEntry::mcts: the
// game's playout hooks where it has them, uniformly random playouts where not. Included by
// the engine file of each game that offers it (engine/mcts_request.hpp says why there).
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "core/time_budget.hpp"
#include "engine/mcts_request.hpp"
#include "search/mcts/mcts.hpp"
#include "search/mcts/mcts_impl.hpp"

namespace kibitz::engine {

// parse(text) -> Result<G>; move_text(position, move) -> std::string.
template <class G, class Parse, class MoveText>
Result<MctsAnswer> generic_mcts(std::string_view text, const MctsRequest& r, Parse parse,
                                MoveText move_text) {
  if (r.playouts == 0 && r.movetime_ms <= 0)
    return fail("mcts: give playouts or movetime_ms (or both)");
  if (r.c <= 0) return fail("mcts: c must be positive");
  auto pos = parse(text);
  if (!pos) return tl::unexpected(pos.error());
  if (pos->is_terminal()) return fail("mcts: the game is over");
  search::MctsOptions o;
  o.max_playouts = r.playouts;
  o.seed = r.seed;
  o.use_puct = r.puct;
  o.c_puct = r.c;
  o.c_uct = r.c;
  o.rave = r.rave;
  search::Mcts<G> mcts(*pos, o);
  TimeBudget budget = r.movetime_ms > 0 ? TimeBudget(r.movetime_ms, r.movetime_ms) : TimeBudget();
  const auto res = mcts.search(budget);
  MctsAnswer out;
  out.move = move_text(*pos, res.best);
  out.value = res.value;
  G walk = *pos;
  for (const auto m : res.pv) {
    out.pv.push_back(move_text(walk, m));
    walk.apply(m);
  }
  for (const auto& c : res.moves)
    out.moves.push_back(
        {move_text(*pos, c.move), static_cast<std::uint64_t>(c.visits), c.value, c.prior});
  out.playouts = res.playouts;
  out.time_ms = res.time_ms;
  out.uncertainty = res.uncertainty;
  return out;
}

}  // namespace kibitz::engine

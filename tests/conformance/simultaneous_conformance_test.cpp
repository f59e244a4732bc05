// Diplomacy's phase game is a real simultaneous-move game: it passes the conformance checks
// from the opening and from a later Fall phase, and each joint action resolves to the state
// the adjudicator gives for the same orders (a fresh resolver), with the returns the centre
// shares of that state.
#include "conformance/simultaneous_conformance.hpp"

#include <gtest/gtest.h>

#include "games/diplomacy/bots.hpp"
#include "games/diplomacy/orders.hpp"
#include "games/diplomacy/phase_game.hpp"

namespace kibitz::testing {
namespace {

using namespace diplomacy;

struct Phase {
  State state;
  std::vector<std::vector<OrderSet>> sets;
  PhaseResolver resolver;
  std::vector<Order> scratch;
  PhaseContext ctx;
  Phase(const Map& map, State s, std::uint64_t seed) : state(std::move(s)), resolver(map) {
    CandidateGenerator gen(map);
    Rng rng(seed);
    sets.resize(static_cast<std::size_t>(map.num_powers()));
    for (PowerId p = 0; p < map.num_powers(); ++p) gen.generate(state, p, 4, rng, sets[p]);
    ctx = PhaseContext{&map, &state, &sets, &resolver, &scratch, nullptr};
  }
};

// Every power's heuristic orders until a Fall movement phase in a later year.
State later_fall(const Map& map, int year) {
  State s = initial_state(map);
  auto bot = make_bot("heuristic", map);
  PhaseResolver resolver(map);
  Rng rng(11);
  std::vector<Order> orders;
  while (!(s.phase.year == year && s.phase.season == Season::kFall &&
           s.phase.type == PhaseType::kMovement)) {
    orders.clear();
    for (PowerId p = 0; p < map.num_powers(); ++p) bot->orders(s, p, rng, orders);
    s = resolver.resolve(s, orders);
  }
  return s;
}

void check_phase(const Phase& ph) {
  const Map& map = *ph.ctx.map;
  check_simultaneous_conformance(PhaseGame(ph.ctx), 20, 5);
  // Independently: the chosen sets' orders, resolved by a fresh resolver.
  Rng rng(9);
  for (int trial = 0; trial < 10; ++trial) {
    PhaseGame g(ph.ctx);
    std::vector<PhaseGame::Move> joint(PhaseGame::kMaxPlayers);
    std::vector<Order> orders;
    for (PowerId p = 0; p < map.num_powers(); ++p) {
      MoveList<PhaseGame> acts;
      g.legal_actions(p, acts);
      ASSERT_FALSE(acts.empty()) << "every power has units in these phases";
      joint[p] = acts[rng.below(acts.size())];
      for (const Order& o : ph.sets[p][joint[p]]) {
        EXPECT_TRUE(check_order(map, ph.state, p, o).has_value()) << format_order(map, o);
        orders.push_back(o);
      }
    }
    g.apply_joint(joint);
    PhaseResolver fresh(map);
    const State& expected = fresh.resolve(ph.state, orders);
    EXPECT_EQ(write_state_json(map, g.after()), write_state_json(map, expected));
    const auto r = g.returns();
    for (PowerId p = 0; p < map.num_powers(); ++p)
      EXPECT_DOUBLE_EQ(
          r[p], count_centres(map, expected, p) / static_cast<double>(map.num_supply_centres()));
  }
}

TEST(SimultaneousConformance, DiplomacyOpeningPhase) {
  const Map& map = standard_map();
  const Phase ph(map, initial_state(map), 3);
  check_phase(ph);
}

TEST(SimultaneousConformance, DiplomacyLaterFallPhase) {
  const Map& map = standard_map();
  const Phase ph(map, later_fall(map, 1903), 4);
  check_phase(ph);
}

}  // namespace
}  // namespace kibitz::testing

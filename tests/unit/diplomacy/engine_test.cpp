// Diplomacy behind the engine contract (engine/diplomacy_engine.hpp): its position and order
// texts, whole games stepped one power at a time with every answer legal, and one-line errors.
#include "engine/diplomacy_engine.hpp"

#include <gtest/gtest.h>

#include "games/diplomacy/game.hpp"
#include "games/diplomacy/map.hpp"

namespace kibitz::engine {
namespace {

namespace dip = diplomacy;

TEST(DiplomacyEngine, EveryAnswerOfWholeGamesIsLegalAndItsTextReadsBack) {
  const dip::Map& map = dip::standard_map();
  for (const char* bot : {"heuristic", "random", "rm"}) {
    SCOPED_TRACE(bot);
    DiplomacySetup setup;
    setup.bot = bot;
    setup.rm.max_iterations = 8;
    setup.rm.movetime_ms = 50;
    auto e = make_diplomacy_engine(setup);
    ASSERT_TRUE(e);
    dip::GameRunner runner(map);
    dip::GameOptions options;
    options.max_year = std::string_view(bot) == "rm" ? 1902 : 1906;
    runner.begin(7, options);
    int answers = 0, retreats = 0, adjustments = 0;
    while (!runner.over()) {
      const dip::State& s = runner.state();
      const dip::PowerId power = runner.to_order();
      // The position through its text, as a program would send it.
      const std::string text =
          std::string(map.power_name(power)) + " " + dip::write_state_json(map, s);
      ASSERT_TRUE((*e)->set_position(text));
      auto r = (*e)->think({});
      ASSERT_TRUE(r) << r.error().message;
      auto orders = parse_orders_text(r->move, s.phase.type);
      ASSERT_TRUE(orders) << r->move << ": " << orders.error().message;
      EXPECT_EQ(orders_text(*orders), r->move);
      for (const auto& o : *orders) EXPECT_TRUE(dip::check_order(map, s, power, o)) << r->move;
      retreats += s.phase.type == dip::PhaseType::kRetreat;
      adjustments += s.phase.type == dip::PhaseType::kAdjustment;
      ++answers;
      runner.give(*orders);
    }
    EXPECT_GT(answers, 20);
    if (std::string_view(bot) != "rm") {
      EXPECT_GT(adjustments, 0);
    }
    (void)retreats;
  }
}

TEST(DiplomacyEngine, PositionsAndOrdersRefusedInOneLine) {
  auto e = make_diplomacy_any_engine();
  for (const char* bad : {"Narnia", "France {", "France {\"phase\": 3}", "ENG [1, 2]"}) {
    auto r = e->set_position(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
  }
  ASSERT_TRUE(e->set_position("FRA"));  // the standard opening
  EXPECT_TRUE(e->set_position(""));
  EXPECT_FALSE(parse_orders_text("A PAR - XYZ", dip::PhaseType::kMovement));
  EXPECT_FALSE(parse_orders_text("A PAR - BUR,, F BRE H", dip::PhaseType::kMovement));
  EXPECT_TRUE(parse_orders_text("", dip::PhaseType::kRetreat)->empty());
  EXPECT_FALSE(make_diplomacy_engine(DiplomacySetup{.bot = "oracle", .rm = {}, .seed = 1}));
  // A power with nothing to order has no move: a dead power in the opening has units, so
  // take a retreat phase in which France has nothing dislodged.
  const dip::Map& map = dip::standard_map();
  dip::State s = dip::initial_state(map);
  s.phase.type = dip::PhaseType::kRetreat;
  ASSERT_TRUE(e->set_position("France " + dip::write_state_json(map, s)));
  EXPECT_FALSE(e->think({}));
}

}  // namespace
}  // namespace kibitz::engine

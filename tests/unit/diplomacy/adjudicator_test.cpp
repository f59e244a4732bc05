// The movement-phase adjudicator: hand-written DATC chapter-6 cases in our own notation and
// random phases. The DATC case files run in datc_test.cpp.
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "games/diplomacy/adjudicator.hpp"
#include "games/diplomacy/map.hpp"
#include "games/diplomacy/orders.hpp"
#include "games/diplomacy/state.hpp"

namespace kibitz::diplomacy {
namespace adjudicator_test {

const Map& sm() { return standard_map(); }

// A board and its orders in our notation: "England: F lon - nth". The unit named by each
// order is placed on the board (with the order's power and unit type); `extra` adds units
// without orders ("Germany: A mun").
struct Case {
  State state;
  std::vector<Order> given;    // as parsed
  std::vector<PowerId> power;  // of each given order
  MovementResult result;
};

PowerId power_of(const std::string& text) {
  const auto colon = text.find(':');
  const auto p = sm().find_power(text.substr(0, colon));
  EXPECT_TRUE(p) << text;
  return p ? *p : 0;
}

void place(State& s, PowerId power, UnitType type, LocationId loc) {
  Unit u;
  u.power = power;
  u.type = type;
  u.location = loc;
  s.place(u, sm());
}

Case run_case(const std::vector<std::string>& orders, const std::vector<std::string>& extra = {}) {
  Case c;
  c.state = State();
  c.state.phase = Phase{Season::kSpring, PhaseType::kMovement, 1901};
  for (const auto& text : extra) {
    const auto colon = text.find(':');
    const auto o = parse_order(sm(), text.substr(colon + 1) + " H");
    EXPECT_TRUE(o) << text;
    place(c.state, power_of(text), o->unit, o->location);
  }
  for (const auto& text : orders) {
    const auto colon = text.find(':');
    const auto o = parse_order(sm(), text.substr(colon + 1));
    EXPECT_TRUE(o) << text << ": " << (o ? std::string() : o.error().message);
    if (!o) continue;
    c.given.push_back(*o);
    c.power.push_back(power_of(text));
    place(c.state, c.power.back(), o->unit, o->location);
  }
  std::vector<Order> effective;
  for (std::size_t k = 0; k < c.given.size(); ++k) {
    const auto e = effective_order(sm(), c.state, c.power[k], c.given[k]);
    EXPECT_TRUE(e) << k;
    effective.push_back(e ? *e : c.given[k]);
  }
  resolve_movement(sm(), c.state, effective, c.result);
  return c;
}

ProvinceId prov(const char* name) { return *sm().find_province(name); }

bool unit_at(const State& s, const char* name, PowerId power) {
  return s.units[prov(name)].exists() && s.units[prov(name)].power == power;
}

constexpr PowerId kAus = 0, kEng = 1, kFra = 2, kIta = 4, kRus = 5;  // map order

// 6.A.11: simple bounce.
TEST(DiplomacyAdjudicator, SimpleBounceLeavesAStandoff) {
  auto c = run_case({"Austria: A vie - tyr", "Italy: A ven - tyr"});
  EXPECT_FALSE(c.result.succeeded[0]);
  EXPECT_FALSE(c.result.succeeded[1]);
  EXPECT_TRUE(c.result.standoff.test(prov("tyr")));
  EXPECT_TRUE(unit_at(c.result.next, "vie", kAus));
  EXPECT_TRUE(unit_at(c.result.next, "ven", kIta));
  EXPECT_EQ(c.result.next.phase, (Phase{Season::kFall, PhaseType::kMovement, 1901}));
}

// 6.C.1: three army circular movement.
TEST(DiplomacyAdjudicator, CircularMovementSucceeds) {
  auto c = run_case({"Turkey: F ank - con", "Turkey: A con - smy", "Turkey: A smy - ank"});
  for (int k = 0; k < 3; ++k) EXPECT_TRUE(c.result.succeeded[k]) << k;
  EXPECT_EQ(c.result.next.units[prov("con")].type, UnitType::kFleet);
  EXPECT_EQ(c.result.next.units[prov("ank")].type, UnitType::kArmy);
}

// 6.C.3: a disrupted circular movement.
TEST(DiplomacyAdjudicator, DisruptedCircularMovementFails) {
  auto c = run_case(
      {"Turkey: F ank - con", "Turkey: A con - smy", "Turkey: A smy - ank", "Turkey: A bul - con"});
  for (int k = 0; k < 4; ++k) EXPECT_FALSE(c.result.succeeded[k]) << k;
}

// 6.D.1: a supported hold can prevent dislodgement.
TEST(DiplomacyAdjudicator, SupportedHoldPreventsDislodgement) {
  auto c = run_case({"Austria: F adr S A tri - ven", "Austria: A tri - ven", "Italy: A ven H",
                     "Italy: A tyr S A ven"});
  EXPECT_FALSE(c.result.succeeded[1]);
  EXPECT_TRUE(c.result.succeeded[2]);
  EXPECT_FALSE(c.result.dislodged.any());
}

// 6.D.2: a move cuts support on hold; the supported unit is dislodged and its attacker known.
TEST(DiplomacyAdjudicator, MoveCutsSupportAndDislodges) {
  auto c = run_case({"Austria: F adr S A tri - ven", "Austria: A tri - ven", "Austria: A vie - tyr",
                     "Italy: A ven H", "Italy: A tyr S A ven"});
  EXPECT_TRUE(c.result.succeeded[1]);
  EXPECT_FALSE(c.result.succeeded[4]);
  EXPECT_TRUE(c.result.dislodged.test(prov("ven")));
  EXPECT_EQ(c.result.attacker_from[prov("ven")], prov("tri"));
  const State& n = c.result.next;
  EXPECT_TRUE(unit_at(n, "ven", kAus));
  EXPECT_EQ(n.dislodged[prov("ven")].power, kIta);
  EXPECT_EQ(n.attacker_from[prov("ven")], prov("tri"));
  EXPECT_EQ(n.phase, (Phase{Season::kSpring, PhaseType::kRetreat, 1901}));
}

// 6.D.10: self-dislodgement is not allowed.
TEST(DiplomacyAdjudicator, NoSelfDislodgement) {
  auto c = run_case({"Germany: A ber H", "Germany: F kie - ber", "Germany: A mun S F kie - ber"});
  EXPECT_FALSE(c.result.succeeded[1]);
  EXPECT_FALSE(c.result.dislodged.any());
}

// 6.E.1: a dislodged unit has no effect on its attacker's area.
TEST(DiplomacyAdjudicator, DislodgedUnitHasNoEffectOnAttackersArea) {
  auto c = run_case({"Germany: A ber - pru", "Germany: F kie - ber", "Germany: A sil S A ber - pru",
                     "Russia: A pru - ber"});
  EXPECT_TRUE(c.result.succeeded[0]);
  EXPECT_TRUE(c.result.succeeded[1]);
  EXPECT_TRUE(c.result.dislodged.test(prov("pru")));
  EXPECT_EQ(c.result.attacker_from[prov("pru")], prov("ber"));
}

// The loser of a head-to-head battle does not make the winner's origin a standoff province.
TEST(DiplomacyAdjudicator, LostHeadToHeadIsNoStandoff) {
  auto c =
      run_case({"Germany: A ber - pru", "Germany: A sil S A ber - pru", "Russia: A pru - ber"});
  EXPECT_TRUE(c.result.succeeded[0]);
  EXPECT_FALSE(c.result.succeeded[2]);
  EXPECT_TRUE(c.result.dislodged.test(prov("pru")));
  EXPECT_FALSE(c.result.standoff.any());
  EXPECT_FALSE(c.result.next.contested.any());
  EXPECT_EQ(c.result.next.phase, (Phase{Season::kSpring, PhaseType::kRetreat, 1901}));
}

// 6.F.14 (simple convoy paradox): the Szykman rule -- the convoyed army does not move and
// does not cut the support, so the convoying fleet is dislodged.
TEST(DiplomacyAdjudicator, SimpleConvoyParadoxFollowsSzykman) {
  auto c = run_case({"England: F lon S F wal - eng", "England: F wal - eng", "France: A bre - lon",
                     "France: F eng C A bre - lon"});
  EXPECT_TRUE(c.result.succeeded[0]);
  EXPECT_TRUE(c.result.succeeded[1]);
  EXPECT_FALSE(c.result.succeeded[2]);
  EXPECT_TRUE(c.result.dislodged.test(prov("eng")));
}

// 6.G.1: two units can swap provinces by convoy.
TEST(DiplomacyAdjudicator, SwapByConvoy) {
  auto c =
      run_case({"England: A nwy - swe", "England: F ska C A nwy - swe", "Russia: A swe - nwy"});
  EXPECT_TRUE(c.result.succeeded[0]);
  EXPECT_TRUE(c.result.succeeded[2]);
  EXPECT_TRUE(unit_at(c.result.next, "swe", kEng));
  EXPECT_TRUE(unit_at(c.result.next, "nwy", kRus));
}

// The convoy case the cross-check with the python `diplomacy` package found (issue 28). A
// convoy order no route of the fleets now at sea needs is illegal (DATC 6.G.19, 6.D.32), so it
// shows no intent to convoy and the army goes by land, as the package also adjudicates.
TEST(DiplomacyAdjudicator, AConvoyNoRouteOfTheFleetsAtSeaNeedsShowsNoIntent) {
  auto alone = run_case({"England: A lvp - wal", "England: F nao C A lvp - wal"});
  EXPECT_TRUE(alone.result.succeeded[0]);
  EXPECT_TRUE(unit_at(alone.result.next, "wal", kEng));
  // With a fleet in the Irish Sea the only minimal route is lvp-iri-wal: still not via nao.
  auto iri = run_case({"England: A lvp - wal", "England: F nao C A lvp - wal"}, {"England: F iri"});
  EXPECT_TRUE(iri.result.succeeded[0]);
  // nao-mao-eng is a minimal route, so the convoy order is legal and states the intent; the
  // fleets in mao and eng do not convoy, and the 2023 rules give no land fallback (6.G.8).
  auto route = run_case({"England: A lvp - wal", "England: F nao C A lvp - wal"},
                        {"England: F mao", "England: F eng"});
  EXPECT_FALSE(route.result.succeeded[0]);
  EXPECT_TRUE(unit_at(route.result.next, "lvp", kEng));
}

// "The Math of Adjudication", figure 9: a circular movement with a support in it.
TEST(DiplomacyAdjudicator, MathOfAdjudicationFigure9) {
  auto c = run_case({"England: F nwg - nth", "Germany: F ska S F nth - nwy", "Germany: F nth - nwy",
                     "Russia: F nwy - nwg"});
  for (int k = 0; k < 4; ++k) EXPECT_TRUE(c.result.succeeded[k]) << k;
  EXPECT_FALSE(c.result.dislodged.any());
}

// Figure 10: both convoying fleets are dislodged, so the convoyed army cuts nothing.
TEST(DiplomacyAdjudicator, MathOfAdjudicationFigure10) {
  auto c = run_case({"England: A edi - swe", "England: F nth C A edi - swe",
                     "England: F ska C A edi - swe", "Germany: F den - ska",
                     "Germany: F swe S F den - ska", "Russia: F nwg - nth",
                     "Russia: F nwy S F nwg - nth"});
  EXPECT_FALSE(c.result.succeeded[0]);
  for (int k = 3; k < 7; ++k) EXPECT_TRUE(c.result.succeeded[k]) << k;
  EXPECT_TRUE(c.result.dislodged.test(prov("nth")));
  EXPECT_TRUE(c.result.dislodged.test(prov("ska")));
}

// The fall movement phase without dislodgements ends the year: the units take the centres they
// stand on, and the winter is played only when someone has a build or a disband to make.
TEST(DiplomacyAdjudicator, FallWithoutDislodgementsTakesCentres) {
  Case c;
  c.state.phase = Phase{Season::kFall, PhaseType::kMovement, 1901};
  place(c.state, kFra, UnitType::kArmy, *sm().find_location("bur"));
  Order o = *parse_order(sm(), "A bur - bel");
  MovementResult r;
  resolve_movement(sm(), c.state, std::vector<Order>{o}, r);
  EXPECT_TRUE(r.succeeded[0]);
  EXPECT_EQ(r.next.owner[prov("bel")], kFra);
  // One centre, one unit: nothing to adjust, straight to the next spring.
  EXPECT_EQ(r.next.phase, (Phase{Season::kSpring, PhaseType::kMovement, 1902}));
  // Owning Paris as well (empty, a home centre): a build, so the winter is played.
  c.state.owner[prov("par")] = kFra;
  resolve_movement(sm(), c.state, std::vector<Order>{o}, r);
  EXPECT_EQ(r.next.phase, (Phase{Season::kWinter, PhaseType::kAdjustment, 1901}));
}

// Random orders from the opening on: resolution terminates, is repeatable with a reused
// Adjudicator, and the next state is consistent with the outcome.
TEST(DiplomacyAdjudicator, RandomOrdersKeepTheStateConsistent) {
  const Map& m = sm();
  Rng rng(9);
  Adjudicator adj(m);
  State s = initial_state(m);
  MovementResult r, again;
  std::vector<Order> orders;
  int moved = 0, supported = 0, convoyed = 0, dislodged = 0;
  for (int phase = 0; phase < 2000; ++phase) {
    orders.clear();
    int units = 0;
    const auto random_province = [&] {
      return static_cast<ProvinceId>(rng.below(static_cast<std::uint64_t>(m.num_provinces())));
    };
    const auto reaches = [&](const Unit& v, ProvinceId t) {
      return v.type == UnitType::kArmy ? m.army_adjacent(m.province_of(v.location), t)
                                       : m.fleet_reaches(v.location, t);
    };
    // First holds and moves, then supports and convoys of those.
    std::array<Order, kMaxProvinces> chosen{};
    std::array<bool, kMaxProvinces> helper{};
    for (int p = 0; p < m.num_provinces(); ++p) {
      const Unit& u = s.units[p];
      if (!u.exists()) continue;
      ++units;
      Order& o = chosen[p];
      o.location = u.location;
      o.unit = u.type;
      const auto kind = rng.below(10);
      helper[p] = kind >= 6;
      if (kind < 2) continue;  // hold
      o.type = OrderType::kMove;
      ProvinceId t = random_province();
      for (int tries = 0; tries < 40 && !reaches(u, t); ++tries) t = random_province();
      o.target = m.location(t);
      if (m.has_coasts(t) && u.type == UnitType::kFleet)
        for (const LocationId c : m.coasts(t))
          if (m.fleet_adjacent(u.location, c)) o.target = c;
      o.via_convoy = u.type == UnitType::kArmy && rng.below(8) == 0;
    }
    for (int p = 0; p < m.num_provinces(); ++p) {
      const Unit& u = s.units[p];
      if (!u.exists() || !helper[p]) continue;
      Order o = chosen[p];
      const bool convoy =
          u.type == UnitType::kFleet && m.is_sea(static_cast<ProvinceId>(p)) && rng.below(3) == 0;
      for (int tries = 0; tries < 200; ++tries) {
        const ProvinceId q = random_province();
        if (!s.units[q].exists() || q == p) continue;
        const Order& h = chosen[q];
        const bool moves = h.type == OrderType::kMove && !helper[q];
        const ProvinceId t = moves ? m.province_of(h.target) : q;
        if (convoy) {
          if (!moves || h.unit != UnitType::kArmy) continue;
        } else if (t == static_cast<ProvinceId>(p) || !reaches(u, t)) {
          continue;
        }
        o.type = convoy ? OrderType::kConvoy : OrderType::kSupport;
        o.aux = h.location;
        o.aux_unit = h.unit;
        o.target = moves ? m.location(t) : kNoLocation;
        break;
      }
      chosen[p] = o;
    }
    for (int p = 0; p < m.num_provinces(); ++p) {
      const Unit& u = s.units[p];
      if (!u.exists()) continue;
      if (auto e = effective_order(m, s, u.power, chosen[p])) orders.push_back(*e);
    }
    adj.resolve_movement(s, orders, r);
    adj.resolve_movement(s, orders, again);
    ASSERT_EQ(r.next, again.next) << phase;
    ASSERT_EQ(r.dislodged, again.dislodged) << phase;
    int after = 0;
    for (int p = 0; p < m.num_provinces(); ++p) {
      after += r.next.units[p].exists() + r.next.dislodged[p].exists();
      if (r.dislodged.test(p)) {
        ASSERT_TRUE(r.next.dislodged[p].exists()) << phase;
        ASSERT_NE(r.attacker_from[p], static_cast<ProvinceId>(p)) << phase;
        ASSERT_TRUE(r.next.units[p].exists()) << phase;  // its attacker stands there now
      }
      if (r.standoff.test(p)) {
        ASSERT_FALSE(r.next.units[p].exists()) << phase;
      }
    }
    ASSERT_EQ(after, units) << phase;
    for (int k = 0; k < r.num_orders; ++k) {
      const Order& o = r.orders[k];
      supported += o.type == OrderType::kSupport && r.succeeded[k];
      convoyed += o.type == OrderType::kConvoy && r.succeeded[k];
      if (o.type == OrderType::kMove && r.succeeded[k]) {
        ++moved;
        const Unit& there = r.next.units[m.province_of(o.target)];
        ASSERT_EQ(there.location, o.target) << phase;
        ASSERT_EQ(there.power, s.units[m.province_of(o.location)].power) << phase;
      }
    }
    dislodged += static_cast<int>(r.dislodged.count());
    // Go on from the next state: dislodged units disband, the next movement phase follows.
    s = r.next;
    for (int p = 0; p < m.num_provinces(); ++p) s.clear_dislodged(static_cast<ProvinceId>(p));
    if (phase % 25 == 24) s = initial_state(m);  // keep the board crowded
    s.contested.reset();
    s.phase.type = PhaseType::kMovement;
    if (s.phase.season == Season::kWinter) s.phase.season = Season::kSpring;
  }
  std::cerr << "random phases: " << moved << " moves, " << supported << " supports, " << convoyed
            << " convoys succeeded, " << dislodged << " units dislodged\n";
  EXPECT_GT(moved, 5000);
  EXPECT_GT(supported, 2000);
  EXPECT_GT(dislodged, 100);
}

}  // namespace adjudicator_test
}  // namespace kibitz::diplomacy

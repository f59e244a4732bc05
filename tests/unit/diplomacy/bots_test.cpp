// Diplomacy bots: the legal-order enumeration against check_order() on random states (every
// listed order is legal and exactly as check_order() completes it; every legal order of a
// brute-force candidate set is listed), the map distances, and the bots' orders.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

#include "core/rng.hpp"
#include "games/diplomacy/bots.hpp"
#include "games/diplomacy/map.hpp"
#include "games/diplomacy/orders.hpp"
#include "games/diplomacy/state.hpp"

namespace kibitz::diplomacy {
namespace bots_test {

const Map& sm() { return standard_map(); }

ProvinceId prov(const char* name) { return *sm().find_province(name); }
LocationId loc(const char* name) { return *sm().find_location(name); }

// A random position: about a third of the provinces hold a unit of a random power (fleets at
// sea, armies inland, either on coasts), random centre owners; in a retreat phase some units
// are dislodged (from a neighbouring attacker) and some empty provinces are contested.
State random_state(Rng& rng, PhaseType type) {
  const Map& m = sm();
  State s;
  s.phase.type = type;
  s.phase.year = 1905;
  s.phase.season = type == PhaseType::kAdjustment ? Season::kWinter
                   : rng.below(2)                 ? Season::kFall
                                                  : Season::kSpring;
  const auto np = static_cast<std::uint64_t>(m.num_powers());
  for (int p0 = 0; p0 < m.num_provinces(); ++p0) {
    const auto p = static_cast<ProvinceId>(p0);
    if (m.is_supply_centre(p) && rng.below(4) != 0)
      s.owner[p] = static_cast<PowerId>(rng.below(np));
    if (rng.below(3) != 0) continue;
    Unit u;
    u.power = static_cast<PowerId>(rng.below(np));
    u.type = m.is_sea(p)    ? UnitType::kFleet
             : m.is_land(p) ? UnitType::kArmy
                            : (rng.below(2) ? UnitType::kFleet : UnitType::kArmy);
    u.location = m.location(p);
    if (u.type == UnitType::kFleet && m.has_coasts(p))
      u.location = m.coasts(p)[rng.below(m.coasts(p).size())];
    s.units[p] = u;
  }
  if (type == PhaseType::kRetreat) {
    for (int p0 = 0; p0 < m.num_provinces(); ++p0) {
      const auto p = static_cast<ProvinceId>(p0);
      if (!s.units[p].exists() || rng.below(4) != 0) continue;
      const Unit u = s.units[p];
      std::vector<ProvinceId> from;
      for (int q = 0; q < m.num_provinces(); ++q)
        if (m.army_adjacent(p, static_cast<ProvinceId>(q)) ||
            m.fleet_reaches(m.location(static_cast<ProvinceId>(q)), p))
          from.push_back(static_cast<ProvinceId>(q));
      s.dislodge(p, from[rng.below(from.size())]);
      // Usually the attacker now stands where the unit was.
      if (rng.below(3) != 0)
        s.units[p] = Unit{UnitType::kArmy, static_cast<PowerId>((u.power + 1) % np), m.location(p)};
      if (m.is_sea(p)) s.units[p] = Unit{};
    }
    for (int p = 0; p < m.num_provinces(); ++p)
      if (!s.units[p].exists() && rng.below(8) == 0) s.contested.set(p);
  }
  return s;
}

std::vector<Order> enumerate(const OrderGenerator& gen, ProvinceId p) {
  std::vector<Order> out;
  gen.unit_orders(p, out);
  return out;
}

auto key(const Order& o) {
  return std::make_tuple(o.type, o.power, o.unit, o.location, o.aux_unit, o.aux, o.target,
                         o.via_convoy);
}

// The fleet chain of test: sea provinces holding fleets connected to `fleet` by fleet edges.
ProvinceSet chain_of(const State& s, ProvinceId fleet) {
  const Map& m = sm();
  ProvinceSet seen;
  std::vector<ProvinceId> todo{fleet};
  seen.set(fleet);
  while (!todo.empty()) {
    const ProvinceId q = todo.back();
    todo.pop_back();
    for (int r = 0; r < m.num_provinces(); ++r)
      if (!seen.test(r) && m.is_sea(static_cast<ProvinceId>(r)) && s.units[r].exists() &&
          s.units[r].type == UnitType::kFleet && m.fleet_reaches(q, static_cast<ProvinceId>(r))) {
        seen.set(r);
        todo.push_back(static_cast<ProvinceId>(r));
      }
  }
  return seen;
}

bool chain_touches(const ProvinceSet& chain, ProvinceId c) {
  for (int q = 0; q < sm().num_provinces(); ++q)
    if (chain.test(q) && sm().fleet_reaches(static_cast<LocationId>(q), c)) return true;
  return false;
}

// Whether the unit at q may move (without VIA) to some location of province t.
bool can_move(const State& s, ProvinceId q, ProvinceId t) {
  const Map& m = sm();
  const Unit& u = s.units[q];
  Order mv;
  mv.type = OrderType::kMove;
  mv.location = u.location;
  std::vector<LocationId> targets{m.location(t)};
  for (const LocationId c : m.coasts(t)) targets.push_back(c);
  for (const LocationId l : targets) {
    mv.target = l;
    if (check_order(m, s, u.power, mv)) return true;
  }
  return false;
}

TEST(DiplomacyOrderGenerator, MovementOrdersAreExactlyTheLegalOnes) {
  const Map& m = sm();
  Rng rng(11);
  OrderGenerator gen(m);
  int checked = 0, convoys = 0, convoy_moves = 0;
  for (int iter = 0; iter < 60; ++iter) {
    const State s = random_state(rng, PhaseType::kMovement);
    gen.set_state(s);
    for (int p0 = 0; p0 < m.num_provinces(); ++p0) {
      const auto p = static_cast<ProvinceId>(p0);
      const Unit& u = s.units[p];
      if (!u.exists()) continue;
      const auto listed = enumerate(gen, p);
      // count_unit_orders() / unit_order() agree with the list, order by order.
      ASSERT_EQ(gen.count_unit_orders(p), listed.size());
      for (std::size_t k = 0; k < listed.size(); ++k)
        ASSERT_EQ(key(gen.unit_order(p, k)), key(listed[k]))
            << k << ": " << format_order(m, listed[k]);
      std::set<decltype(key(Order{}))> keys;
      for (const Order& o : listed) {
        const auto r = check_order(m, s, u.power, o);
        ASSERT_TRUE(r) << format_order(m, o) << ": " << r.error().message;
        EXPECT_EQ(key(*r), key(o)) << format_order(m, o) << " completes to " << format_order(m, *r);
        EXPECT_TRUE(keys.insert(key(o)).second) << "listed twice: " << format_order(m, o);
        convoys += o.type == OrderType::kConvoy;
        convoy_moves += o.type == OrderType::kMove && u.type == UnitType::kArmy &&
                        !m.army_adjacent(p, m.province_of(o.target));
      }
      // Brute force: hold, a move to every location, supports of every unit to hold or to
      // move to every province, convoys of every army to every province.
      std::vector<Order> candidates;
      Order o;
      o.location = u.location;
      candidates.push_back(o);
      o.type = OrderType::kMove;
      for (int l = 0; l < m.num_locations(); ++l) {
        o.target = static_cast<LocationId>(l);
        candidates.push_back(o);
      }
      for (int q = 0; q < m.num_provinces(); ++q) {
        if (!s.units[q].exists()) continue;
        Order sup;
        sup.type = OrderType::kSupport;
        sup.location = u.location;
        sup.aux = m.location(static_cast<ProvinceId>(q));
        candidates.push_back(sup);
        for (int t = 0; t < m.num_provinces(); ++t) {
          sup.target = m.location(static_cast<ProvinceId>(t));
          if (can_move(s, static_cast<ProvinceId>(q), static_cast<ProvinceId>(t)))
            candidates.push_back(sup);
        }
        if (u.type != UnitType::kFleet || s.units[q].type != UnitType::kArmy) continue;
        const ProvinceSet chain = chain_of(s, p);
        if (!chain_touches(chain, static_cast<ProvinceId>(q))) continue;
        Order con = sup;
        con.type = OrderType::kConvoy;
        for (int t = 0; t < m.num_provinces(); ++t) {
          if (!chain_touches(chain, static_cast<ProvinceId>(t))) continue;
          con.target = m.location(static_cast<ProvinceId>(t));
          candidates.push_back(con);
        }
      }
      for (const Order& c : candidates) {
        const auto r = check_order(m, s, u.power, c);
        if (!r) continue;
        ++checked;
        EXPECT_TRUE(keys.count(key(*r))) << "legal but not listed: " << format_order(m, *r);
      }
    }
  }
  EXPECT_GT(checked, 10000);
  EXPECT_GT(convoys, 50);
  EXPECT_GT(convoy_moves, 20);
}

TEST(DiplomacyOrderGenerator, RetreatOrdersAreExactlyTheLegalOnes) {
  const Map& m = sm();
  Rng rng(12);
  OrderGenerator gen(m);
  int dislodged = 0;
  for (int iter = 0; iter < 100; ++iter) {
    const State s = random_state(rng, PhaseType::kRetreat);
    gen.set_state(s);
    for (int p0 = 0; p0 < m.num_provinces(); ++p0) {
      const auto p = static_cast<ProvinceId>(p0);
      const Unit& u = s.dislodged[p];
      const auto listed = enumerate(gen, p);
      if (!u.exists()) {
        EXPECT_TRUE(listed.empty());
        continue;
      }
      ++dislodged;
      ASSERT_EQ(gen.count_unit_orders(p), listed.size());
      for (std::size_t k = 0; k < listed.size(); ++k)
        EXPECT_EQ(key(gen.unit_order(p, k)), key(listed[k]));
      std::set<decltype(key(Order{}))> keys;
      for (const Order& o : listed) {
        const auto r = check_order(m, s, u.power, o);
        ASSERT_TRUE(r) << format_order(m, o) << ": " << r.error().message;
        EXPECT_EQ(key(*r), key(o));
        EXPECT_TRUE(keys.insert(key(o)).second);
      }
      Order c;
      c.location = u.location;
      c.type = OrderType::kDisband;
      std::vector<Order> candidates{c};
      c.type = OrderType::kRetreat;
      for (int l = 0; l < m.num_locations(); ++l) {
        c.target = static_cast<LocationId>(l);
        candidates.push_back(c);
      }
      for (const Order& cand : candidates)
        if (const auto r = check_order(m, s, u.power, cand)) {
          EXPECT_TRUE(keys.count(key(*r))) << "legal but not listed: " << format_order(m, *r);
        }
    }
  }
  EXPECT_GT(dislodged, 300);
}

TEST(DiplomacyOrderGenerator, AdjustmentOrdersAreExactlyTheLegalOnes) {
  const Map& m = sm();
  Rng rng(13);
  OrderGenerator gen(m);
  int builds = 0, disbands = 0;
  for (int iter = 0; iter < 200; ++iter) {
    State s = random_state(rng, PhaseType::kAdjustment);
    // Fewer units, so that some powers have builds.
    for (int p = 0; p < m.num_provinces(); ++p)
      if (rng.below(2)) s.units[p] = Unit{};
    gen.set_state(s);
    for (int pw = 0; pw < m.num_powers(); ++pw) {
      const auto power = static_cast<PowerId>(pw);
      std::vector<Order> listed;
      gen.adjustment_orders(power, listed);
      std::set<decltype(key(Order{}))> keys;
      for (const Order& o : listed) {
        const auto r = check_order(m, s, power, o);
        ASSERT_TRUE(r) << format_order(m, o) << ": " << r.error().message;
        EXPECT_EQ(key(*r), key(o));
        EXPECT_TRUE(keys.insert(key(o)).second);
        builds += o.type == OrderType::kBuild;
        disbands += o.type == OrderType::kDisband;
      }
      std::vector<Order> candidates;
      Order w;
      w.type = OrderType::kWaive;
      candidates.push_back(w);
      for (int l = 0; l < m.num_locations(); ++l)
        for (const UnitType t : {UnitType::kArmy, UnitType::kFleet}) {
          Order b;
          b.type = OrderType::kBuild;
          b.unit = t;
          b.location = static_cast<LocationId>(l);
          candidates.push_back(b);
          b.type = OrderType::kDisband;
          candidates.push_back(b);
        }
      for (const Order& c : candidates)
        if (const auto r = check_order(m, s, power, c)) {
          EXPECT_TRUE(keys.count(key(*r))) << "legal but not listed: " << format_order(m, *r);
        }
    }
  }
  EXPECT_GT(builds, 100);
  EXPECT_GT(disbands, 100);
}

TEST(DiplomacyOrderGenerator, OpeningPosition) {
  const Map& m = sm();
  const State s = initial_state(m);
  std::vector<Order> out;
  legal_orders(m, s, loc("par"), out);
  // A PAR: hold, 4 moves (bre bur gas pic), supports: hold of bre (F), move into bur (mun),
  // bre (none can), gas (mar), pic (bre).
  std::vector<std::string> text;
  for (const Order& o : out) text.push_back(format_order(m, o));
  const std::vector<std::string> want = {"A PAR H",
                                         "A PAR - BRE",
                                         "A PAR - BUR",
                                         "A PAR - GAS",
                                         "A PAR - PIC",
                                         "A PAR S F BRE",
                                         "A PAR S F BRE - PIC",
                                         "A PAR S A MAR - BUR",
                                         "A PAR S A MUN - BUR",
                                         "A PAR S A MAR - GAS",
                                         "A PAR S F BRE - GAS"};
  std::sort(text.begin(), text.end());
  auto sorted = want;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(text, sorted);
  out.clear();
  legal_orders(m, s, loc("stp/sc"), out);
  EXPECT_EQ(format_order(m, out[0]), "F STP/SC H");
}

TEST(DiplomacyMapDistances, ArmyAndFleet) {
  const Map& m = sm();
  const MapDistances d(m);
  EXPECT_EQ(d.army(prov("par"), prov("par")), 0);
  EXPECT_EQ(d.army(prov("par"), prov("mun")), 2);
  EXPECT_EQ(d.army(prov("lon"), prov("par")), MapDistances::kFar);  // an island for armies
  EXPECT_EQ(d.fleet(loc("lon"), prov("nth")), 1);
  EXPECT_EQ(d.fleet(loc("lon"), prov("bre")), 2);
  EXPECT_EQ(d.fleet(loc("stp/sc"), prov("bot")), 1);
  EXPECT_EQ(d.fleet(loc("lon"), prov("mun")), MapDistances::kFar);
  EXPECT_EQ(d.fleet(loc("mar"), prov("spa")), 1);  // spa/sc
}

void expect_orders_legal(Bot& bot, int states, std::uint64_t seed) {
  const Map& m = sm();
  Rng rng(seed);
  for (int iter = 0; iter < states; ++iter) {
    const PhaseType type = static_cast<PhaseType>(iter % 3);
    State s = random_state(rng, type);
    if (type == PhaseType::kAdjustment)
      for (int p = 0; p < m.num_provinces(); ++p)
        if (rng.below(2)) s.units[p] = Unit{};
    for (int pw = 0; pw < m.num_powers(); ++pw) {
      const auto power = static_cast<PowerId>(pw);
      std::vector<Order> out;
      bot.orders(s, power, rng, out);
      ProvinceSet ordered, entered;
      int builds = 0;
      for (const Order& o : out) {
        const auto r = check_order(m, s, power, o);
        ASSERT_TRUE(r) << bot.name() << " " << phase_code(s.phase) << " " << m.power_name(power)
                       << ": " << format_order(m, o) << ": " << r.error().message;
        EXPECT_EQ(key(*r), key(o));
        if (o.type == OrderType::kWaive || o.type == OrderType::kBuild) {
          ++builds;
          if (o.type == OrderType::kWaive) continue;
        }
        const ProvinceId p = m.province_of(o.location);
        EXPECT_FALSE(ordered.test(p)) << "two orders for " << m.abbr(p);
        ordered.set(p);
      }
      const int count = count_centres(m, s, power) - count_units(m, s, power);
      int expected = 0;
      for (int p = 0; p < m.num_provinces(); ++p) {
        if (type == PhaseType::kMovement) expected += s.units[p].power == power;
        if (type == PhaseType::kRetreat) expected += s.dislodged[p].power == power;
      }
      if (type == PhaseType::kAdjustment) {
        EXPECT_EQ(static_cast<int>(out.size()), std::abs(count)) << bot.name();
        if (count > 0) {
          EXPECT_EQ(builds, count);
        }
      } else {
        EXPECT_EQ(static_cast<int>(out.size()), expected) << bot.name();
      }
    }
  }
}

TEST(DiplomacyBots, RandomBotGivesLegalOrders) {
  RandomBot bot(sm());
  expect_orders_legal(bot, 300, 21);
}

TEST(DiplomacyBots, HeuristicBotGivesLegalOrders) {
  HeuristicBot bot(sm());
  expect_orders_legal(bot, 300, 22);
}

TEST(DiplomacyBots, HeuristicNeverMovesTwoUnitsIntoOneProvince) {
  const Map& m = sm();
  HeuristicBot bot(m);
  Rng rng(23);
  for (int iter = 0; iter < 300; ++iter) {
    const State s = random_state(rng, PhaseType::kMovement);
    for (int pw = 0; pw < m.num_powers(); ++pw) {
      std::vector<Order> out;
      bot.orders(s, static_cast<PowerId>(pw), rng, out);
      ProvinceSet into, staying;
      for (const Order& o : out) {
        if (o.type == OrderType::kMove) {
          const ProvinceId t = m.province_of(o.target);
          EXPECT_FALSE(into.test(t)) << "two moves into " << m.abbr(t);
          into.set(t);
        } else {
          staying.set(m.province_of(o.location));
        }
      }
      EXPECT_TRUE((into & staying).none()) << "a move into a staying own unit";
    }
  }
}

TEST(DiplomacyBots, HeuristicOpeningTakesNeutralsAndBuildsInHomes) {
  const Map& m = sm();
  HeuristicBot bot(m);
  Rng rng(5);
  State s = initial_state(m);
  std::vector<Order> out;
  bot.orders(s, *m.find_power("France"), rng, out);
  ASSERT_EQ(out.size(), 3u);
  int moves = 0;
  for (const Order& o : out) moves += o.type == OrderType::kMove;
  EXPECT_GE(moves, 2);
  // A winter with two builds and all homes free: two builds in home centres.
  s.phase = {Season::kWinter, PhaseType::kAdjustment, 1901};
  for (int p = 0; p < m.num_provinces(); ++p)
    if (s.units[p].power == *m.find_power("France")) s.units[p] = Unit{};
  s.units[prov("spa")] = Unit{UnitType::kArmy, *m.find_power("France"), loc("spa")};
  s.owner[prov("spa")] = *m.find_power("France");
  s.owner[prov("por")] = *m.find_power("France");
  out.clear();
  bot.orders(s, *m.find_power("France"), rng, out);
  // 5 centres, 1 unit: 4 builds, only 3 free homes: 3 builds and a waive.
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[3].type, OrderType::kWaive);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(out[i].type, OrderType::kBuild);
}

TEST(DiplomacyBots, DeterministicGivenTheSeed) {
  const Map& m = sm();
  for (const auto name : bot_names()) {
    auto a = make_bot(name, m), b = make_bot(name, m);
    ASSERT_TRUE(a && b);
    Rng r1(99), r2(99), states(4);
    for (int i = 0; i < 50; ++i) {
      const State s = random_state(states, static_cast<PhaseType>(i % 3));
      std::vector<Order> o1, o2;
      for (int pw = 0; pw < m.num_powers(); ++pw) {
        a->orders(s, static_cast<PowerId>(pw), r1, o1);
        b->orders(s, static_cast<PowerId>(pw), r2, o2);
      }
      EXPECT_EQ(o1, o2);
    }
  }
  EXPECT_EQ(make_bot("nonesuch", m), nullptr);
}

}  // namespace bots_test
}  // namespace kibitz::diplomacy

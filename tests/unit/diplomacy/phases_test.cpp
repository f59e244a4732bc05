// The retreat and adjustment phases, the winter ownership update and the end of the game. The
// cases are DATC v3.1 chapter 6.H (retreats), 6.I (builds) and 6.J (civil disorder and
// disbands), written in our notation with the outcome the DATC text gives.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "games/diplomacy/adjudicator.hpp"
#include "games/diplomacy/phases.hpp"

namespace kibitz::diplomacy {
namespace phases_test {

const Map& sm() { return standard_map(); }
ProvinceId prov(const char* name) { return *sm().find_province(name); }
PowerId power(const char* name) { return *sm().find_power(name); }

// "Russia: F stp/sc" onto the board.
void put(State& s, const std::string& text) {
  const auto colon = text.find(':');
  const auto o = parse_order(sm(), text.substr(colon + 1) + " H");
  ASSERT_TRUE(o) << text;
  s.place(Unit{o->unit, power(text.substr(0, colon).c_str()), o->location}, sm());
}

void own(State& s, const char* power_name, std::initializer_list<const char*> centres) {
  for (const char* c : centres) s.owner[prov(c)] = power(power_name);
}

// The effective orders of "Power: order" lines in state s (illegal ones dropped, as the game
// loop does), parsed for the phase s is in.
std::vector<Order> effective(const State& s, const std::vector<std::string>& lines) {
  std::vector<Order> out;
  for (const auto& text : lines) {
    const auto colon = text.find(':');
    const auto o = parse_order(sm(), text.substr(colon + 1), s.phase.type);
    EXPECT_TRUE(o) << text;
    if (!o) continue;
    if (auto e = effective_order(sm(), s, power(text.substr(0, colon).c_str()), *o))
      out.push_back(*e);
  }
  return out;
}

bool has(const State& s, const char* where, const char* power_name, UnitType type) {
  const Unit& u = s.units[prov(where)];
  return u.exists() && u.power == power(power_name) && u.type == type;
}

// A movement phase followed by its retreat phase.
struct Retreat {
  State before;
  MovementResult moved;
  RetreatResult retreated;
  void run(const std::vector<std::string>& units, const std::vector<std::string>& moves,
           const std::vector<std::string>& retreats, Season season = Season::kSpring) {
    before.phase = Phase{season, PhaseType::kMovement, 1901};
    for (const auto& u : units) put(before, u);
    resolve_movement(sm(), before, effective(before, moves), moved);
    ASSERT_EQ(moved.next.phase.type, PhaseType::kRetreat);
    resolve_retreats(sm(), moved.next, effective(moved.next, retreats), retreated);
  }
};

// 6.H.4-style: a plain retreat succeeds and the spring goes on to the fall.
TEST(DiplomacyRetreat, RetreatToAFreeProvince) {
  Retreat r;
  r.run({"England: F nth", "England: A hol", "Germany: F kie", "Germany: A ruh"},
        {"Germany: F kie S A ruh - hol", "Germany: A ruh - hol"}, {"England: A hol - bel"});
  EXPECT_TRUE(r.retreated.succeeded[0]);
  EXPECT_TRUE(has(r.retreated.next, "bel", "England", UnitType::kArmy));
  EXPECT_TRUE(has(r.retreated.next, "hol", "Germany", UnitType::kArmy));
  EXPECT_FALSE(r.retreated.next.dislodged[prov("hol")].exists());
  EXPECT_EQ(r.retreated.next.phase, (Phase{Season::kFall, PhaseType::kMovement, 1901}));
}

// 6.H.5: a unit may not retreat to the area from which it is attacked (it is disbanded).
TEST(DiplomacyRetreat, NotToTheAttackersArea) {
  Retreat r;
  r.run({"Russia: F con", "Russia: F bla", "Turkey: F ank"},
        {"Russia: F con S F bla - ank", "Russia: F bla - ank", "Turkey: F ank H"},
        {"Turkey: F ank - bla"});
  EXPECT_EQ(r.moved.next.attacker_from[prov("ank")], prov("bla"));
  EXPECT_TRUE(r.retreated.disbanded.test(prov("ank")));
  EXPECT_TRUE(has(r.retreated.next, "ank", "Russia", UnitType::kFleet));
  EXPECT_FALSE(r.retreated.next.units[prov("bla")].exists());
}

// 6.H.6: a unit may not retreat to a province left empty by a standoff.
TEST(DiplomacyRetreat, NotToAStandoffProvince) {
  Retreat r;
  r.run({"Austria: A bud", "Austria: A tri", "Germany: A mun", "Germany: A sil", "Italy: A vie"},
        {"Austria: A bud S A tri - vie", "Austria: A tri - vie", "Germany: A mun - boh",
         "Germany: A sil - boh", "Italy: A vie H"},
        {"Italy: A vie - boh"});
  EXPECT_TRUE(r.moved.next.contested.test(prov("boh")));
  EXPECT_TRUE(r.retreated.disbanded.test(prov("vie")));
  EXPECT_FALSE(r.retreated.next.units[prov("boh")].exists());
}

// 6.H.7: two retreats to one province: both units are disbanded.
TEST(DiplomacyRetreat, TwoRetreatsToOneProvinceDisbandBoth) {
  Retreat r;
  r.run({"Austria: A bud", "Austria: A tri", "Germany: A mun", "Germany: A sil", "Italy: A vie",
         "Italy: A boh"},
        {"Austria: A bud S A tri - vie", "Austria: A tri - vie", "Germany: A mun S A sil - boh",
         "Germany: A sil - boh", "Italy: A vie H", "Italy: A boh H"},
        {"Italy: A boh - tyr", "Italy: A vie - tyr"});
  EXPECT_FALSE(r.retreated.succeeded[0]);
  EXPECT_FALSE(r.retreated.succeeded[1]);
  EXPECT_TRUE(r.retreated.disbanded.test(prov("boh")));
  EXPECT_TRUE(r.retreated.disbanded.test(prov("vie")));
  EXPECT_FALSE(r.retreated.next.units[prov("tyr")].exists());
}

// 6.H.8: three retreats to one province: all three are disbanded.
TEST(DiplomacyRetreat, ThreeRetreatsToOneProvinceDisbandAll) {
  Retreat r;
  r.run({"England: A lvp", "England: F yor", "England: F nwy", "Germany: A kie", "Germany: A ruh",
         "Russia: F edi", "Russia: A swe", "Russia: A fin", "Russia: F hol"},
        {"England: A lvp - edi", "England: F yor S A lvp - edi", "England: F nwy H",
         "Germany: A kie S A ruh - hol", "Germany: A ruh - hol", "Russia: F edi H",
         "Russia: A swe S A fin - nwy", "Russia: A fin - nwy", "Russia: F hol H"},
        {"England: F nwy - nth", "Russia: F edi - nth", "Russia: F hol - nth"});
  for (int k = 0; k < 3; ++k) EXPECT_FALSE(r.retreated.succeeded[k]) << k;
  EXPECT_EQ(r.retreated.disbanded.count(), 3u);
  EXPECT_FALSE(r.retreated.next.units[prov("nth")].exists());
}

// A dislodged unit without an order is disbanded; an ordered disband succeeds.
TEST(DiplomacyRetreat, NoOrderMeansDisband) {
  Retreat r;
  r.run({"England: F nth", "England: A hol", "Germany: F kie", "Germany: A ruh"},
        {"Germany: F kie S A ruh - hol", "Germany: A ruh - hol"}, {});
  EXPECT_TRUE(r.retreated.disbanded.test(prov("hol")));
  EXPECT_EQ(count_units(sm(), r.retreated.next, power("England")), 1);
  r.run({"England: F nth", "England: A hol", "Germany: F kie", "Germany: A ruh"},
        {"Germany: F kie S A ruh - hol", "Germany: A ruh - hol"}, {"England: A hol D"});
  EXPECT_TRUE(r.retreated.succeeded[0]);
}

// 6.H.11 (2023 rules, DATC 4.A.5): a unit dislodged by a convoyed army may retreat to the
// province the army came from.
TEST(DiplomacyRetreat, DislodgedByConvoyMayRetreatToTheArmysOrigin) {
  State s;
  s.phase = Phase{Season::kSpring, PhaseType::kMovement, 1901};
  put(s, "England: F nth");
  put(s, "England: A bel");
  put(s, "France: F eng");
  put(s, "France: A pic");
  put(s, "France: A bur");
  put(s, "Germany: A hol");
  MovementResult moved;
  resolve_movement(sm(), s,
                   effective(s, {"France: F eng C A pic - bel", "France: A pic - bel VIA",
                                 "France: A bur S A pic - bel", "England: A bel H"}),
                   moved);
  ASSERT_TRUE(moved.dislodged.test(prov("bel")));
  EXPECT_EQ(moved.next.attacker_from[prov("bel")], kNoProvince);
  RetreatResult rr;
  resolve_retreats(sm(), moved.next, effective(moved.next, {"England: A bel - pic"}), rr);
  EXPECT_TRUE(rr.succeeded[0]);
  EXPECT_TRUE(has(rr.next, "pic", "England", UnitType::kArmy));
}

// After a fall retreat the year ends: centres change hands, then the winter (or the spring).
TEST(DiplomacyRetreat, FallRetreatEndsTheYear) {
  Retreat r;
  r.run({"England: F nth", "England: A hol", "Germany: F kie", "Germany: A ruh"},
        {"Germany: F kie S A ruh - hol", "Germany: A ruh - hol"}, {"England: A hol - bel"},
        Season::kFall);
  const State& n = r.retreated.next;
  EXPECT_EQ(n.owner[prov("hol")], power("Germany"));
  EXPECT_EQ(n.owner[prov("bel")], power("England"));
  // England: one centre (bel), two units: a disband to make, so the winter is played.
  EXPECT_EQ(n.phase, (Phase{Season::kWinter, PhaseType::kAdjustment, 1901}));
  EXPECT_EQ(adjustment_count(sm(), n, power("England")), -1);
  EXPECT_EQ(adjustment_count(sm(), n, power("Germany")), 0);  // kie and hol, two units
}

// An adjustment phase on a board with the given owners.
struct Adjust {
  State s;
  AdjustmentResult r;
  Adjust() { s.phase = Phase{Season::kWinter, PhaseType::kAdjustment, 1901}; }
  // Orders straight to the resolver (it checks them itself), parsed as written.
  void run_raw(const std::vector<std::string>& lines) {
    std::vector<Order> orders;
    for (const auto& text : lines) {
      const auto colon = text.find(':');
      auto o = parse_order(sm(), text.substr(colon + 1), PhaseType::kAdjustment);
      EXPECT_TRUE(o) << text;
      if (!o) continue;
      o->power = power(text.substr(0, colon).c_str());
      orders.push_back(*o);
    }
    resolve_adjustments(sm(), s, orders, r);
  }
};

// 6.I.1: too many build orders: Germany may build one; war is not a German home centre, so
// the build in kie succeeds and the one in mun fails.
TEST(DiplomacyAdjustment, TooManyBuilds) {
  Adjust a;
  own(a.s, "Germany", {"ber", "kie", "mun", "war"});
  put(a.s, "Germany: A ber");
  put(a.s, "Germany: F den");
  put(a.s, "Germany: A ruh");
  a.run_raw({"Germany: A war B", "Germany: A kie B", "Germany: A mun B"});
  EXPECT_FALSE(a.r.succeeded[0]);
  EXPECT_TRUE(a.r.succeeded[1]);
  EXPECT_FALSE(a.r.succeeded[2]);
  EXPECT_TRUE(has(a.r.next, "kie", "Germany", UnitType::kArmy));
  EXPECT_FALSE(a.r.next.units[prov("mun")].exists());
  EXPECT_EQ(a.r.next.phase, (Phase{Season::kSpring, PhaseType::kMovement, 1902}));
}

// 6.I.2-6.I.7: fleets not on land, centre empty (both coasts), owned, home, one build each.
TEST(DiplomacyAdjustment, BuildRules) {
  {
    Adjust a;  // 6.I.2
    own(a.s, "Russia", {"mos", "stp", "war", "sev", "swe"});
    a.run_raw({"Russia: F mos B"});
    EXPECT_FALSE(a.r.succeeded[0]);
  }
  {
    Adjust a;  // 6.I.3
    own(a.s, "Germany", {"ber", "kie", "mun", "den"});
    put(a.s, "Germany: A ber");
    a.run_raw({"Germany: A ber B"});
    EXPECT_FALSE(a.r.succeeded[0]);
  }
  {
    Adjust a;  // 6.I.4
    own(a.s, "Russia", {"mos", "stp", "war", "sev", "swe"});
    put(a.s, "Russia: F stp/sc");
    a.run_raw({"Russia: A stp B"});
    EXPECT_FALSE(a.r.succeeded[0]);
  }
  {
    Adjust a;  // 6.I.5: a home centre owned by someone else
    own(a.s, "Germany", {"ber", "kie", "mun", "den", "war", "hol"});
    own(a.s, "Russia", {"mos", "stp", "sev", "swe"});
    a.run_raw({"Russia: A war B"});
    EXPECT_FALSE(a.r.succeeded[0]);
  }
  {
    Adjust a;  // 6.I.6: an owned centre that is not a home centre
    own(a.s, "Germany", {"ber", "kie", "mun", "war"});
    a.run_raw({"Germany: A war B"});
    EXPECT_FALSE(a.r.succeeded[0]);
  }
  {
    Adjust a;  // 6.I.7: only one build in a home centre
    own(a.s, "Russia", {"mos", "stp", "war", "sev"});
    a.run_raw({"Russia: A mos B", "Russia: A mos B"});
    EXPECT_TRUE(a.r.succeeded[0]);
    EXPECT_FALSE(a.r.succeeded[1]);
    EXPECT_EQ(count_units(sm(), a.r.next, power("Russia")), 1);
  }
  {
    Adjust a;  // a fleet in a split-coast home centre names its coast
    own(a.s, "Russia", {"mos", "stp", "war", "sev"});
    a.run_raw({"Russia: F stp/nc B", "Russia: F sev B", "Russia: WAIVE"});
    EXPECT_TRUE(a.r.succeeded[0]);
    EXPECT_TRUE(a.r.succeeded[1]);
    EXPECT_TRUE(a.r.succeeded[2]);
    EXPECT_EQ(a.r.next.units[prov("stp")].location, *sm().find_location("stp/nc"));
  }
}

// 6.J.1: disbands are taken one by one: the first legal one counts, the rest fail.
TEST(DiplomacyAdjustment, TooManyDisbands) {
  Adjust a;
  own(a.s, "France", {"par"});
  put(a.s, "France: A par");
  put(a.s, "France: A pic");
  a.run_raw({"France: F lyo D", "France: A pic D", "France: A par D"});
  EXPECT_FALSE(a.r.succeeded[0]);
  EXPECT_TRUE(a.r.succeeded[1]);
  EXPECT_FALSE(a.r.succeeded[2]);
  EXPECT_TRUE(has(a.r.next, "par", "France", UnitType::kArmy));
  EXPECT_FALSE(a.r.next.units[prov("pic")].exists());
  EXPECT_FALSE(a.r.civil_disorder.any());
}

// 6.J.2: removing the same unit twice: the other unit goes by civil disorder.
TEST(DiplomacyAdjustment, RemovingTheSameUnitTwice) {
  Adjust a;
  own(a.s, "France", {"par"});
  put(a.s, "France: A par");
  put(a.s, "France: A pic");
  put(a.s, "France: A bur");
  a.run_raw({"France: A par D", "France: A par D"});
  EXPECT_TRUE(a.r.succeeded[0]);
  EXPECT_FALSE(a.r.succeeded[1]);
  EXPECT_EQ(a.r.civil_disorder.count(), 1u);
  EXPECT_EQ(count_units(sm(), a.r.next, power("France")), 1);
}

// 6.J.3-6.J.11: which units civil disorder removes.
struct Disorder {
  const char* id;
  const char* power;
  std::vector<const char*> owned;
  std::vector<std::string> units;
  std::vector<const char*> removed;
};

TEST(DiplomacyAdjustment, CivilDisorderOrder) {
  const std::vector<Disorder> cases = {
      {"6.J.3", "Russia", {"stp"}, {"Russia: A lvn", "Russia: A pru"}, {"pru"}},
      {"6.J.4", "Russia", {"mos"}, {"Russia: A lvn", "Russia: A ukr"}, {"lvn"}},
      {"6.J.5", "Russia", {"stp"}, {"Russia: F ska", "Russia: F nao"}, {"nao"}},
      {"6.J.6", "Russia", {"mun"}, {"Russia: F bot", "Russia: F nth"}, {"bot"}},
      {"6.J.7",
       "Russia",
       {"stp", "war"},
       {"Russia: A boh", "Russia: F ska", "Russia: F nth"},
       {"nth"}},
      {"6.J.8", "Russia", {"war"}, {"Russia: A tyr", "Russia: F bal"}, {"tyr"}},
      {"6.J.9a",
       "Russia",
       {"stp", "sev"},
       {"Russia: A alb", "Russia: A sev", "Russia: F bal"},
       {"alb"}},
      {"6.J.9b",
       "Russia",
       {"stp", "sev"},
       {"Russia: A alb", "Russia: A sev", "Russia: F ska"},
       {"alb"}},
      {"6.J.10", "Italy", {"nap"}, {"Italy: A alb", "Italy: A pie"}, {"pie"}},
      {"6.J.11", "Italy", {"war"}, {"Italy: A war", "Italy: A tus"}, {"tus"}},
  };
  for (const auto& c : cases) {
    Adjust a;
    for (const char* o : c.owned) a.s.owner[prov(o)] = power(c.power);
    for (const auto& u : c.units) put(a.s, u);
    a.run_raw({});
    ProvinceSet want;
    for (const char* r : c.removed) want.set(prov(r));
    EXPECT_EQ(a.r.civil_disorder, want) << c.id;
    EXPECT_EQ(count_units(sm(), a.r.next, power(c.power)), static_cast<int>(c.owned.size()))
        << c.id;
  }
}

// A power that lost every centre loses every unit.
TEST(DiplomacyAdjustment, NoCentresNoUnits) {
  Adjust a;
  own(a.s, "Turkey", {"ank", "con", "smy"});
  put(a.s, "Austria: A gal");
  put(a.s, "Austria: F alb");
  put(a.s, "Turkey: A con");
  a.run_raw({});
  EXPECT_EQ(count_units(sm(), a.r.next, power("Austria")), 0);
  EXPECT_EQ(a.r.civil_disorder.count(), 2u);
  EXPECT_EQ(powers_alive(sm(), a.r.next), 1);
}

// Victory needs more than half the centres (18 of 34); powers without centres and units are
// out.
TEST(DiplomacyGameEnd, SoloAtEighteenCentres) {
  State s = initial_state(sm());
  EXPECT_FALSE(solo_winner(sm(), s));
  EXPECT_EQ(powers_alive(sm(), s), 7);
  const PowerId fra = power("France");
  int owned = count_centres(sm(), s, fra);
  for (int p = 0; p < sm().num_provinces() && owned < 17; ++p)
    if (sm().is_supply_centre(static_cast<ProvinceId>(p)) && s.owner[p] != fra) {
      s.owner[p] = fra;
      ++owned;
    }
  EXPECT_FALSE(solo_winner(sm(), s));  // 17: exactly half is not a win
  for (int p = 0; p < sm().num_provinces(); ++p)
    if (sm().is_supply_centre(static_cast<ProvinceId>(p)) && s.owner[p] != fra) {
      s.owner[p] = fra;
      break;
    }
  EXPECT_EQ(solo_winner(sm(), s), std::optional<PowerId>(fra));
}

// PhaseResolver runs whichever phase the state is in and keeps each result.
TEST(DiplomacyGameEnd, PhaseResolverFollowsThePhases) {
  PhaseResolver resolver(sm());
  State s = initial_state(sm());
  s = resolver.resolve(s, effective(s, {"France: A par - bur", "Germany: A mun - bur"}));
  EXPECT_EQ(s.phase, (Phase{Season::kFall, PhaseType::kMovement, 1901}));
  EXPECT_FALSE(resolver.movement().succeeded[0]);
  s = resolver.resolve(s, effective(s, {"France: A mar - spa", "Russia: F sev - rum"}));
  // France took Spain and Russia Rumania: both build, so the winter is played.
  EXPECT_EQ(s.phase, (Phase{Season::kWinter, PhaseType::kAdjustment, 1901}));
  s = resolver.resolve(s, effective(s, {"France: A mar B", "Russia: F sev B"}));
  EXPECT_TRUE(resolver.adjustment().succeeded[0]);
  EXPECT_TRUE(resolver.adjustment().succeeded[1]);
  EXPECT_EQ(s.phase, (Phase{Season::kSpring, PhaseType::kMovement, 1902}));
  EXPECT_EQ(count_units(sm(), s, power("France")), 4);
  EXPECT_EQ(count_units(sm(), s, power("Russia")), 5);
}

}  // namespace phases_test
}  // namespace kibitz::diplomacy

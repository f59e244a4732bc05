// The standard map: counts, known adjacencies (coast-specific ones included), names and
// aliases, the loader's one-line errors, and the whole map against the shared reference.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>

#include "core/text.hpp"
#include "games/diplomacy/map.hpp"
#include "support/suites.hpp"

namespace kibitz::diplomacy {
namespace {

const Map& sm() { return standard_map(); }
ProvinceId prov(std::string_view s) { return *sm().find_province(s); }
LocationId loc(std::string_view s) {
  auto l = sm().parse_location(s);
  EXPECT_TRUE(l) << s;
  return *l;
}
bool army(std::string_view a, std::string_view b) { return sm().army_adjacent(prov(a), prov(b)); }
bool fleet(std::string_view a, std::string_view b) { return sm().fleet_adjacent(loc(a), loc(b)); }

TEST(DiplomacyMap, Counts) {
  EXPECT_EQ(sm().name(), "standard");
  EXPECT_EQ(sm().num_provinces(), 75);
  EXPECT_EQ(sm().num_locations(), 81);  // + bul/ec bul/sc spa/nc spa/sc stp/nc stp/sc
  EXPECT_EQ(sm().num_supply_centres(), 34);
  EXPECT_EQ(sm().num_powers(), 7);
  EXPECT_EQ(sm().start_year(), 1901);
  EXPECT_EQ(sm().start_units().size(), 22u);
  int land = 0, coast = 0, sea = 0, homes = 0;
  for (int p = 0; p < sm().num_provinces(); ++p) {
    const auto t = sm().type(static_cast<ProvinceId>(p));
    land += t == ProvinceType::kLand;
    coast += t == ProvinceType::kCoast;
    sea += t == ProvinceType::kSea;
  }
  EXPECT_EQ(land, 14);
  EXPECT_EQ(coast, 42);
  EXPECT_EQ(sea, 19);
  for (int pw = 0; pw < 7; ++pw) homes += static_cast<int>(sm().homes(pw).count());
  EXPECT_EQ(homes, 22);  // 3 each, 4 for Russia; 12 neutral centres
  EXPECT_EQ(sm().homes(*sm().find_power("Russia")).count(), 4u);
  int army_edges = 0, fleet_edges = 0;
  for (int a = 0; a < sm().num_provinces(); ++a)
    army_edges += static_cast<int>(sm().army_neighbours(static_cast<ProvinceId>(a)).count());
  for (int a = 0; a < sm().num_locations(); ++a)
    fleet_edges += static_cast<int>(sm().fleet_neighbours(static_cast<LocationId>(a)).count());
  EXPECT_EQ(army_edges, 2 * 111);
  EXPECT_EQ(fleet_edges, 2 * 141);
}

TEST(DiplomacyMap, HomesAndStartingUnits) {
  const PowerId aus = *sm().find_power("austria"), rus = *sm().find_power("RUS");
  EXPECT_EQ(sm().power_name(aus), "Austria");
  EXPECT_EQ(sm().power_abbr(rus), "RUS");
  EXPECT_EQ(sm().home_power(prov("vie")), aus);
  EXPECT_EQ(sm().home_power(prov("stp")), rus);
  EXPECT_EQ(sm().home_power(prov("bel")), kNoPower);
  EXPECT_TRUE(sm().is_supply_centre(prov("bel")));
  EXPECT_FALSE(sm().is_supply_centre(prov("bur")));
  EXPECT_FALSE(sm().find_power("Switzerland"));
  bool stp_fleet = false;
  for (const StartUnit& u : sm().start_units()) {
    EXPECT_EQ(sm().home_power(sm().province_of(u.location)), u.power);
    if (u.location == loc("stp/sc")) stp_fleet = u.type == UnitType::kFleet && u.power == rus;
  }
  EXPECT_TRUE(stp_fleet);
}

TEST(DiplomacyMap, KnownAdjacencies) {
  EXPECT_TRUE(army("bur", "mun"));
  EXPECT_TRUE(army("mun", "bur"));
  EXPECT_TRUE(army("spa", "gas"));
  EXPECT_TRUE(army("stp", "nwy"));
  EXPECT_TRUE(army("bur", "bel"));
  EXPECT_FALSE(army("par", "mun"));
  EXPECT_FALSE(army("lon", "nth"));  // no army to sea
  EXPECT_FALSE(army("lon", "bel"));
  EXPECT_FALSE(army("bre", "eng"));
  // Split coasts.
  EXPECT_TRUE(fleet("mao", "spa/nc"));
  EXPECT_TRUE(fleet("mao", "spa/sc"));
  EXPECT_TRUE(fleet("gas", "spa/nc"));
  EXPECT_FALSE(fleet("gas", "spa/sc"));
  EXPECT_TRUE(fleet("bul/ec", "bla"));
  EXPECT_FALSE(fleet("bul/sc", "bla"));
  EXPECT_TRUE(fleet("bul/sc", "aeg"));
  EXPECT_FALSE(fleet("bul/ec", "aeg"));
  EXPECT_TRUE(fleet("con", "bul/ec"));
  EXPECT_TRUE(fleet("con", "bul/sc"));
  EXPECT_TRUE(fleet("stp/nc", "bar"));
  EXPECT_TRUE(fleet("stp/sc", "bot"));
  EXPECT_FALSE(fleet("stp/nc", "bot"));
  EXPECT_TRUE(fleet("lyo", "spa/sc"));
  EXPECT_FALSE(fleet("lyo", "spa/nc"));
  EXPECT_TRUE(fleet("por", "spa/nc"));
  EXPECT_TRUE(fleet("por", "spa/sc"));
  EXPECT_TRUE(fleet("nth", "nwy"));
  EXPECT_TRUE(fleet("kie", "ber"));
  EXPECT_FALSE(fleet("kie", "mun"));  // no fleet inland
  EXPECT_FALSE(fleet("rom", "ven"));  // coasts on different seas
  EXPECT_TRUE(fleet("den", "swe"));
  // The province-level reach used by supports.
  EXPECT_TRUE(sm().fleet_reaches(loc("gas"), prov("spa")));
  EXPECT_TRUE(sm().fleet_reaches(loc("wes"), prov("spa")));
  EXPECT_FALSE(sm().fleet_reaches(loc("spa/nc"), prov("mar")));
  EXPECT_TRUE(sm().fleet_reaches(loc("spa/sc"), prov("mar")));
  // Armies never stand at sea and fleets never inland.
  for (int p = 0; p < sm().num_provinces(); ++p) {
    const auto id = static_cast<ProvinceId>(p);
    if (sm().is_sea(id)) {
      EXPECT_TRUE(sm().army_neighbours(id).none()) << sm().abbr(id);
    }
    if (sm().is_land(id)) {
      EXPECT_TRUE(sm().fleet_neighbours(sm().location(id)).none()) << sm().abbr(id);
      EXPECT_TRUE(sm().fleet_reach(sm().location(id)).none());
    }
    for (int q = 0; q < sm().num_provinces(); ++q) {
      if (sm().army_adjacent(id, static_cast<ProvinceId>(q))) {
        EXPECT_FALSE(sm().is_sea(static_cast<ProvinceId>(q)));
      }
    }
  }
}

TEST(DiplomacyMap, NamesCoastsAndAliases) {
  EXPECT_EQ(prov("NTH"), prov("nth"));
  EXPECT_EQ(prov("North Sea"), prov("nth"));
  EXPECT_EQ(prov("Mid-Atlantic Ocean"), prov("mao"));
  EXPECT_EQ(prov("mid"), prov("mao"));
  EXPECT_EQ(prov("gol"), prov("lyo"));
  EXPECT_EQ(prov("NRG"), prov("nwg"));
  EXPECT_EQ(prov("st. petersburg"), prov("stp"));
  EXPECT_FALSE(sm().find_province("xyz"));
  EXPECT_FALSE(sm().find_province(""));
  EXPECT_EQ(loc("stp/nc"), loc("STP(nc)"));
  EXPECT_EQ(loc("stp/nc"), loc("STP (NC)"));
  EXPECT_EQ(loc("stp/nc"), loc("stp nc"));
  EXPECT_EQ(loc("spa/sc"), loc("Spain (south coast)"));
  EXPECT_EQ(loc("spa/sc"), loc("SPA/SCS"));
  EXPECT_EQ(loc("bul/ec"), loc("bul/east"));
  EXPECT_EQ(sm().location_name(loc("Spa(sc)")), "spa/sc");
  EXPECT_EQ(sm().location_name(loc("par")), "par");
  EXPECT_EQ(sm().province_of(loc("spa/nc")), prov("spa"));
  EXPECT_EQ(sm().coast_of(loc("spa/nc")), Coast::kNorth);
  EXPECT_EQ(sm().location(prov("spa"), Coast::kSouth), loc("spa/sc"));
  EXPECT_EQ(sm().location(prov("spa"), Coast::kEast), kNoLocation);
  EXPECT_EQ(sm().coasts(prov("bul")).size(), 2u);
  EXPECT_TRUE(sm().coasts(prov("par")).empty());
  EXPECT_EQ(sm().parse_location("ber/nc").error().message, "ber has no coast nc");
  EXPECT_EQ(sm().parse_location("xyz").error().message, "unknown province 'xyz'");
  EXPECT_EQ(sm().parse_location("spa/xx").error().message, "unknown coast 'xx' of spa");
  EXPECT_EQ(sm().parse_location("stp(nc").error().message, "missing ')' in 'stp(nc'");
  EXPECT_FALSE(sm().parse_location(""));
}

// A tiny map to exercise the loader's checks.
std::string tiny_map(std::string_view extra = "") {
  return std::string(
             "map tiny\npower Red RED\npower Blue BLU\n"
             "province aa coast Red Alpha\n  army bb\n  fleet sea\n"
             "province bb coast *  Beta\n  army aa\n  fleet sea\n"
             "province sea sea - The Sea\n  fleet aa bb\n"
             "unit Red A aa\n") +
         std::string(extra);
}

TEST(DiplomacyMap, LoaderReadsASmallMap) {
  auto m = parse_map(tiny_map(), "tiny.map");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->num_provinces(), 3);
  EXPECT_EQ(m->num_supply_centres(), 2);
  EXPECT_TRUE(m->army_adjacent(0, 1));
  EXPECT_TRUE(m->fleet_adjacent(2, 0));
  EXPECT_EQ(m->find_province("the sea"), 2);
}

TEST(DiplomacyMap, LoaderErrorsNameTheLine) {
  const std::pair<std::string, std::string> cases[] = {
      {tiny_map("bogus x\n"), "tiny.map:13: unknown statement 'bogus'"},
      {tiny_map("province cc land Green Gamma\n"), "tiny.map:13: unknown power 'Green'"},
      {tiny_map("province cc hill - Gamma\n"),
       "tiny.map:13: unknown province type 'hill' (land, coast or sea)"},
      {tiny_map("province aa land - Again\n"), "tiny.map:13: name 'aa' is already aa"},
      {tiny_map("province cc land - Gamma\n  army zz\n"), "tiny.map:14: unknown province 'zz'"},
      {tiny_map("province cc land - Gamma\n  army aa\n"),
       "tiny.map:14: army edge cc-aa is not listed from aa"},
      {tiny_map("province cc land - Gamma\n  fleet aa\n"),
       "tiny.map:14: fleets cannot stand in land province cc"},
      {tiny_map("province cc land - Gamma\n  army sea\n"),
       "tiny.map:14: army neighbour sea is a sea province"},
      {tiny_map("unit Red F sea\nunit Blue A sea\n"), "tiny.map:14: army in sea province sea"},
      {tiny_map("unit Blue A aa\n"), "tiny.map:13: two units in aa"},
      {tiny_map("unit Blue F bb/nc\n"), "tiny.map:13: bb has no coast nc"},
      {tiny_map("province cc land - Gamma\n  coasts nc sc\n"),
       "tiny.map:14: only coastal provinces have split coasts"},
      {tiny_map("start fall 1901\n"), "tiny.map:13: a game starts in spring"},
      {"army aa\n", "map:1: 'army' before any province"},
      {"power Red RED\n", "map: no provinces"},
  };
  for (const auto& [text, message] : cases) {
    const auto m = parse_map(text, text.starts_with("map tiny") ? "tiny.map" : "map");
    ASSERT_FALSE(m) << message;
    EXPECT_EQ(m.error().message, message);
  }
  const auto missing = load_map_file("/nonexistent/standard.map.txt");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "/nonexistent/standard.map.txt: cannot open");
}

TEST(DiplomacyMap, DataFileMatchesTheEmbeddedCopy) {
  const auto from_file = load_map_file(KIBITZ_TEST_DATA "/../../data/diplomacy/standard.map.txt");
  ASSERT_TRUE(from_file) << from_file.error().message;
  EXPECT_EQ(from_file->num_provinces(), sm().num_provinces());
  std::ifstream in(KIBITZ_TEST_DATA "/../../data/diplomacy/standard.map.txt", std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), standard_map_text()) << "rebuild: the embedded map is stale";
}

// The whole map against derived/standard_map.json of the shared data (generated from the
// DPjudge map and cross-checked there against godip and the DAIDE MDF).
TEST(DiplomacyMap, MatchesTheSharedReferenceMap) {
  KIBITZ_REQUIRE_SUITE(path, "diplomacy/derived/standard_map.json");
  std::ifstream in(path);
  const auto j = nlohmann::json::parse(in);
  std::set<std::string> ref_provinces, ours;
  for (const auto& [id, p] : j["provinces"].items()) {
    ref_provinces.insert(id);
    const auto q = sm().find_province(id);
    ASSERT_TRUE(q) << id;
    EXPECT_EQ(sm().abbr(*q), id);
    EXPECT_EQ(sm().full_name(*q), p["name"].get<std::string>()) << id;
    EXPECT_EQ(type_name(sm().type(*q)), p["type"].get<std::string>()) << id;
    std::string sc = "-";
    if (sm().is_supply_centre(*q))
      sc = sm().home_power(*q) == kNoPower ? "neutral"
                                           : to_upper(sm().power_name(sm().home_power(*q)));
    EXPECT_EQ(sc, p["sc"].is_null() ? "-" : p["sc"].get<std::string>()) << id;
    std::set<std::string> coasts, ref_coasts;
    for (const LocationId c : sm().coasts(*q)) coasts.insert(sm().location_name(c));
    for (const auto& c : p["coasts"]) ref_coasts.insert(c.get<std::string>());
    EXPECT_EQ(coasts, ref_coasts) << id;
  }
  for (int p = 0; p < sm().num_provinces(); ++p)
    ours.insert(std::string(sm().abbr(static_cast<ProvinceId>(p))));
  EXPECT_EQ(ours, ref_provinces);

  using Edge = std::pair<std::string, std::string>;
  const auto edge = [](std::string a, std::string b) { return a < b ? Edge{a, b} : Edge{b, a}; };
  std::set<Edge> ref_army, our_army, ref_fleet, our_fleet;
  for (const auto& e : j["army_adjacency"])
    ref_army.insert(edge(e[0].get<std::string>(), e[1].get<std::string>()));
  for (const auto& e : j["fleet_adjacency"])
    ref_fleet.insert(edge(e[0].get<std::string>(), e[1].get<std::string>()));
  for (int a = 0; a < sm().num_provinces(); ++a)
    for (int b = 0; b < sm().num_provinces(); ++b)
      if (sm().army_adjacent(static_cast<ProvinceId>(a), static_cast<ProvinceId>(b)))
        our_army.insert(edge(std::string(sm().abbr(static_cast<ProvinceId>(a))),
                             std::string(sm().abbr(static_cast<ProvinceId>(b)))));
  for (int a = 0; a < sm().num_locations(); ++a)
    for (int b = 0; b < sm().num_locations(); ++b)
      if (sm().fleet_adjacent(static_cast<LocationId>(a), static_cast<LocationId>(b)))
        our_fleet.insert(edge(sm().location_name(static_cast<LocationId>(a)),
                              sm().location_name(static_cast<LocationId>(b))));
  EXPECT_EQ(our_army, ref_army);
  EXPECT_EQ(our_fleet, ref_fleet);

  using UnitRow = std::tuple<std::string, std::string, std::string>;
  std::set<UnitRow> ref_units, our_units;
  for (const auto& u : j["start_units"])
    ref_units.insert({u[0].get<std::string>(), u[1].get<std::string>(), u[2].get<std::string>()});
  for (const StartUnit& u : sm().start_units())
    our_units.insert({to_upper(sm().power_name(u.power)), std::string(unit_letter(u.type)),
                      sm().location_name(u.location)});
  EXPECT_EQ(our_units, ref_units);
}

}  // namespace
}  // namespace kibitz::diplomacy

// Game state: the 1901 start, phases, JSON round trips and one-line errors on bad JSON.
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "games/diplomacy/state.hpp"

namespace kibitz::diplomacy {
namespace {

const Map& stm() { return standard_map(); }
ProvinceId sprov(std::string_view s) { return *stm().find_province(s); }

TEST(DiplomacyState, StandardStart) {
  const State s = initial_state(stm());
  EXPECT_EQ(phase_code(s.phase), "S1901M");
  int units = 0, owned = 0;
  for (int pw = 0; pw < stm().num_powers(); ++pw) {
    const auto power = static_cast<PowerId>(pw);
    const int expected = stm().power_name(power) == "Russia" ? 4 : 3;
    EXPECT_EQ(count_units(stm(), s, power), expected) << stm().power_name(power);
    EXPECT_EQ(count_centres(stm(), s, power), expected) << stm().power_name(power);
    units += count_units(stm(), s, power);
    owned += count_centres(stm(), s, power);
  }
  EXPECT_EQ(units, 22);
  EXPECT_EQ(owned, 22);
  EXPECT_EQ(s.owner[sprov("bel")], kNoPower);
  const Unit& stp = s.unit_at(sprov("stp"));
  EXPECT_EQ(stp.type, UnitType::kFleet);
  EXPECT_EQ(stm().location_name(stp.location), "stp/sc");
  EXPECT_FALSE(s.occupied(sprov("bur")));
  for (int p = 0; p < stm().num_provinces(); ++p) EXPECT_FALSE(s.dislodged[p].exists());
}

TEST(DiplomacyState, Phases) {
  const std::pair<const char*, const char*> good[] = {
      {"S1901M", "S1901M"},
      {"f1905r", "F1905R"},
      {"W1901A", "W1901A"},
      {"Spring 1901 movement", "S1901M"},
      {"Fall 1901, Retreat", "F1901R"},
      {"Autumn 1910 moves", "F1910M"},
      {"winter 1902 builds", "W1902A"},
      {"  S1901M  ", "S1901M"},
  };
  for (const auto& [in, out] : good) {
    const auto p = parse_phase(in);
    ASSERT_TRUE(p) << in << ": " << p.error().message;
    EXPECT_EQ(phase_code(*p), out);
  }
  EXPECT_EQ(phase_name(*parse_phase("F1901R")), "Fall 1901 retreat");
  for (const char* bad : {"", "W1901M", "S1901A", "X1901M", "S19O1M", "S190100M", "SM",
                          "Spring 1901", "spring year movement", "S0M", "Summer 1901 movement"}) {
    const auto p = parse_phase(bad);
    EXPECT_FALSE(p) << bad;
    if (!p) {
      EXPECT_EQ(p.error().message.find('\n'), std::string::npos);
    }
  }
  EXPECT_EQ(parse_phase("W1901M").error().message,
            "phase 'W1901M': adjustments happen in winter and only then");
}

TEST(DiplomacyState, JsonRoundTrip) {
  const State s = initial_state(stm());
  const std::string text = write_state_json(stm(), s);
  EXPECT_NE(text.find("\"phase\": \"S1901M\""), std::string::npos);
  EXPECT_NE(text.find("\"F stp/sc\""), std::string::npos);
  const auto back = read_state_json(stm(), text);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_TRUE(*back == s);
  EXPECT_EQ(write_state_json(stm(), *back), text);

  // A retreat phase with a dislodged unit, its attacker's origin and a standoff.
  State r = s;
  r.phase = *parse_phase("F1901R");
  r.dislodge(sprov("par"), sprov("bur"));
  r.units[sprov("bur")] =
      Unit{UnitType::kArmy, *stm().find_power("Germany"), stm().location(sprov("bur"))};
  r.contested.set(sprov("pic"));
  r.owner[sprov("bel")] = *stm().find_power("France");
  const auto r2 = read_state_json(stm(), write_state_json(stm(), r));
  ASSERT_TRUE(r2) << r2.error().message;
  EXPECT_TRUE(*r2 == r);
  EXPECT_EQ(r2->attacker_from[sprov("par")], sprov("bur"));
  EXPECT_TRUE(r2->contested.test(sprov("pic")));

  // Hand-written JSON with aliases, full names and coast spellings.
  const auto h = read_state_json(stm(), R"js({"phase": "Spring 1902 movement",
      "units": {"ENGLAND": ["F North Sea", "Army lon", "F STP(NC)"], "fra": ["A spa/nc"]},
      "centres": {"england": ["LON", "Norway"]}})js");
  ASSERT_TRUE(h) << h.error().message;
  EXPECT_EQ(h->unit_at(sprov("nth")).type, UnitType::kFleet);
  EXPECT_EQ(stm().location_name(h->unit_at(sprov("stp")).location), "stp/nc");
  EXPECT_EQ(stm().location_name(h->unit_at(sprov("spa")).location), "spa");  // armies: no coast
  EXPECT_EQ(h->owner[sprov("nwy")], *stm().find_power("England"));
  EXPECT_EQ(h->phase.year, 1902);
}

TEST(DiplomacyState, BadJsonGivesOneLineErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"[]", "state JSON: expected an object"},
      {"{}", "state JSON: missing key 'phase'"},
      {R"({"phase": 1901})", "state JSON: phase: expected a string such as \"S1901M\""},
      {R"({"phase": "W1901M"})",
       "state JSON: phase 'W1901M': adjustments happen in winter and only then"},
      {R"({"phase": "S1901M", "armies": {}})", "state JSON: unknown key 'armies'"},
      {R"({"phase": "S1901M", "map": "europa"})",
       "state JSON: map: the state is for map 'europa', not 'standard'"},
      {R"({"phase": "S1901M", "units": []})", "state JSON: units: expected an object of powers"},
      {R"({"phase": "S1901M", "units": {"Narnia": []}})",
       "state JSON: units.Narnia: unknown power 'Narnia'"},
      {R"({"phase": "S1901M", "units": {"France": "A par"}})",
       "state JSON: units.France: expected an array"},
      {R"({"phase": "S1901M", "units": {"France": ["A xyz"]}})",
       "state JSON: units.France[0]: unknown province 'xyz'"},
      {R"({"phase": "S1901M", "units": {"France": ["A par"], "Germany": ["A par"]}})",
       "state JSON: units.Germany[0]: two units in par"},
      {R"({"phase": "S1901M", "units": {"France": ["A par", "F par"]}})",
       "state JSON: units.France[1]: fleet in land province par"},
      {R"({"phase": "S1901M", "units": {"France": ["F bur"]}})",
       "state JSON: units.France[0]: fleet in land province bur"},
      {R"({"phase": "S1901M", "units": {"England": ["A nth"]}})",
       "state JSON: units.England[0]: army in sea province nth"},
      {R"({"phase": "S1901M", "units": {"France": ["F spa"]}})",
       "state JSON: units.France[0]: a fleet in spa needs a coast (spa/nc ...)"},
      {R"({"phase": "S1901M", "units": {"France": ["F par/nc"]}})",
       "state JSON: units.France[0]: par has no coast nc"},
      {R"({"phase": "S1901M", "units": {"France": ["X par"]}})",
       "state JSON: units.France[0]: unit type 'X' is not A or F"},
      {R"({"phase": "S1901M", "units": {"France": ["par"]}})",
       "state JSON: units.France[0]: expected \"A|F LOCATION\", not 'par'"},
      {R"({"phase": "S1901M", "units": {"France": [5]}})",
       "state JSON: units.France[0]: expected a string such as \"A par\""},
      {R"({"phase": "S1901M", "centres": {"France": ["bur"]}})",
       "state JSON: centres.France[0]: bur is not a supply centre"},
      {R"({"phase": "S1901M", "centres": {"France": ["bel"], "Germany": ["bel"]}})",
       "state JSON: centres.Germany[0]: bel is owned twice"},
      {R"({"phase": "S1901M", "dislodged": [{"power": "France", "unit": "A par"}]})",
       "state JSON: dislodged: units are dislodged only in retreat phases"},
      {R"({"phase": "S1901M", "contested": ["bur"]})",
       "state JSON: contested: standoffs matter only in retreat phases"},
      {R"({"phase": "F1901R", "dislodged": [{"power": "France", "unit": "A par",
          "attacker_from": "par"}]})",
       "state JSON: dislodged[0]: attacked from its own province"},
      {R"({"phase": "F1901R", "dislodged": [{"power": "France", "unit": "A par"},
          {"power": "Germany", "unit": "A par"}]})",
       "state JSON: dislodged[1]: two dislodged units in par"},
      {R"({"phase": "F1901R", "dislodged": [{"unit": "A par"}]})",
       "state JSON: dislodged[0]: missing power"},
      {R"({"phase": "F1901R", "dislodged": [{"power": "France", "unit": "A par", "x": 1}]})",
       "state JSON: dislodged[0]: unknown key 'x'"},
      {R"({"phase": "F1901R", "contested": ["xyz"]})",
       "state JSON: contested[0]: unknown province 'xyz'"},
  };
  for (const auto& [text, message] : cases) {
    const auto s = read_state_json(stm(), text);
    ASSERT_FALSE(s) << text;
    EXPECT_EQ(s.error().message, message);
  }
  // Not JSON at all, truncated, deeply nested, binary: errors, never crashes.
  for (const std::string& text :
       {std::string("not json"), std::string("{\"phase\": \"S1901M\""), std::string(5000, '['),
        std::string("{\"phase\":\"S1901M\",\"units\":{\"France\":[\"A p\\u0000r\"]}}"),
        std::string("\xff\xfe{}"), std::string()}) {
    const auto s = read_state_json(stm(), text);
    ASSERT_FALSE(s);
    EXPECT_TRUE(s.error().message.starts_with("state JSON: ")) << s.error().message;
    EXPECT_EQ(s.error().message.find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace kibitz::diplomacy

// Orders: every notation form reads and prints back, the usual variations are tolerated,
// garbage gives a one-line error, and the legality check gives the rules' reasons.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "games/diplomacy/orders.hpp"

namespace kibitz::diplomacy {
namespace {

const Map& om() { return standard_map(); }
PowerId pw(std::string_view name) { return *om().find_power(name); }

// Parses and prints back (the canonical form), or "error: <message>".
std::string canon(std::string_view text, PhaseType phase = PhaseType::kMovement) {
  const auto o = parse_order(om(), text, phase);
  if (!o) return "error: " + o.error().message;
  return format_order(om(), *o);
}

State state_from(std::string_view json) {
  auto s = read_state_json(om(), json);
  EXPECT_TRUE(s) << s.error().message;
  return s ? *s : State{};
}

// The reason `power` may not give `text` in `s`, or "ok: <completed order>".
std::string check(const State& s, std::string_view power, std::string_view text) {
  const auto o = parse_order(om(), text, s.phase.type);
  if (!o) return "parse error: " + o.error().message;
  const auto c = check_order(om(), s, pw(power), *o);
  if (!c) return c.error().message;
  return "ok: " + format_order(om(), *c);
}

TEST(DiplomacyOrders, EveryFormRoundTrips) {
  for (const char* text :
       {"A PAR - BUR", "A PAR H", "F NTH C A LON - NWY", "A MUN S A BER - SIL", "A BER S A MUN",
        "F SPA/SC - WES", "A LON - NWY VIA", "A PAR R BUR", "A PAR D", "A PAR B", "WAIVE",
        "F MAO - SPA/NC", "F STP/NC B", "A BUR S WAL - PIC", "F NTH C LON - NWY", "REMOVE PAR",
        "England: A LON H", "Russia: WAIVE", "F BUL/EC S F CON - BLA"})
    EXPECT_EQ(canon(text), text);
  EXPECT_EQ(canon("A PAR - BUR", PhaseType::kRetreat), "A PAR R BUR");
  const auto o = parse_order(om(), "F NTH C A LON - NWY");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->type, OrderType::kConvoy);
  EXPECT_EQ(o->unit, UnitType::kFleet);
  EXPECT_EQ(o->aux_unit, UnitType::kArmy);
  EXPECT_EQ(om().location_name(o->aux), "lon");
  EXPECT_EQ(om().location_name(o->target), "nwy");
  const auto s = parse_order(om(), "A BER S A MUN");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->type, OrderType::kSupport);
  EXPECT_EQ(s->target, kNoLocation);
}

TEST(DiplomacyOrders, ToleratesCaseSpacingWordsAndAliases) {
  const std::pair<const char*, const char*> cases[] = {
      {"a par - bur", "A PAR - BUR"},
      {"  A   PAR->BUR  ", "A PAR - BUR"},
      {"A PAR => BUR", "A PAR - BUR"},
      {"a par-bur", "A PAR - BUR"},
      {"Army Paris move to Burgundy", "A PAR - BUR"},
      {"A PAR MOVES BUR", "A PAR - BUR"},
      {"A par HOLD", "A PAR H"},
      {"A par holds", "A PAR H"},
      {"A\tpar\tstands\r\n", "A PAR H"},
      {"F nth CONVOY A lon - nwy", "F NTH C A LON - NWY"},
      {"Fleet North Sea convoys army London to Norway", "F NTH C A LON - NWY"},
      {"A mun SUPPORT A ber - sil", "A MUN S A BER - SIL"},
      {"A mun supports A ber move sil", "A MUN S A BER - SIL"},
      {"A ber S A mun H", "A BER S A MUN"},
      {"A ber s a mun hold", "A BER S A MUN"},
      {"F STP(SC) - BOT", "F STP/SC - BOT"},
      {"F stp (sc) H", "F STP/SC H"},
      {"F stp nc - bar", "F STP/NC - BAR"},
      {"F Spain (south coast) - wes", "F SPA/SC - WES"},
      {"F spa/scs - wes", "F SPA/SC - WES"},
      {"F North Sea - Norway", "F NTH - NWY"},
      {"F mid-atlantic - spa(nc)", "F MAO - SPA/NC"},
      {"F gol supports f wes-spa/sc", "F LYO S F WES - SPA/SC"},
      {"F nrg S F nth - nwy", "F NWG S F NTH - NWY"},
      {"A lon - nwy via convoy", "A LON - NWY VIA"},
      {"A lon-nwy by convoy", "A LON - NWY VIA"},
      {"A bel - lon via Convoy", "A BEL - LON VIA"},
      {"A par retreat bur", "A PAR R BUR"},
      {"A par retreats to bur", "A PAR R BUR"},
      {"A par R - bur", "A PAR R BUR"},
      {"A par disband", "A PAR D"},
      {"Remove par", "REMOVE PAR"},
      {"Remove A par", "A PAR D"},
      {"Disband F nth", "F NTH D"},
      {"BUILD A PAR", "A PAR B"},
      {"Build F stp/nc", "F STP/NC B"},
      {"build f STP(NC)", "F STP/NC B"},
      {"A par build", "A PAR B"},
      {"waive", "WAIVE"},
      {"England: waive", "England: WAIVE"},
      {"ENG: A lon H", "England: A LON H"},
      {"england A lon h", "England: A LON H"},
      {"ENG F eng - bre", "England: F ENG - BRE"},
      {"A bur S wal-pic", "A BUR S WAL - PIC"},
      {"F nth-pic", "F NTH - PIC"},
      {"F swe-den", "F SWE - DEN"},
      {"F Mid-Atlantic Ocean - Spain(nc)", "F MAO - SPA/NC"},
      {"F con c A smy - bul", "F CON C A SMY - BUL"},
      {"A St. Petersburg - Moscow", "A STP - MOS"},
  };
  for (const auto& [in, out] : cases) EXPECT_EQ(canon(in), out) << in;
}

TEST(DiplomacyOrders, MalformedInputGivesOneLineErrors) {
  const char* const bad[] = {
      "",
      "   ",
      "X PAR H",
      "A",
      "A PAR",
      "A XYZ H",
      "A PAR ZZ",
      "A PAR -",
      "A PAR - XYZ",
      "A PAR H H",
      "A PAR S",
      "A PAR S A",
      "F NTH C A LON",
      "F NTH C A LON -",
      "A PAR - BUR VIA VIA",
      "A PAR (",
      "A PAR(nc",
      "(nc) A PAR H",
      "A BER/NC H",
      "A SPA/XX H",
      "BUILD PAR",
      "BUILD",
      "REMOVE",
      "WAIVE NOW",
      "A PAR - BUR ?",
      "A PAR ; H",
      "A PAR = BUR",
      "A PAR R",
      "A PAR S A MUN -",
      "\x01\x02",
      "A PAR - BUR - MAR",
      "F NTH C",
      "A PAR - - BUR",
      "England:",
      "England: ",
      "A PAR : H",
      "A PAR H # comment",
      "A PAR \xe2\x80\x93 BUR",
      "A PAR - BUR\nA MAR H",
      "PAR - BUR",
      "A PAR R BUR VIA",
      "A PAR () H",
      "A PAR - BUR VIA CONVOY CONVOY",
      "H",
      ":",
      "- - -",
      "A A A A",
  };
  int n = 0;
  for (const char* text : bad) {
    for (const PhaseType ph : {PhaseType::kMovement, PhaseType::kRetreat}) {
      const auto o = parse_order(om(), text, ph);
      EXPECT_FALSE(o) << "'" << text << "' read as " << (o ? format_order(om(), *o) : "");
      if (o) continue;
      EXPECT_FALSE(o.error().message.empty());
      EXPECT_EQ(o.error().message.find('\n'), std::string::npos) << o.error().message;
    }
    ++n;
  }
  EXPECT_GE(n, 30);
  EXPECT_FALSE(parse_order(om(), std::string(1000, 'A')));
  EXPECT_EQ(canon("A XYZ H"), "error: unknown province 'XYZ'");
  EXPECT_EQ(canon("A PAR"), "error: missing order after PAR (H, -, S, C, R, D or B)");
  EXPECT_EQ(canon("A PAR -"), "error: missing location for the move");
  EXPECT_EQ(canon("X PAR H"), "error: expected A or F before 'X'");
  EXPECT_EQ(canon("A PAR ZZ"), "error: unknown order word 'ZZ' (expected H, -, S, C, R, D or B)");
  EXPECT_EQ(canon("A PAR H H"), "error: unexpected 'H' after the order");
  EXPECT_EQ(canon("A BER/NC H"), "error: ber has no coast nc");
  EXPECT_EQ(canon("A PAR - BUR\nA MAR H"), "error: unexpected 'A' after the order");
  EXPECT_EQ(canon("F NTH C A LON"), "error: a convoy needs the army's destination: C A LON - ...");
  EXPECT_EQ(canon("A PAR - BUR VIA", PhaseType::kRetreat), "error: a retreat cannot go by convoy");
}

// Every army and fleet move of the map, and supports and convoys over them, print and read back.
TEST(DiplomacyOrders, AllMovesOfTheMapRoundTrip) {
  int checked = 0;
  for (int a = 0; a < om().num_locations(); ++a)
    for (int b = 0; b < om().num_locations(); ++b) {
      const auto from = static_cast<LocationId>(a), to = static_cast<LocationId>(b);
      const bool army = om().coast_of(from) == Coast::kNone && om().coast_of(to) == Coast::kNone &&
                        om().army_adjacent(om().province_of(from), om().province_of(to));
      const bool fleet = om().fleet_adjacent(from, to);
      if (!army && !fleet) continue;
      Order o;
      o.type = OrderType::kMove;
      o.unit = fleet ? UnitType::kFleet : UnitType::kArmy;
      o.location = from;
      o.target = to;
      Order s;
      s.type = OrderType::kSupport;
      s.unit = UnitType::kArmy;
      s.location = static_cast<LocationId>((a * 7 + b) % om().num_provinces());
      s.aux_unit = o.unit;
      s.aux = from;
      s.target = to;
      for (const Order& x : {o, s}) {
        const std::string text = format_order(om(), x);
        const auto back = parse_order(om(), text);
        ASSERT_TRUE(back) << text << ": " << back.error().message;
        EXPECT_EQ(*back, x) << text;
        ++checked;
      }
    }
  EXPECT_GT(checked, 2 * 2 * 141);  // every fleet edge both ways, plus army-only edges
}

// Positions used by the legality tests.
constexpr const char* kRetreatState = R"({
  "phase": "F1901R",
  "units": {"France": ["F bre"], "Germany": ["A bur"], "England": ["F eng"]},
  "dislodged": [{"power": "France", "unit": "A par", "attacker_from": "bur"}],
  "contested": ["pic"]
})";
constexpr const char* kAdjustmentState = R"({
  "phase": "W1901A",
  "units": {"France": ["A bur", "A mar", "F bre"], "Russia": ["A mos", "A war", "F sev"],
            "Germany": ["A ber", "A mun", "F kie"], "Italy": ["A rom", "A ven", "F nap"]},
  "centres": {"France": ["par", "mar", "bre", "bel"], "Russia": ["mos", "war", "sev", "stp"],
              "Germany": ["ber", "kie"], "Italy": ["rom", "ven", "nap"]}
})";
constexpr const char* kSeaState = R"({
  "phase": "S1902M",
  "units": {"England": ["F nth", "A lon", "F mao", "F lyo", "F gas", "A yor", "F eng"],
            "France": ["A bre", "F wes"], "Italy": ["A tun"]}
})";

TEST(DiplomacyValidation, MovementPhaseReasons) {
  const State s = initial_state(om());
  EXPECT_EQ(check(s, "France", "A PAR - BUR"), "ok: A PAR - BUR");
  EXPECT_EQ(check(s, "France", "PAR - BUR").substr(0, 11), "parse error");
  EXPECT_EQ(check(s, "England", "A PAR - BUR"), "the unit in par is France's, not England's");
  EXPECT_EQ(check(s, "France", "A BUR - MUN"), "no unit in bur");
  EXPECT_EQ(check(s, "France", "F PAR - BUR"), "the unit in par is an army, not a fleet");
  EXPECT_EQ(check(s, "France", "A PAR - MUN"),
            "mun is not next to par, and only armies on coasts can be convoyed");
  EXPECT_EQ(check(s, "Germany", "F KIE - MUN"), "fleets cannot enter land province mun");
  EXPECT_EQ(check(s, "France", "A MAR - LYO"), "armies cannot enter sea province lyo");
  EXPECT_EQ(check(s, "France", "A PAR - PAR"), "a unit cannot move to its own province");
  EXPECT_EQ(check(s, "England", "A LVP - NWY"),
            "nwy is not next to lvp, and no chain of fleets at sea can convoy it there");
  EXPECT_EQ(check(s, "England", "F LON - NTH"), "ok: F LON - NTH");
  EXPECT_EQ(check(s, "Russia", "F STP - BOT"), "ok: F STP/SC - BOT");  // its own coast filled in
  EXPECT_EQ(check(s, "Russia", "F STP/SC - BAR"), "bar is not next to stp/sc");
  EXPECT_EQ(check(s, "Russia", "A MOS - STP/NC"), "ok: A MOS - STP");  // armies ignore coasts
  EXPECT_EQ(check(s, "France", "A PAR B"), "builds are adjustment orders, not movement ones");
  EXPECT_EQ(check(s, "France", "A PAR R GAS"),
            "retreats are retreat-phase orders, not movement ones");
  EXPECT_EQ(check(s, "France", "A PAR D"), "disbands are not movement orders");
  EXPECT_EQ(check(s, "France", "WAIVE"), "WAIVE is an adjustment order, not a movement one");
  EXPECT_EQ(check(s, "France", "England: A PAR H"), "the order is England's, not France's");
  // Supports.
  EXPECT_EQ(check(s, "Germany", "A MUN S A BER - SIL"), "ok: A MUN S A BER - SIL");
  EXPECT_EQ(check(s, "Germany", "A MUN S BER - SIL"), "ok: A MUN S A BER - SIL");
  EXPECT_EQ(check(s, "Germany", "A MUN S A BER - PRU"),
            "mun cannot reach pru, so cannot support a move there");
  EXPECT_EQ(check(s, "Germany", "A MUN S A MUN"), "a unit cannot support or convoy itself");
  EXPECT_EQ(check(s, "Germany", "F KIE S A MUN - BER"), "ok: F KIE S A MUN - BER");
  EXPECT_EQ(check(s, "Germany", "F KIE S A BER - MUN"),
            "kie cannot reach mun, so cannot support a move there");
  EXPECT_EQ(check(s, "Germany", "A BER S A MUN - BER"),
            "a unit cannot support a move into its own province");
  EXPECT_EQ(check(s, "Germany", "A BER S A MUN"), "ok: A BER S A MUN");
  EXPECT_EQ(check(s, "Germany", "A BER S A PAR"),
            "ber cannot reach par, so cannot support it there");
  EXPECT_EQ(check(s, "Russia", "F SEV S A MOS - UKR"),
            "sev cannot reach ukr, so cannot support a move there");
  EXPECT_EQ(check(s, "Germany", "F KIE C A BER - DEN"), "only fleets at sea can convoy");
}

TEST(DiplomacyValidation, CoastsAndConvoys) {
  const State s = state_from(kSeaState);
  EXPECT_EQ(check(s, "England", "F MAO - SPA"),
            "spa has 2 coasts a fleet from mao can reach: say which (spa/nc ...)");
  EXPECT_EQ(check(s, "England", "F MAO - SPA/SC"), "ok: F MAO - SPA/SC");
  EXPECT_EQ(check(s, "England", "F GAS - SPA"), "ok: F GAS - SPA/NC");  // the only coast
  EXPECT_EQ(check(s, "England", "F LYO - SPA"), "ok: F LYO - SPA/SC");
  EXPECT_EQ(check(s, "England", "F LYO - SPA/NC"),
            "a fleet from lyo reaches spa on another coast, not spa/nc");
  EXPECT_EQ(check(s, "England", "F GAS S F MAO - SPA/SC"), "ok: F GAS S F MAO - SPA/SC");
  EXPECT_EQ(check(s, "England", "F GAS S F MAO - SPA"), "ok: F GAS S F MAO - SPA");
  EXPECT_EQ(check(s, "England", "A LON - NWY"), "ok: A LON - NWY");  // by convoy through nth
  EXPECT_EQ(check(s, "England", "A YOR - NWY VIA"), "ok: A YOR - NWY VIA");
  EXPECT_EQ(check(s, "England", "A LON - YOR VIA"), "ok: A LON - YOR VIA");
  EXPECT_EQ(check(s, "France", "A BRE - NAF"),
            "ok: A BRE - NAF");                                    // eng-mao-... any power's fleets
  EXPECT_EQ(check(s, "Italy", "A TUN - LON"), "ok: A TUN - LON");  // wes-mao-eng
  EXPECT_EQ(check(s, "Italy", "A TUN - ROM"),
            "rom is not next to tun, and no chain of fleets at sea can convoy it there");
  EXPECT_EQ(check(s, "England", "F NTH C A LON - NWY"), "ok: F NTH C A LON - NWY");
  EXPECT_EQ(check(s, "England", "F NTH C LON - NWY"), "ok: F NTH C A LON - NWY");
  EXPECT_EQ(check(s, "England", "F NTH C F LON - NWY"), "only armies can be convoyed");
  EXPECT_EQ(check(s, "England", "F NTH C A PAR - BUR"), "an army in par cannot be convoyed");
  EXPECT_EQ(check(s, "England", "F GAS C A BRE - SPA"), "only fleets at sea can convoy");
  EXPECT_EQ(check(s, "England", "F NTH - NWY VIA"), "only armies can be convoyed");
  // 6.G.19's reading: a convoy is legal only for a fleet on a minimal route of the fleets at
  // sea. lon-nth-nwy needs no eng (eng-nth would leave eng out); tun-wes-mao-eng-lon is
  // minimal; lyo lies on no route from tun to lon.
  EXPECT_EQ(check(s, "England", "F ENG C A LON - NWY"),
            "no convoy route of the fleets now at sea from lon to nwy needs the fleet in eng");
  EXPECT_EQ(check(s, "England", "F MAO C A TUN - LON"), "ok: F MAO C A TUN - LON");
  EXPECT_EQ(check(s, "England", "F LYO C A TUN - LON"),
            "no convoy route of the fleets now at sea from tun to lon needs the fleet in lyo");
  EXPECT_TRUE(convoy_path_exists(om(), s, *om().find_province("lon"), *om().find_province("nwy")));
  EXPECT_FALSE(convoy_path_exists(om(), s, *om().find_province("lon"), *om().find_province("par")));
  EXPECT_FALSE(convoy_path_exists(om(), initial_state(om()), *om().find_province("lon"),
                                  *om().find_province("nwy")));
}

// convoy_order_possible() against the definition by subsets: a set of fleet-occupied seas is a
// minimal convoy (DATC 6.G.19) when its seas connect the army's coast to the destination and
// no set with one sea fewer does; a fleet may convoy when it is in such a set.
TEST(DiplomacyValidation, ConvoyOrdersFollowMinimalRoutesByBruteForce) {
  const Map& m = om();
  std::vector<ProvinceId> seas, coasts;
  for (int p = 0; p < m.num_provinces(); ++p) {
    if (m.is_sea(static_cast<ProvinceId>(p))) seas.push_back(static_cast<ProvinceId>(p));
    if (m.is_coastal(static_cast<ProvinceId>(p))) coasts.push_back(static_cast<ProvinceId>(p));
  }
  Rng rng(28);
  int legal = 0, refused_with_a_path = 0;
  for (int iter = 0; iter < 120; ++iter) {
    State s;
    s.phase = Phase{Season::kSpring, PhaseType::kMovement, 1901};
    std::vector<ProvinceId> fleets;
    const int k = 1 + static_cast<int>(rng.below(7));
    while (static_cast<int>(fleets.size()) < k) {
      const ProvinceId q = seas[rng.below(seas.size())];
      if (s.units[q].exists()) continue;
      s.place(Unit{UnitType::kFleet, static_cast<PowerId>(rng.below(7)), m.location(q)}, m);
      fleets.push_back(q);
    }
    // Fleets on coasts never convoy.
    for (int j = 0; j < 3; ++j) {
      const ProvinceId q = coasts[rng.below(coasts.size())];
      if (!s.units[q].exists() && !m.has_coasts(q))
        s.place(Unit{UnitType::kFleet, 0, m.location(q)}, m);
    }
    const unsigned full = (1u << k) - 1;
    for (const ProvinceId from : coasts)
      for (const ProvinceId to : coasts) {
        if (from == to) continue;
        const auto connects = [&](unsigned set) {
          unsigned seen = 0, frontier = 0;
          for (int i = 0; i < k; ++i)
            if ((set >> i & 1) && m.fleet_reaches(fleets[i], from)) frontier |= 1u << i;
          while (frontier != 0) {
            seen |= frontier;
            unsigned next = 0;
            for (int i = 0; i < k; ++i) {
              if (!(frontier >> i & 1)) continue;
              if (m.fleet_reaches(fleets[i], to)) return true;
              for (int j = 0; j < k; ++j)
                if ((set >> j & 1) && !(seen >> j & 1) && m.fleet_reaches(fleets[i], fleets[j]))
                  next |= 1u << j;
            }
            frontier = next;
          }
          return false;
        };
        unsigned may = 0;
        for (unsigned set = 1; set <= full; ++set) {
          if (!connects(set)) continue;
          bool minimal = true;
          for (int i = 0; i < k && minimal; ++i)
            if (set >> i & 1) minimal = !connects(set & ~(1u << i));
          if (minimal) may |= set;
        }
        for (int i = 0; i < k; ++i) {
          const bool expected = may >> i & 1;
          ASSERT_EQ(convoy_order_possible(m, s, fleets[i], from, to), expected)
              << m.abbr(fleets[i]) << " convoying " << m.abbr(from) << " - " << m.abbr(to)
              << " with " << k << " fleets";
          legal += expected;
          refused_with_a_path += !expected && connects(full);
        }
      }
  }
  EXPECT_GT(legal, 1000);
  EXPECT_GT(refused_with_a_path, 200);
}

TEST(DiplomacyValidation, RetreatPhaseReasons) {
  const State s = state_from(kRetreatState);
  EXPECT_EQ(check(s, "France", "A PAR R GAS"), "ok: A PAR R GAS");
  EXPECT_EQ(check(s, "France", "A PAR - GAS"), "ok: A PAR R GAS");
  EXPECT_EQ(check(s, "France", "A PAR R BUR"), "cannot retreat to bur, where the attack came from");
  EXPECT_EQ(check(s, "France", "A PAR R BRE"), "cannot retreat to bre: it is occupied");
  EXPECT_EQ(check(s, "France", "A PAR R PIC"),
            "cannot retreat to pic: it was left empty by a standoff");
  EXPECT_EQ(check(s, "France", "A PAR R MUN"), "mun is not next to par");
  EXPECT_EQ(check(s, "France", "A PAR D"), "ok: A PAR D");
  EXPECT_EQ(check(s, "France", "A MAR D"), "no dislodged unit in mar");
  EXPECT_EQ(check(s, "Germany", "A PAR D"), "the unit in par is France's, not Germany's");
  EXPECT_EQ(check(s, "France", "A PAR H"),
            "holds, moves, supports and convoys are movement orders, not retreat ones");
  EXPECT_EQ(check(s, "Germany", "A BUR - PAR"), "no dislodged unit in bur");
}

TEST(DiplomacyValidation, AdjustmentPhaseReasons) {
  const State s = state_from(kAdjustmentState);
  EXPECT_EQ(check(s, "France", "A PAR B"), "ok: A PAR B");
  EXPECT_EQ(check(s, "France", "BUILD F PAR"), "fleets cannot be built in land province par");
  EXPECT_EQ(check(s, "France", "A MAR B"), "mar is occupied");
  EXPECT_EQ(check(s, "France", "A BEL B"), "bel is not a home centre of France");
  EXPECT_EQ(check(s, "France", "WAIVE"), "ok: WAIVE");
  EXPECT_EQ(check(s, "Russia", "F STP B"), "a fleet built in stp needs a coast (stp/nc ...)");
  EXPECT_EQ(check(s, "Russia", "F STP/NC B"), "ok: F STP/NC B");
  EXPECT_EQ(check(s, "Russia", "A STP/NC B"), "ok: A STP B");
  EXPECT_EQ(check(s, "Germany", "A MUN D"), "ok: A MUN D");
  EXPECT_EQ(check(s, "Germany", "REMOVE MUN"), "ok: A MUN D");
  EXPECT_EQ(check(s, "Germany", "WAIVE"), "Germany has no build to waive");
  EXPECT_EQ(check(s, "Germany", "A BER B"), "ber is occupied");
  EXPECT_EQ(check(s, "Italy", "A ROM D"), "Italy has no disbands to make (3 centres, 3 units)");
  EXPECT_EQ(check(s, "Austria", "A VIE B"), "Austria does not own vie");
  EXPECT_EQ(check(s, "France", "A BUR - PAR"),
            "holds, moves, supports and convoys are movement orders, not adjustment ones");
}

TEST(DiplomacyValidation, IllegalOrdersBecomeHolds) {
  const State s = initial_state(om());
  const auto eff = [&](std::string_view power, std::string_view text) -> std::string {
    const auto o = parse_order(om(), text);
    if (!o) return "parse error";
    const auto e = effective_order(om(), s, pw(power), *o);
    return e ? format_order(om(), *e) : "none";
  };
  EXPECT_EQ(eff("France", "A PAR - BUR"), "A PAR - BUR");
  EXPECT_EQ(eff("France", "A PAR - MUN"), "A PAR H");
  EXPECT_EQ(eff("France", "F PAR - BUR"), "A PAR H");  // wrong unit type: the army holds
  EXPECT_EQ(eff("Germany", "A MUN S A BER - PRU"), "A MUN H");
  EXPECT_EQ(eff("France", "A BUR - MUN"), "none");  // no unit to hold
  EXPECT_EQ(eff("Germany", "A PAR H"), "none");     // not Germany's unit
  EXPECT_EQ(eff("France", "A PAR B"), "A PAR H");
  const State r = state_from(kRetreatState);
  const auto o = parse_order(om(), "A PAR R BUR", PhaseType::kRetreat);
  ASSERT_TRUE(o);
  EXPECT_FALSE(effective_order(om(), r, pw("France"), *o));  // it will disband
}

}  // namespace
}  // namespace kibitz::diplomacy

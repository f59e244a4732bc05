// DATC case files: the reader (both formats, malformed input), the runner, and conformance
// over every case file we have: the shared suites (TedDriggs' flattened DATC v3, godip's DATC
// v2.4 and regression files, found through KIBITZ_SUITES) and our own encoding of DATC v3.1
// (tests/data/diplomacy/datc_v3_1.txt). Each file has a list of the cases known to fail, with
// the reason; a listed case that passes fails the test, so the lists stay true.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "games/diplomacy/datc.hpp"
#include "games/diplomacy/map.hpp"
#include "games/diplomacy/state.hpp"
#include "support/suites.hpp"

namespace kibitz::diplomacy {
namespace datc_test {

const Map& sm() { return standard_map(); }

using KnownFailures = std::map<std::string, std::string>;

// Keys: the case name (for an id with several blocks), "<id>/<edition>" or "<id>".
const KnownFailures& teddriggs_known() {
  static const KnownFailures m = {
      // The data's expectation differs from the DATC v3.1 text's preference, which we follow
      // (docs/diplomacy.md, "DATC preferences").
      {"6.A.5",
       "the illegal support A lvp S A yor - yor is marked S; the DATC calls it illegal "
       "(the dislodgement of yor, which the DATC asserts, is checked and passes)"},
      {"6.B.2", "4.B.2: the DATC prefers a move to the only reachable coast; the data fails it"},
      {"6.B.10",
       "4.B.5: the DATC prefers ignoring the ordered unit's wrong coast; the data fails "
       "the move"},
      {"6.B.12", "4.B.6: the DATC prefers ignoring an army's coast; the data fails the move"},
      {"6.B.15",
       "marked IGNORE by the source; the DATC text has the support given and both "
       "fleets bouncing (2 against 2), the data expects mao - spa/nc to succeed"},
      {"t6g11_a_convoy_to_an_adjacent_place_with_a_paradox",
       "4.A.3: the DATC prefers no fallback to the land route (Szykman: the army stays, "
       "ska is dislodged); the data expects the land route"},
      // Retreat cases the source marks IGNORE: it could not parse their supports or convoys.
      {"6.H.1",
       "marked IGNORE by the source: without the illegal support it lost, the data still "
       "expects F gre - alb to succeed; the DATC bounces both retreats to alb and disbands both"},
      {"6.H.2",
       "marked IGNORE by the source: the movement phase lost the orders it could not parse, "
       "with their units (the board is the units the orders name), so nothing is dislodged"},
      {"6.H.3",
       "marked IGNORE by the source: the movement phase lost the orders it could not parse, "
       "with their units (the board is the units the orders name), so nothing is dislodged"},
      // Civil disorder.
      {"t6j09_civil_disorder_must_be_counted_from_both_coasts_second_scenario",
       "the DATC text removes the army in alb (the fleet in ska is two moves from stp/nc); "
       "the data expects the fleet in ska removed"},
  };
  return m;
}

const KnownFailures& godip_v24_known() {
  static const KnownFailures m = {
      {"6.A.5 (Move to own sector with convoy)",
       "the file misspells Germany as 'Germnay' (its line 117), so the case cannot run"},
      {"6.G.8",
       "4.A.3: godip (DATC v2.4) lets A bel - hol via convoy fall back to the land route "
       "when no convoy is there; the v3.1 preference is no fallback: the army stays"},
  };
  return m;
}

const KnownFailures& none() {
  static const KnownFailures m;
  return m;
}

const std::string* known_reason(const KnownFailures& known, const DatcCase& c, std::string* key) {
  for (const std::string& k : {c.name, c.id + "/" + c.edition, c.id}) {
    if (k.empty()) continue;
    if (auto it = known.find(k); it != known.end()) {
      *key = k;
      return &it->second;
    }
  }
  return nullptr;
}

// Runs every case of a file: each failure must be listed, each listed case must fail, and
// every list entry must name a case of the file.
void run_conformance(const std::string& path, const KnownFailures& known, std::size_t min_cases) {
  const auto file = read_datc_file(path);
  ASSERT_TRUE(file) << file.error().message;
  ASSERT_GE(file->cases.size(), min_cases) << path;
  int passed = 0, failed = 0, skipped = 0;
  std::set<std::string> used;
  for (const DatcCase& c : file->cases) {
    const DatcOutcome o = run_datc_case(sm(), file->format, c);
    if (o.skipped) {
      ++skipped;
      continue;
    }
    std::string key;
    const std::string* reason = known_reason(known, c, &key);
    if (reason) used.insert(key);
    std::string diff;
    for (const auto& d : o.differences) diff += " [" + d + "]";
    if (o.passed) {
      ++passed;
      EXPECT_EQ(reason, nullptr) << c.id << " " << c.name
                                 << " passes now: remove it from the known failures ("
                                 << (reason ? *reason : std::string()) << ")";
    } else {
      ++failed;
      EXPECT_NE(reason, nullptr) << c.id << " " << c.name << " (" << c.phase << "):" << diff;
    }
  }
  for (const auto& [k, reason] : known)
    EXPECT_TRUE(used.count(k)) << k << " is a known failure of no case that ran in " << path;
  std::cerr << std::filesystem::path(path).filename().string() << ": " << passed << " passed, "
            << failed << " failed";
  if (skipped) std::cerr << " (" << skipped << " cases for other rulebook editions not run)";
  std::cerr << "\n";
}

TEST(DiplomacyDatc, TedDriggsConformance) {
  KIBITZ_REQUIRE_SUITE(path, "diplomacy/derived/datc_v3_teddriggs.txt");
  run_conformance(path, teddriggs_known(), 160);
}

TEST(DiplomacyDatc, GodipDatcV24Conformance) {
  KIBITZ_REQUIRE_SUITE(path, "diplomacy/godip/datc/datc_v2.4_06.txt");
  run_conformance(path, godip_v24_known(), 160);
}

TEST(DiplomacyDatc, GodipDipaiConformance) {
  KIBITZ_REQUIRE_SUITE(path, "diplomacy/godip/datc/dipai.txt");
  run_conformance(path, none(), 9);
}

TEST(DiplomacyDatc, GodipRealConformance) {
  KIBITZ_REQUIRE_SUITE(path, "diplomacy/godip/datc/real.txt");
  run_conformance(path, none(), 4);
}

TEST(DiplomacyDatc, GodipDroidippyErrorsConformance) {
  KIBITZ_REQUIRE_SUITE(path, "diplomacy/godip/datc/droidippy_errors.txt");
  run_conformance(path, none(), 4);
}

TEST(DiplomacyDatc, GodipDiplicityErrorsConformance) {
  KIBITZ_REQUIRE_SUITE(path, "diplomacy/godip/datc/diplicity_errors.txt");
  run_conformance(path, none(), 1);
}

// Our own encoding of DATC v3.1 chapter 6, with the preferences we follow.
TEST(DiplomacyDatc, V31Conformance) {
  const std::string path = std::string(KIBITZ_TEST_DATA) + "/diplomacy/datc_v3_1.txt";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " not found";
  run_conformance(path, none(), 160);
}

// The small file the command-line tests use passes whole.
TEST(DiplomacyDatc, SmallFilePasses) {
  run_conformance(std::string(KIBITZ_TEST_DATA) + "/diplomacy/datc_small.txt", none(), 3);
}

// ---------------------------------------------------------------------------------------
// The reader.

std::string read_error(const std::string& text) {
  const auto f = read_datc(text, "t.txt");
  EXPECT_FALSE(f) << text;
  return f ? std::string() : f.error().message;
}

constexpr const char* kJdipCase = R"(VARIANT_ALL Standard
# a comment
CASE 6.A.11 simple bounce
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
	Austria: A vie
	Italy: A ven   # trailing comment
ORDERS
	Austria: A vie-tyr
	Italy: A ven-tyr
POSTSTATE_SAME
END
)";

TEST(DiplomacyDatc, ReadsJdipFormat) {
  const auto f = read_datc(kJdipCase, "t.txt");
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->format, DatcFormat::kJdip);
  ASSERT_EQ(f->cases.size(), 1u);
  const DatcCase& c = f->cases[0];
  EXPECT_EQ(c.id, "6.A.11 simple bounce");
  EXPECT_EQ(c.line, 3);
  EXPECT_EQ(c.phase, "Spring 1901, Movement");
  ASSERT_EQ(c.units.size(), 2u);
  EXPECT_EQ(c.units[1].text, "Italy: A ven");
  EXPECT_EQ(c.units[1].line, 7);
  EXPECT_EQ(c.orders.size(), 2u);
  EXPECT_TRUE(c.post_same);
  const DatcOutcome o = run_datc_case(sm(), f->format, c);
  EXPECT_TRUE(o.passed);
  EXPECT_FALSE(o.trace.empty());
}

TEST(DiplomacyDatc, ReadsTedDriggsFormat) {
  const auto f = read_datc(
      "# header\nCASE 6.A.1 t6a01_move_to_non_neighbor_fails\nPHASE Main\nEDITION any\n"
      "ORDER F ENG F nth - pic\nEND\n",
      "t.txt");
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->format, DatcFormat::kTedDriggs);
  ASSERT_EQ(f->cases.size(), 1u);
  const DatcCase& c = f->cases[0];
  EXPECT_EQ(c.id, "6.A.1");
  EXPECT_EQ(c.name, "t6a01_move_to_non_neighbor_fails");
  ASSERT_EQ(c.orders.size(), 1u);
  EXPECT_EQ(c.orders[0].expect, 'F');
  EXPECT_EQ(c.orders[0].text, "ENG F nth - pic");
  EXPECT_TRUE(run_datc_case(sm(), f->format, c).passed);
}

TEST(DiplomacyDatc, MalformedJdipNamesTheLine) {
  EXPECT_EQ(read_error("CASE x\nPRESTATE\n\tEngland: F nth\n"), "t.txt:1: case 'x' has no END");
  EXPECT_EQ(read_error("CASE x\nPOSTSTATE_SAME\nEND\nORDERS\nEND\n"),
            "t.txt:4: ORDERS outside a case");
  EXPECT_EQ(read_error("CASE x\nPRESTATE_FOO\nEND\n"), "t.txt:2: unknown keyword 'PRESTATE_FOO'");
  EXPECT_EQ(read_error("CASE x\nCASE y\nEND\n"),
            "t.txt:2: CASE inside case 'x' (line 1): END missing");
  EXPECT_EQ(read_error("CASE x\n\tEngland: F nth\nEND\n"),
            "t.txt:2: 'England: F nth' outside a section (PRESTATE, ORDERS, POSTSTATE, ...)");
  EXPECT_EQ(read_error("CASE x\nPRESTATE\n\tEngland: nth\nEND\n"),
            "t.txt:3: expected a unit 'Power: A|F province' ('England: nth')");
  EXPECT_EQ(read_error("CASE x\nPRESTATE_RESULTS\n\tEngland: F nth H\nEND\n"),
            "t.txt:3: a result starts with SUCCESS: or FAILURE: ('England: F nth H')");
  EXPECT_EQ(read_error("CASE x\nPRESTATE_SETPHASE Summer 1901, Movement\nEND\n"),
            "t.txt:2: bad phase 'Summer 1901, Movement' (expected e.g. S1901M or 'Spring 1901 "
            "movement')");
  EXPECT_EQ(read_error("VARIANT_ALL Chaos\nCASE x\nEND\n"),
            "t.txt:1: variant 'Chaos' is not supported (only Standard)");
  EXPECT_EQ(read_error("CASE x\nORDERS\nORDERS\nEND\n"), "t.txt:3: a second ORDERS in case 'x'");
  EXPECT_EQ(read_error("CASE x\nPOSTSTATE_SAME\nPOSTSTATE\nEND\n"),
            "t.txt:3: POSTSTATE_SAME and POSTSTATE in one case");
  EXPECT_EQ(read_error("CASE x\nORDERS\nEND\n"),
            "t.txt:3: case 'x' has neither POSTSTATE nor POSTSTATE_SAME");
  EXPECT_EQ(read_error(""), "t.txt: no DATC cases (no CASE line)");
  EXPECT_EQ(read_error("# only a comment\n"), "t.txt: no DATC cases (no CASE line)");
}

TEST(DiplomacyDatc, MalformedTedDriggsNamesTheLine) {
  EXPECT_EQ(read_error("CASE 6.A.1 a\nPHASE Main\nORDER X ENG F nth H\nEND\n"),
            "t.txt:3: ORDER 'X ENG F nth H': expected S, F or ? first");
  EXPECT_EQ(read_error("CASE 6.A.1 a\nPHASE Later\nEND\n"),
            "t.txt:2: PHASE 'Later': expected Main, Retreat or Build");
  EXPECT_EQ(read_error("CASE 6.A.1 a\nPHASE Main\nOWNER ber RUS\nEND\n"),
            "t.txt:3: OWNER in a Main case");
  EXPECT_EQ(read_error("CASE 6.A.1 a\nPHASE Main\nPRE S ENG F nth H\nEND\n"),
            "t.txt:3: PRE in a Main case");
  EXPECT_EQ(read_error("CASE 6.A.1 a\nPHASE Build\nUNIT RUS stp\nEND\n"),
            "t.txt:3: UNIT 'RUS stp': expected NAT A|F province");
  EXPECT_EQ(read_error("CASE 6.A.1 a\nPHASE Main\nBOGUS 1\nEND\n"),
            "t.txt:3: unknown keyword 'BOGUS'");
  EXPECT_EQ(read_error("CASE 6.A.1 a\nORDER S ENG F nth H\nEND\n"), "t.txt:2: ORDER before PHASE");
  EXPECT_EQ(read_error("CASE 6.A.1 a\nPHASE Main\nEND\nPHASE Main\n"),
            "t.txt:4: PHASE outside a case");
  EXPECT_EQ(read_error("CASE 6.A.1 a\nEDITION any\nEND\n"), "t.txt:3: case '6.A.1' has no PHASE");
}

TEST(DiplomacyDatc, MissingFileIsAnError) {
  const auto f = read_datc_file("/nonexistent/datc.txt");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().message, "/nonexistent/datc.txt: cannot read the file");
}

// ---------------------------------------------------------------------------------------
// The runner.

DatcOutcome run_text(const std::string& text) {
  const auto f = read_datc(text, "t.txt");
  EXPECT_TRUE(f) << (f ? std::string() : f.error().message);
  if (!f || f->cases.empty()) return {};
  return run_datc_case(sm(), f->format, f->cases[0]);
}

TEST(DiplomacyDatc, WrongExpectationIsReported) {
  const auto o = run_text(
      "CASE x\nPRESTATE\n\tAustria: A vie\n\tItaly: A ven\nORDERS\n\tAustria: A vie-tyr\n"
      "POSTSTATE\n\tAustria: A vie\n\tItaly: A ven\nEND\n");
  EXPECT_FALSE(o.passed);
  EXPECT_EQ(o.differences,
            (std::vector<std::string>{"missing Austria A VIE", "unexpected Austria A TYR"}));
}

TEST(DiplomacyDatc, UnknownNamesFailTheCaseNamingTheLine) {
  auto o = run_text("CASE x\nPRESTATE\n\tGermnay: A mun\nORDERS\nPOSTSTATE_SAME\nEND\n");
  EXPECT_FALSE(o.passed);
  EXPECT_EQ(o.differences, (std::vector<std::string>{"line 3: unknown power 'Germnay'"}));
  o = run_text(
      "CASE x\nPRESTATE\n\tGermany: A mun\nORDERS\n\tGermany: A mun-xyz\nPOSTSTATE_SAME\nEND\n");
  EXPECT_EQ(o.differences, (std::vector<std::string>{"line 5: unknown province 'xyz'"}));
  o = run_text("CASE x\nPRESTATE\n\tGermany: F mun\nORDERS\nPOSTSTATE_SAME\nEND\n");
  EXPECT_EQ(o.differences, (std::vector<std::string>{"line 3: fleet in land province mun"}));
  o = run_text("CASE x\nPRESTATE\n\tRussia: F stp\nORDERS\nPOSTSTATE_SAME\nEND\n");
  EXPECT_EQ(o.differences, (std::vector<std::string>{"line 3: a fleet in stp needs a coast"}));
}

// The results of the movement phase give the attacker's origin and the standoffs: DATC
// 6.H.6, a retreat into a standoff province fails; 6.H.11, a unit dislodged by a convoyed
// army may retreat to the army's origin.
TEST(DiplomacyDatc, RetreatCasesUseThePreviousResults) {
  auto o = run_text(R"(CASE 6.H.6
PRESTATE_SETPHASE Spring 1901, Retreat
PRESTATE
	Austria: A bud
	Austria: A vie
	Germany: A mun
	Germany: A sil
PRESTATE_DISLODGED
	Italy: A vie
PRESTATE_RESULTS
	SUCCESS: Austria: A bud S A tri-vie
	SUCCESS: Austria: A tri-vie
	FAILURE: Germany: A mun-boh
	FAILURE: Germany: A sil-boh
	FAILURE: Italy: A vie H
ORDERS
	Italy: A vie-boh
POSTSTATE
	Austria: A bud
	Austria: A vie
	Germany: A mun
	Germany: A sil
END
)");
  EXPECT_TRUE(o.passed) << ::testing::PrintToString(o.differences);
  o = run_text(R"(CASE 6.H.11
PRESTATE_SETPHASE Spring 1901, Retreat
PRESTATE
	France: A mar
	France: F mao
	France: F wes
	France: F lyo
PRESTATE_DISLODGED
	Italy: A mar
PRESTATE_RESULTS
	SUCCESS: France: A gas-mar via convoy
	SUCCESS: France: F mao C A gas-mar
	SUCCESS: France: F wes C A gas-mar
	SUCCESS: France: F lyo C A gas-mar
	FAILURE: Italy: A mar H
ORDERS
	Italy: A mar-gas
POSTSTATE
	France: A mar
	France: F mao
	France: F wes
	France: F lyo
	Italy: A gas
END
)");
  EXPECT_TRUE(o.passed) << ::testing::PrintToString(o.differences);
}

// godip writes the winter adjustment as "Fall 1901, Adjustment".
TEST(DiplomacyDatc, FallAdjustmentIsTheWinter) {
  const auto o = run_text(R"(CASE 6.I.3
PRESTATE_SETPHASE Fall 1901, Adjustment
PRESTATE_SUPPLYCENTER_OWNERS
	Germany: A ber
	Germany: A mun
PRESTATE
	Germany: A ber
ORDERS
	Germany: Build A mun
POSTSTATE
	Germany: A ber
	Germany: A mun
END
)");
  EXPECT_TRUE(o.passed) << ::testing::PrintToString(o.differences);
}

// TedDriggs retreat cases: the PRE orders are the movement phase before the retreats.
TEST(DiplomacyDatc, TedDriggsRetreatAndBuild) {
  auto o = run_text(R"(CASE 6.H.5 t6h05
PHASE Retreat
EDITION any
PRE ? RUS F con S F bla - ank
PRE S RUS F bla - ank
PRE F TUR F ank H
ORDER F TUR F ank - bla
END
)");
  EXPECT_TRUE(o.passed) << ::testing::PrintToString(o.differences);
  // A wrong expectation for the movement phase is reported with its phase.
  o = run_text(R"(CASE 6.H.5 t6h05
PHASE Retreat
EDITION any
PRE S RUS F bla - ank
PRE S TUR F ank H
ORDER F TUR F ank - bla
END
)");
  EXPECT_EQ(o.differences, (std::vector<std::string>{"movement: Russia: F BLA - ANK: expected "
                                                     "SUCCEEDS, fails",
                                                     "movement: no unit was dislodged"}));
  o = run_text(R"(CASE 6.J.3 t6j03
PHASE Build
EDITION 2023
UNIT RUS A lvn
UNIT RUS A pru
OWNER war GER
OWNER mos GER
OWNER sev TUR
CD RUS A pru
END
)");
  EXPECT_TRUE(o.passed) << ::testing::PrintToString(o.differences);
  o = run_text(R"(CASE 6.J.3 t6j03
PHASE Build
EDITION 2023
UNIT RUS A lvn
UNIT RUS A pru
OWNER war GER
OWNER mos GER
OWNER sev TUR
CD RUS A lvn
END
)");
  EXPECT_EQ(o.differences, (std::vector<std::string>{"civil disorder: missing Russia A LVN",
                                                     "civil disorder: unexpected Russia A PRU"}));
}

TEST(DiplomacyDatc, OtherEditionsAreSkipped) {
  const auto o = run_text("CASE 6.J.11 a\nPHASE Build\nEDITION 1971\nUNIT ITA A war\nEND\n");
  EXPECT_TRUE(o.skipped);
  EXPECT_EQ(o.skip_reason, "edition 1971");
}

// ---------------------------------------------------------------------------------------
// Order lines and one adjudicated phase.

TEST(DiplomacyDatc, OrderLinePowers) {
  State s = initial_state(sm());
  auto l = parse_order_line(sm(), s, "England: F lon - nth");
  ASSERT_TRUE(l) << l.error().message;
  EXPECT_EQ(sm().power_name(l->power), "England");
  l = parse_order_line(sm(), s, "ENG F lon - nth");
  ASSERT_TRUE(l);
  EXPECT_EQ(sm().power_name(l->power), "England");
  l = parse_order_line(sm(), s, "A par - bur");  // the owner of the unit in par
  ASSERT_TRUE(l);
  EXPECT_EQ(sm().power_name(l->power), "France");
  EXPECT_EQ(format_order(sm(), l->order), "France: A PAR - BUR");
  l = parse_order_line(sm(), s, "Germnay: A mun H");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().message, "unknown power 'Germnay'");
  l = parse_order_line(sm(), s, "A bur - par");
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error().message,
            "no unit in bur to take the power from: write the power first (Austria: A BUR - "
            "PAR)");
  s.phase = Phase{Season::kWinter, PhaseType::kAdjustment, 1901};
  l = parse_order_line(sm(), s, "Build A mos");  // the power whose home centre it is
  ASSERT_TRUE(l);
  EXPECT_EQ(sm().power_name(l->power), "Russia");
  l = parse_order_line(sm(), s, "WAIVE");
  ASSERT_FALSE(l);
}

TEST(DiplomacyDatc, AdjudicatePhaseReport) {
  State s = initial_state(sm());
  std::vector<OrderLine> orders;
  for (const char* text : {"A par - bur", "Germany: A mun - bur", "England: F lon - par"})
    orders.push_back(*parse_order_line(sm(), s, text));
  const PhaseReport r = adjudicate_phase(sm(), s, orders);
  ASSERT_GE(r.lines.size(), 3u);
  EXPECT_EQ(r.lines[0], "France: A PAR - BUR: FAILS");
  EXPECT_EQ(r.lines[1], "Germany: A MUN - BUR: FAILS");
  EXPECT_EQ(r.lines[2],
            "England: F LON - PAR: FAILS (illegal: fleets cannot enter land province par; "
            "treated as F LON H, which succeeds)");
  EXPECT_EQ(r.succeeded, (std::vector<bool>{false, false, false}));
  EXPECT_NE(std::find(r.lines.begin(), r.lines.end(), "standoff: BUR"), r.lines.end());
  EXPECT_EQ(r.lines.back(), "next phase: F1901M");
  EXPECT_EQ(r.next.phase, (Phase{Season::kFall, PhaseType::kMovement, 1901}));
}

TEST(DiplomacyDatc, SecondOrderForAUnitIsDroppedWithItsReason) {
  // Issue 22 repro: the second order printed a bare FAILS. The first order stands: the fleet
  // moves (London to the North Sea, unopposed).
  State s = initial_state(sm());
  std::vector<OrderLine> orders;
  for (const char* text : {"England: F lon - nth", "England: F lon H"})
    orders.push_back(*parse_order_line(sm(), s, text));
  const PhaseReport r = adjudicate_phase(sm(), s, orders);
  ASSERT_GE(r.lines.size(), 2u);
  EXPECT_EQ(r.lines[0], "England: F LON - NTH: SUCCEEDS");
  EXPECT_EQ(r.lines[1],
            "England: F LON H: FAILS (illegal: a second order for the unit in LON; the first one "
            "stands; dropped)");
}

}  // namespace datc_test
}  // namespace kibitz::diplomacy

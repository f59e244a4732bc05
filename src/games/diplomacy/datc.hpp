#pragma once
// DATC case files: reading them and running each case through the PhaseResolver.
//
// Two formats, told apart by their keywords (docs/diplomacy.md, "DATC files"):
//  - the jDip text format that godip also uses (CASE, PRESTATE_SETPHASE, PRESTATE,
//    PRESTATE_SUPPLYCENTER_OWNERS, PRESTATE_DISLODGED, PRESTATE_RESULTS, ORDERS, POSTSTATE,
//    POSTSTATE_DISLODGED, POSTSTATE_SAME, END, VARIANT_ALL): a case states the position
//    before and after the phase; tests/data/diplomacy/datc_v3_1.txt is written in it too;
//  - the flattened TedDriggs format (derived/datc_v3_teddriggs.txt of the shared data: CASE,
//    PHASE, EDITION, IGNORE, UNIT, OWNER, PRE, ORDER, CD, END): a case states whether each
//    order succeeds.
//
// Reading checks the structure only (keywords, sections, expectation letters, phases); names
// are resolved when a case runs, so one misspelt power fails its case, not the whole file.
// Every error is one line naming the file and the line ("datc.txt:12: ORDERS outside a
// case"). Not a hot path: the runner allocates freely.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "games/diplomacy/map.hpp"
#include "games/diplomacy/orders.hpp"
#include "games/diplomacy/state.hpp"

namespace kibitz::diplomacy {

enum class DatcFormat { kJdip, kTedDriggs };

// A line of a case: its number in the file and its text (trimmed, comment removed; without
// the keyword and the expectation letter for TedDriggs lines, without SUCCESS:/FAILURE: for
// jDip results).
// `expect` is 'S' (succeeds), 'F' (fails) or '?' (not asserted) for orders whose outcome the
// file states: TedDriggs PRE/ORDER lines and jDip PRESTATE_RESULTS; '?' elsewhere.
struct DatcLine {
  int line = 0;
  std::string text;
  char expect = '?';
};

struct DatcCase {
  int line = 0;      // of the CASE line
  std::string id;    // jDip: the whole CASE text; TedDriggs: the DATC number ("6.A.5")
  std::string name;  // TedDriggs: the case's name ("t6a05_move_to_own_sector_with_convoy")
  // jDip: the PRESTATE_SETPHASE text, as written ("Fall 1901, Adjustment"; default spring
  // 1901 movement). TedDriggs: Main, Retreat or Build.
  std::string phase;
  std::string edition;  // TedDriggs: any, 1971, 1982, 2023, dptg
  std::string ignore;   // TedDriggs: why the source marks the case as not runnable
  // jDip: PRESTATE, PRESTATE_DISLODGED, PRESTATE_SUPPLYCENTER_OWNERS ("Power: A loc") and
  // PRESTATE_RESULTS ("Power: order", expect S or F). TedDriggs: UNIT ("NAT A loc"), OWNER
  // ("loc NAT") and PRE ("NAT A loc order", the preceding movement phase of a Retreat case).
  std::vector<DatcLine> units, dislodged, owners, results;
  bool owners_given = false;  // jDip: PRESTATE_SUPPLYCENTER_OWNERS present (even if empty)
  // jDip: "Power: order" (or an order without its power). TedDriggs: "NAT A loc order".
  std::vector<DatcLine> orders;
  // jDip: POSTSTATE and POSTSTATE_DISLODGED ("Power: A loc"); POSTSTATE_SAME. TedDriggs: CD
  // lines in `post` ("NAT A loc", units removed by civil disorder).
  std::vector<DatcLine> post, post_dislodged;
  bool post_same = false;
};

struct DatcFile {
  DatcFormat format = DatcFormat::kJdip;
  std::string source;  // the name errors and results use
  std::vector<DatcCase> cases;
};

// Parses the text of a case file; `source` names it in errors ("source:line: ...").
Result<DatcFile> read_datc(std::string_view text, std::string_view source);
// Reads a file; a missing or unreadable file is an error naming the path.
Result<DatcFile> read_datc_file(const std::string& path);

struct DatcOptions {
  // TedDriggs editions run; cases written for other rulebooks are skipped. The DATC's own
  // preferences (docs/diplomacy.md, "DATC preferences") are the 2023 rulebook's; 1982 cases
  // assert nothing that differs.
  std::vector<std::string> editions = {"any", "2023", "1982"};
};

struct DatcOutcome {
  bool passed = false;
  bool skipped = false;     // not run: a TedDriggs edition outside DatcOptions::editions
  std::string skip_reason;  // "edition 1971"
  // One line per difference from the expectation, or why the case could not run ("line 12:
  // unknown power 'Germnay'").
  std::vector<std::string> differences;
  // What happened, one line per order and per change ("ENG A LON - NTH: SUCCEEDS"), for
  // `kibitz diplomacy datc -v`.
  std::vector<std::string> trace;
};

DatcOutcome run_datc_case(const Map& map, DatcFormat format, const DatcCase& c,
                          const DatcOptions& options = {});

// An order line as people write them: "England: A LON H", "ENG A LON - NTH", "A LON H".
// Without a power the power is the owner of the unit at the order's location (in a retreat
// phase the dislodged unit there; for a build the power whose home centre it is). The order is
// parsed for the state's phase; errors are one line ("unknown power 'Germnay'", "no unit in
// lon to take the power from: write it first (England: A LON H)").
struct OrderLine {
  PowerId power = kNoPower;
  Order order;  // with order.power set to `power`, so format_order() names it
};
Result<OrderLine> parse_order_line(const Map& map, const State& s, std::string_view text);

// One phase resolved from the orders as given (effective_order() of each, then
// PhaseResolver), described as `kibitz diplomacy adjudicate` prints it: each order with
// SUCCEEDS or FAILS (an illegal one with the reason and what was resolved instead: a hold, or
// nothing), the holds of units without an order, the dislodged units with their attacker's
// origin, standoffs, disbanded retreats, civil disorder, and the next phase.
struct PhaseReport {
  std::vector<std::string> lines;
  std::vector<bool> succeeded;  // of each given order
  State next;
};
PhaseReport adjudicate_phase(const Map& map, const State& s, std::span<const OrderLine> orders);

}  // namespace kibitz::diplomacy

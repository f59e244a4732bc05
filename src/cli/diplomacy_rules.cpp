// kibitz diplomacy adjudicate: one phase from a state file and an order file.
// kibitz diplomacy datc: every case of a DATC case file (src/games/diplomacy/datc.hpp).
#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/diplomacy.hpp"
#include "core/text.hpp"
#include "games/diplomacy/datc.hpp"

namespace kibitz::cli {

// Named (and inside an anonymous namespace): the program is a unity build.
namespace {
namespace diplomacy_rules {

namespace dip = kibitz::diplomacy;

Result<std::string> read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("{}: cannot read the file", path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

struct AdjudicateArgs {
  std::string state;
  std::string orders;
};

constexpr const char* kAdjudicateExamples = R"(
STATE.json is a state in Kibitz's JSON form (docs/diplomacy.md); ORDERS.txt has one order a
line, blank lines and # comments allowed, with or without its power:
  England: F LON - NTH
  ENG A LVP - YOR
  F EDI - NWG            (the power is the owner of the unit in EDI)
  Russia: BUILD A MOS    (a build without a power: the power whose home centre it is)
Prints each order with SUCCEEDS or FAILS (an illegal order with the reason, and whether the
unit held instead or the order was dropped), the dislodged units and where their attacker came
from, then the next state's JSON.

Example:
  kibitz diplomacy adjudicate tests/data/diplomacy/adjudicate_state.json \
      tests/data/diplomacy/adjudicate_orders.txt
)";

int run_adjudicate(const AdjudicateArgs& a) {
  const dip::Map& map = dip::standard_map();
  auto state_text = read_text(a.state);
  if (!state_text) return report_error(state_text.error().message);
  auto state = dip::read_state_json(map, *state_text);
  if (!state) return report_error(fmt::format("{}: {}", a.state, state.error().message));
  auto orders_text = read_text(a.orders);
  if (!orders_text) return report_error(orders_text.error().message);
  std::vector<dip::OrderLine> orders;
  std::istringstream in(*orders_text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::string_view text = line;
    if (const auto hash = text.find('#'); hash != std::string_view::npos)
      text = text.substr(0, hash);
    text = trim(text);
    if (text.empty()) continue;
    auto order = dip::parse_order_line(map, *state, text);
    if (!order)
      return report_error(fmt::format("{}:{}: {}", a.orders, number, order.error().message));
    orders.push_back(*order);
  }
  const dip::PhaseReport report = dip::adjudicate_phase(map, *state, orders);
  fmt::print("{} {}\n", dip::phase_code(state->phase), dip::phase_name(state->phase));
  for (const auto& l : report.lines) fmt::print("{}\n", l);
  fmt::print("{}", dip::write_state_json(map, report.next));  // ends with a newline
  return 0;
}

struct DatcArgs {
  std::string file;
  bool verbose = false;
};

constexpr const char* kDatcExamples = R"(
Both DATC file formats are read (docs/diplomacy.md, "DATC files"): the jDip/godip text format
(CASE, PRESTATE, ORDERS, POSTSTATE, ..., END) and the flattened TedDriggs format (CASE, PHASE,
UNIT, ORDER S|F|?, ..., END). One line per case: PASS, FAIL with what differed, or SKIP (a
TedDriggs case for a rulebook edition we do not follow). -v also prints every order's outcome.
Exit status 0 when every case run passes, 1 otherwise.

Examples:
  kibitz diplomacy datc tests/data/diplomacy/datc_v3_1.txt
  kibitz diplomacy datc ../shared/data/diplomacy/derived/datc_v3_teddriggs.txt -v
)";

int run_datc(const DatcArgs& a) {
  auto file = dip::read_datc_file(a.file);
  if (!file) return report_error(file.error().message);
  const dip::Map& map = dip::standard_map();
  int passed = 0, failed = 0;
  for (const auto& c : file->cases) {
    const dip::DatcOutcome o = dip::run_datc_case(map, file->format, c);
    const std::string id = c.name.empty() ? c.id : c.id + " " + c.name;
    if (o.skipped) {
      fmt::print("SKIP {} ({})\n", id, o.skip_reason);
      continue;
    }
    ++(o.passed ? passed : failed);
    std::string line = fmt::format("{} {}", o.passed ? "PASS" : "FAIL", id);
    for (std::size_t i = 0; i < o.differences.size(); ++i)
      line += (i == 0 ? ": " : "; ") + o.differences[i];
    fmt::print("{}\n", line);
    if (a.verbose)
      for (const auto& t : o.trace) fmt::print("    {}\n", t);
  }
  fmt::print("{} passed, {} failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

}  // namespace diplomacy_rules
}  // namespace

SubRunners add_diplomacy_rules(CLI::App& diplomacy) {
  using namespace diplomacy_rules;
  auto adj = std::make_shared<AdjudicateArgs>();
  auto* a = diplomacy.add_subcommand(
      "adjudicate", "resolve one phase: a state (JSON) and its orders; prints the next state");
  a->footer(kAdjudicateExamples);
  a->add_option("state", adj->state, "the state, JSON (docs/diplomacy.md)")->required();
  a->add_option("orders", adj->orders, "the orders, one a line")->required();

  auto datc = std::make_shared<DatcArgs>();
  auto* d = diplomacy.add_subcommand("datc", "run every case of a DATC case file");
  d->footer(kDatcExamples);
  d->add_option("file", datc->file, "the case file (jDip/godip or TedDriggs format)")->required();
  d->add_flag("-v,--verbose", datc->verbose, "print every order's outcome under its case");

  return {{a, [adj] { return run_adjudicate(*adj); }}, {d, [datc] { return run_datc(*datc); }}};
}

}  // namespace kibitz::cli

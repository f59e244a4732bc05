#include "games/diplomacy/datc.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <optional>
#include <sstream>
#include <utility>

#include "core/text.hpp"
#include "games/diplomacy/phases.hpp"

namespace kibitz::diplomacy {

namespace {

// ---------------------------------------------------------------------------------------
// Reading.

constexpr std::array<std::string_view, 10> kJdipKeywords = {"PRESTATE_SETPHASE",
                                                            "PRESTATE",
                                                            "PRESTATE_SUPPLYCENTER_OWNERS",
                                                            "PRESTATE_DISLODGED",
                                                            "PRESTATE_RESULTS",
                                                            "ORDERS",
                                                            "POSTSTATE",
                                                            "POSTSTATE_DISLODGED",
                                                            "POSTSTATE_SAME",
                                                            "VARIANT_ALL"};
constexpr std::array<std::string_view, 8> kTedKeywords = {"PHASE", "EDITION", "IGNORE", "UNIT",
                                                          "OWNER", "PRE",     "ORDER",  "CD"};

bool one_of(std::string_view w, std::span<const std::string_view> set) {
  return std::find(set.begin(), set.end(), w) != set.end();
}

// The line without its comment and surrounding blanks.
std::string_view content(std::string_view line) {
  const auto hash = line.find('#');
  if (hash != std::string_view::npos) line = line.substr(0, hash);
  return trim(line);
}

std::pair<std::string_view, std::string_view> first_word(std::string_view s) {
  const auto blank = s.find_first_of(" \t");
  if (blank == std::string_view::npos) return {s, {}};
  return {s.substr(0, blank), trim(s.substr(blank))};
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text = text.substr(nl + 1);
  }
  return lines;
}

// A word made of capitals and underscores with an underscore in it looks like a keyword
// (PRESTATE_FOO): it is refused rather than read as a unit line.
bool looks_like_keyword(std::string_view w) {
  if (w.find('_') == std::string_view::npos) return false;
  return std::all_of(w.begin(), w.end(), [](char c) { return (c >= 'A' && c <= 'Z') || c == '_'; });
}

Result<DatcFormat> detect_format(const std::vector<std::string_view>& lines,
                                 std::string_view source) {
  bool any_case = false;
  for (const auto raw : lines) {
    const auto w = first_word(content(raw)).first;
    if (one_of(w, kJdipKeywords)) return DatcFormat::kJdip;
    if (one_of(w, kTedKeywords)) return DatcFormat::kTedDriggs;
    any_case = any_case || w == "CASE";
  }
  if (!any_case) return fail("{}: no DATC cases (no CASE line)", source);
  return DatcFormat::kJdip;
}

// "Spring 1901, Movement", "Fall 1901, Adjustment" (godip writes the winter adjustment as
// fall: any season with an adjustment is that year's winter) or "S1901M".
Result<Phase> parse_jdip_phase(std::string_view text) {
  const std::string t = to_lower(text);
  if (t.find("adjust") != std::string::npos || t.find("build") != std::string::npos) {
    for (const std::string_view season : {"spring", "autumn", "fall", "summer"})
      if (t.starts_with(season)) return parse_phase("winter" + t.substr(season.size()));
  }
  return parse_phase(text);
}

// What both formats' readers share: the line loop, the open case, errors naming file:line.
// Derived provides `Result<void> line(std::string_view)` for each non-empty line.
template <class Derived>
class CaseReader {
 public:
  explicit CaseReader(std::string_view source) : source_(source) {}

  Result<std::vector<DatcCase>> read(const std::vector<std::string_view>& lines) {
    for (std::size_t i = 0; i < lines.size(); ++i) {
      line_ = static_cast<int>(i) + 1;
      const std::string_view s = content(lines[i]);
      if (s.empty()) continue;
      if (auto r = static_cast<Derived*>(this)->line(s); !r) return tl::unexpected(r.error());
    }
    if (open_) return fail("{}:{}: case '{}' has no END", source_, current_.line, current_.id);
    return std::move(cases_);
  }

 protected:
  template <class... Args>
  tl::unexpected<Error> error(fmt::format_string<Args...> f, Args&&... args) const {
    return fail("{}:{}: {}", source_, line_, fmt::format(f, std::forward<Args>(args)...));
  }

  std::string_view source_;
  int line_ = 0;
  bool open_ = false;
  DatcCase current_;
  std::vector<DatcCase> cases_;
};

class JdipReader : public CaseReader<JdipReader> {
 public:
  using CaseReader::CaseReader;

 private:
  friend class CaseReader<JdipReader>;

  enum class Section { kNone, kPre, kOwners, kDislodged, kResults, kOrders, kPost, kPostDislodged };

  Result<void> line(std::string_view s) {
    const auto [w, rest] = first_word(s);
    if (w == "VARIANT_ALL") {
      if (open_) return error("VARIANT_ALL inside case '{}'", current_.id);
      if (to_lower(rest) != "standard")
        return error("variant '{}' is not supported (only Standard)", rest);
      return {};
    }
    if (w == "CASE") {
      if (open_)
        return error("CASE inside case '{}' (line {}): END missing", current_.id, current_.line);
      if (rest.empty()) return error("CASE without a name");
      current_ = DatcCase{};
      current_.line = line_;
      current_.id = std::string(rest);
      open_ = true;
      seen_.fill(false);
      section_ = Section::kNone;
      return {};
    }
    if (w == "END") {
      if (!open_) return error("END outside a case");
      if (!rest.empty()) return error("unexpected '{}' after END", rest);
      if (!current_.post_same && !seen_[static_cast<int>(Section::kPost)])
        return error("case '{}' has neither POSTSTATE nor POSTSTATE_SAME", current_.id);
      cases_.push_back(std::move(current_));
      open_ = false;
      return {};
    }
    if (one_of(w, kJdipKeywords)) {
      if (!open_) return error("{} outside a case", w);
      if (w == "PRESTATE_SETPHASE") {
        if (auto p = parse_jdip_phase(rest); !p) return error("{}", p.error().message);
        current_.phase = std::string(rest);
        return {};
      }
      if (!rest.empty()) return error("unexpected '{}' after {}", rest, w);
      if (w == "POSTSTATE_SAME") {
        if (seen_[static_cast<int>(Section::kPost)])
          return error("POSTSTATE_SAME and POSTSTATE in one case");
        current_.post_same = true;
        section_ = Section::kNone;
        return {};
      }
      const Section sec = w == "PRESTATE"                       ? Section::kPre
                          : w == "PRESTATE_SUPPLYCENTER_OWNERS" ? Section::kOwners
                          : w == "PRESTATE_DISLODGED"           ? Section::kDislodged
                          : w == "PRESTATE_RESULTS"             ? Section::kResults
                          : w == "ORDERS"                       ? Section::kOrders
                          : w == "POSTSTATE"                    ? Section::kPost
                                                                : Section::kPostDislodged;
      if (seen_[static_cast<int>(sec)]) return error("a second {} in case '{}'", w, current_.id);
      if (sec == Section::kPost && current_.post_same)
        return error("POSTSTATE_SAME and POSTSTATE in one case");
      seen_[static_cast<int>(sec)] = true;
      if (sec == Section::kOwners) current_.owners_given = true;
      section_ = sec;
      return {};
    }
    if (looks_like_keyword(w)) return error("unknown keyword '{}'", w);
    if (!open_) return error("'{}' outside a case", s);
    if (section_ == Section::kNone)
      return error("'{}' outside a section (PRESTATE, ORDERS, POSTSTATE, ...)", s);
    DatcLine l{line_, std::string(s), '?'};
    switch (section_) {
      case Section::kResults: {
        const auto colon = s.find(':');
        const std::string head =
            to_upper(trim(s.substr(0, colon == std::string_view::npos ? 0 : colon)));
        if (head != "SUCCESS" && head != "FAILURE")
          return error("a result starts with SUCCESS: or FAILURE: ('{}')", s);
        l.expect = head == "SUCCESS" ? 'S' : 'F';
        l.text = std::string(trim(s.substr(colon + 1)));
        if (l.text.empty()) return error("{} without an order", head);
        current_.results.push_back(std::move(l));
        return {};
      }
      case Section::kOrders:
        current_.orders.push_back(std::move(l));
        return {};
      case Section::kOwners:
        current_.owners.push_back(std::move(l));
        return {};
      default:
        break;
    }
    // A unit: "Power: A loc", also without the colon (godip writes "Italy F gol" once).
    const auto colon = s.find(':');
    auto words = split_blanks(colon == std::string_view::npos ? s : s.substr(colon + 1));
    if (colon == std::string_view::npos && !words.empty()) words.erase(words.begin());
    if (words.size() < 2 || !(to_upper(words[0]) == "A" || to_upper(words[0]) == "F" ||
                              to_lower(words[0]) == "army" || to_lower(words[0]) == "fleet"))
      return error("expected a unit 'Power: A|F province' ('{}')", s);
    auto& list = section_ == Section::kPre         ? current_.units
                 : section_ == Section::kDislodged ? current_.dislodged
                 : section_ == Section::kPost      ? current_.post
                                                   : current_.post_dislodged;
    list.push_back(std::move(l));
    return {};
  }

  Section section_ = Section::kNone;
  std::array<bool, 8> seen_{};
};

class TedReader : public CaseReader<TedReader> {
 public:
  using CaseReader::CaseReader;

 private:
  friend class CaseReader<TedReader>;

  Result<void> line(std::string_view s) {
    const auto [w, rest] = first_word(s);
    if (w == "CASE") {
      if (open_)
        return error("CASE inside case '{}' (line {}): END missing", current_.id, current_.line);
      const auto [id, name] = first_word(rest);
      if (id.empty()) return error("CASE without an id");
      current_ = DatcCase{};
      current_.line = line_;
      current_.id = std::string(id);
      current_.name = std::string(name);
      open_ = true;
      return {};
    }
    if (!one_of(w, kTedKeywords) && w != "END") return error("unknown keyword '{}'", w);
    if (!open_) return error("{} outside a case", w);
    if (w == "END") {
      if (!rest.empty()) return error("unexpected '{}' after END", rest);
      if (current_.phase.empty()) return error("case '{}' has no PHASE", current_.id);
      cases_.push_back(std::move(current_));
      open_ = false;
      return {};
    }
    if (w == "PHASE") {
      if (rest != "Main" && rest != "Retreat" && rest != "Build")
        return error("PHASE '{}': expected Main, Retreat or Build", rest);
      if (!current_.phase.empty()) return error("a second PHASE in case '{}'", current_.id);
      current_.phase = std::string(rest);
      return {};
    }
    if (rest.empty()) return error("{} without a value", w);
    if (w == "EDITION") {
      current_.edition = std::string(rest);
      return {};
    }
    if (w == "IGNORE") {
      current_.ignore = std::string(rest);
      return {};
    }
    if (current_.phase.empty()) return error("{} before PHASE", w);
    const auto words = split_blanks(rest);
    DatcLine l{line_, std::string(rest), '?'};
    if (w == "UNIT" || w == "CD") {
      if (words.size() != 3 || (words[1] != "A" && words[1] != "F"))
        return error("{} '{}': expected NAT A|F province", w, rest);
      if (w == "CD" && current_.phase != "Build") return error("CD in a {} case", current_.phase);
      (w == "UNIT" ? current_.units : current_.post).push_back(std::move(l));
      return {};
    }
    if (w == "OWNER") {
      if (words.size() != 2) return error("OWNER '{}': expected province NAT", rest);
      if (current_.phase != "Build") return error("OWNER in a {} case", current_.phase);
      current_.owners.push_back(std::move(l));
      return {};
    }
    // PRE / ORDER: "<S|F|?> NAT order".
    if (words[0] != "S" && words[0] != "F" && words[0] != "?")
      return error("{} '{}': expected S, F or ? first", w, rest);
    if (words.size() < 3) return error("{} '{}': expected S|F|? NAT order", w, rest);
    if (w == "PRE" && current_.phase != "Retreat") return error("PRE in a {} case", current_.phase);
    l.expect = words[0][0];
    l.text = std::string(trim(rest.substr(1)));
    (w == "PRE" ? current_.results : current_.orders).push_back(std::move(l));
    return {};
  }
};

// ---------------------------------------------------------------------------------------
// Running.

std::string unit_name(const Map& map, const Unit& u) {
  return fmt::format("{} {} {}", map.power_name(u.power), unit_letter(u.type),
                     to_upper(map.location_name(u.location)));
}

Result<PowerId> power_named(const Map& map, std::string_view text) {
  if (const auto p = map.find_power(trim(text))) return *p;
  return fail("unknown power '{}'", trim(text));
}

// A unit as a State holds it: an army's coast dropped; a fleet on a split coast must name it.
Result<Unit> make_unit(const Map& map, PowerId power, std::string_view type,
                       std::string_view where) {
  Unit u;
  u.power = power;
  const std::string t = to_lower(type);
  if (t == "a" || t == "army")
    u.type = UnitType::kArmy;
  else if (t == "f" || t == "fleet")
    u.type = UnitType::kFleet;
  else
    return fail("unit type '{}': expected A or F", type);
  auto l = map.parse_location(where);
  if (!l) return tl::unexpected(l.error());
  const ProvinceId p = map.province_of(*l);
  if (u.type == UnitType::kArmy) {
    if (map.is_sea(p)) return fail("army in sea province {}", map.abbr(p));
    u.location = map.location(p);
  } else {
    if (map.is_land(p)) return fail("fleet in land province {}", map.abbr(p));
    if (map.has_coasts(p) && map.coast_of(*l) == Coast::kNone)
      return fail("a fleet in {} needs a coast", map.abbr(p));
    u.location = *l;
  }
  return u;
}

// "Power: rest" or "Power rest": the power's name and the rest.
std::pair<std::string_view, std::string_view> split_power(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return first_word(text);
  return {trim(text.substr(0, colon)), trim(text.substr(colon + 1))};
}

// "Power: A loc" (jDip) or "NAT A loc" (TedDriggs).
Result<Unit> parse_unit(const Map& map, std::string_view text) {
  const auto [power_text, rest] = split_power(text);
  auto power = power_named(map, power_text);
  if (!power) return tl::unexpected(power.error());
  const auto [type, where] = first_word(rest);
  return make_unit(map, *power, type, where);
}

// One resolved phase: each order as given, what was resolved, and the outcome.
struct Given {
  char expect = '?';
  PowerId power = kNoPower;
  Order order;
  std::optional<Order> effective;
  std::string illegal;  // check_order's reason, "" when legal
  int slot = -1;        // index into the resolved orders
  bool succeeded = false;
};

struct Resolved {
  std::vector<Given> orders;
  State next;
  std::vector<std::string> report;
  ProvinceSet dislodged, civil_disorder;
};

std::string order_text(const Map& map, PowerId power, Order o) {
  o.power = power;
  return format_order(map, o);
}

// Resolves the phase `s` is in with the given orders and describes what happened.
Resolved resolve_given(const Map& map, const State& s, std::vector<Given> given) {
  Resolved r;
  std::vector<Order> effective;
  ProvinceSet ordered;  // provinces whose unit (or build) already has an order
  for (Given& g : given) {
    if (auto checked = check_order(map, s, g.power, g.order); !checked)
      g.illegal = checked.error().message;
    g.effective = effective_order(map, s, g.power, g.order);
    // A second order for one unit: the first stands and this one is dropped, with the reason
    // (the resolver would ignore it and report a bare FAILS).
    if (g.order.location != kNoLocation) {
      const int province = map.province_of(g.order.location);
      if (ordered.test(province) && g.effective) {
        g.illegal = fmt::format("a second order for the unit in {}; the first one stands",
                                to_upper(map.location_name(g.order.location)));
        g.effective.reset();
      } else if (g.effective) {
        ordered.set(province);
      }
    }
    if (g.effective) {
      g.slot = static_cast<int>(effective.size());
      effective.push_back(*g.effective);
    }
  }
  PhaseResolver resolver(map);
  r.next = resolver.resolve(s, effective);
  const PhaseType type = s.phase.type;
  const auto ok = [&](int slot) {
    switch (type) {
      case PhaseType::kMovement:
        return static_cast<bool>(resolver.movement().succeeded[slot]);
      case PhaseType::kRetreat:
        return static_cast<bool>(resolver.retreat().succeeded[slot]);
      case PhaseType::kAdjustment:
        return static_cast<bool>(resolver.adjustment().succeeded[slot]);
    }
    return false;
  };
  for (Given& g : given) {
    // An illegal order fails; what was resolved in its place (a hold) has its own outcome.
    const bool resolved_ok = g.slot >= 0 && ok(g.slot);
    g.succeeded = g.illegal.empty() && resolved_ok;
    std::string line = fmt::format("{}: {}", order_text(map, g.power, g.order),
                                   g.succeeded ? "SUCCEEDS" : "FAILS");
    if (!g.illegal.empty()) {
      if (g.effective)
        line += fmt::format(" (illegal: {}; treated as {}, which {})", g.illegal,
                            order_text(map, kNoPower, *g.effective),
                            resolved_ok ? "succeeds" : "fails");
      else
        line += fmt::format(" (illegal: {}; dropped)", g.illegal);
    }
    r.report.push_back(std::move(line));
  }
  if (type == PhaseType::kMovement) {
    const MovementResult& m = resolver.movement();
    // The holds of units without an order follow the given orders.
    for (int k = static_cast<int>(effective.size()); k < m.num_orders; ++k) {
      const Order& o = m.orders[k];
      const Unit& u = s.units[map.province_of(o.location)];
      r.report.push_back(fmt::format("{}: {} (no order)", order_text(map, u.power, o),
                                     m.succeeded[k] ? "SUCCEEDS" : "FAILS"));
    }
    r.dislodged = m.dislodged;
    for (int p = 0; p < map.num_provinces(); ++p) {
      if (!m.dislodged.test(p)) continue;
      // The attacker's origin, also when it came by convoy (State::attacker_from has none
      // then: DATC 4.A.5, it may retreat there).
      std::string from = "?";
      for (int k = 0; k < m.num_orders; ++k)
        if (m.orders[k].type == OrderType::kMove && m.succeeded[k] &&
            map.province_of(m.orders[k].target) == p)
          from = to_upper(map.abbr(map.province_of(m.orders[k].location)));
      r.report.push_back(
          fmt::format("dislodged: {} (attacked from {}{})", unit_name(map, s.units[p]), from,
                      m.attacker_from[p] == kNoProvince ? " by convoy: it may retreat there" : ""));
    }
    for (int p = 0; p < map.num_provinces(); ++p)
      if (m.standoff.test(p))
        r.report.push_back(
            fmt::format("standoff: {}", to_upper(map.abbr(static_cast<ProvinceId>(p)))));
  } else if (type == PhaseType::kRetreat) {
    for (int p = 0; p < map.num_provinces(); ++p)
      if (resolver.retreat().disbanded.test(p))
        r.report.push_back(fmt::format("disbanded: {}", unit_name(map, s.dislodged[p])));
  } else {
    r.civil_disorder = resolver.adjustment().civil_disorder;
    for (int p = 0; p < map.num_provinces(); ++p)
      if (r.civil_disorder.test(p))
        r.report.push_back(fmt::format("civil disorder: {}", unit_name(map, s.units[p])));
  }
  r.report.push_back(fmt::format("next phase: {}", phase_code(r.next.phase)));
  r.orders = std::move(given);
  return r;
}

// Compares the units of a state with the expected ones ("Power: A loc" lines).
void compare_units(const Map& map, const std::array<Unit, kMaxProvinces>& actual,
                   const std::vector<Unit>& expected, std::string_view what,
                   std::vector<std::string>& diff) {
  std::array<bool, kMaxProvinces> matched{};
  for (const Unit& e : expected) {
    const ProvinceId p = map.province_of(e.location);
    if (actual[p] == e && !matched[p]) {
      matched[p] = true;
      continue;
    }
    diff.push_back(fmt::format("{}missing {}", what, unit_name(map, e)));
  }
  for (int p = 0; p < map.num_provinces(); ++p)
    if (actual[p].exists() && !matched[p])
      diff.push_back(fmt::format("{}unexpected {}", what, unit_name(map, actual[p])));
}

// Whether the unit dislodged in p has a legal retreat.
bool can_retreat(const Map& map, const State& s, ProvinceId p) {
  const Unit& u = s.dislodged[p];
  Order o;
  o.type = OrderType::kRetreat;
  o.unit = u.type;
  o.location = u.location;
  for (int l = 0; l < map.num_locations(); ++l) {
    o.target = static_cast<LocationId>(l);
    if (check_order(map, s, u.power, o)) return true;
  }
  return false;
}

class CaseRunner {
 public:
  CaseRunner(const Map& map, const DatcCase& c, DatcOutcome& out) : map_(map), c_(c), out_(out) {}

  void run_jdip();
  void run_teddriggs();

 private:
  template <class... Args>
  void problem(int line, fmt::format_string<Args...> f, Args&&... args) {
    out_.differences.push_back(
        fmt::format("line {}: {}", line, fmt::format(f, std::forward<Args>(args)...)));
  }

  // Places a unit; false (with the problem noted) when it cannot stand there.
  bool put(std::array<Unit, kMaxProvinces>& board, const DatcLine& l, const Result<Unit>& u) {
    if (!u) {
      problem(l.line, "{}", u.error().message);
      return false;
    }
    const ProvinceId p = map_.province_of(u->location);
    if (board[p].exists() && !(board[p] == *u)) {
      problem(l.line, "two units in {}", map_.abbr(p));
      return false;
    }
    board[p] = *u;
    return true;
  }

  std::optional<std::vector<Unit>> units_of(const std::vector<DatcLine>& lines) {
    std::vector<Unit> units;
    bool ok = true;
    for (const DatcLine& l : lines) {
      auto u = parse_unit(map_, l.text);
      if (!u) {
        problem(l.line, "{}", u.error().message);
        ok = false;
      } else {
        units.push_back(*u);
      }
    }
    if (!ok) return std::nullopt;
    return units;
  }

  // "NAT A loc ..." (TedDriggs) as the power and the order, parsed for `phase`.
  std::optional<Given> ted_order(const DatcLine& l, PhaseType phase) {
    const auto [nat, rest] = first_word(l.text);
    auto power = power_named(map_, nat);
    if (!power) {
      problem(l.line, "{}", power.error().message);
      return std::nullopt;
    }
    auto o = parse_order(map_, rest, phase);
    if (!o) {
      problem(l.line, "'{}': {}", rest, o.error().message);
      return std::nullopt;
    }
    Given g;
    g.expect = l.expect;
    g.power = *power;
    g.order = *o;
    return g;
  }

  void check_expectations(const Resolved& r, std::string_view what) {
    for (const Given& g : r.orders) {
      if (g.expect == '?') continue;
      bool ok;
      if (g.order.type == OrderType::kHold)
        ok = g.effective && !r.dislodged.test(map_.province_of(g.order.location));
      else
        ok = g.effective && g.effective->type == g.order.type && g.succeeded;
      if (ok != (g.expect == 'S'))
        out_.differences.push_back(
            fmt::format("{}{}: expected {}, {}", what, order_text(map_, g.power, g.order),
                        g.expect == 'S' ? "SUCCEEDS" : "FAILS", ok ? "succeeds" : "fails"));
    }
  }

  void trace(const Resolved& r, std::string_view what) {
    for (const auto& line : r.report) out_.trace.push_back(fmt::format("{}{}", what, line));
  }

  const Map& map_;
  const DatcCase& c_;
  DatcOutcome& out_;
};

void CaseRunner::run_jdip() {
  State s;
  if (!c_.phase.empty()) {
    auto p = parse_jdip_phase(c_.phase);
    if (!p) return problem(c_.line, "{}", p.error().message);
    s.phase = *p;
  } else {
    s.phase = Phase{Season::kSpring, PhaseType::kMovement, 1901};
  }
  bool ok = true;
  if (c_.owners_given) {
    for (const DatcLine& l : c_.owners) {
      const auto [power_text, rest] = split_power(l.text);
      auto power = power_named(map_, power_text);
      auto words = split_blanks(rest);
      if (!words.empty() && (words[0] == "A" || words[0] == "F" || words[0] == "a" ||
                             words[0] == "f"))  // a unit type may be written; it is ignored
        words.erase(words.begin());
      const auto p = words.size() == 1 ? map_.find_province(words[0]) : std::nullopt;
      if (!power || !p || !map_.is_supply_centre(*p)) {
        problem(
            l.line, "{}",
            !power ? power.error().message : fmt::format("'{}' is not a supply centre", l.text));
        ok = false;
        continue;
      }
      s.owner[*p] = *power;
    }
  } else {
    s.owner = initial_state(map_).owner;
  }
  for (const DatcLine& l : c_.units) ok = put(s.units, l, parse_unit(map_, l.text)) && ok;
  for (const DatcLine& l : c_.dislodged) ok = put(s.dislodged, l, parse_unit(map_, l.text)) && ok;
  if (!c_.dislodged.empty() && s.phase.type != PhaseType::kRetreat)
    return problem(c_.dislodged.front().line, "dislodged units outside a retreat phase");
  // The previous movement phase's results give each dislodged unit's attacker and the
  // standoff provinces, where no unit may retreat.
  struct PastOrder {
    PowerId power;
    Order order;
    bool succeeded;
  };
  std::vector<PastOrder> results;
  for (const DatcLine& l : c_.results) {
    const auto [power_text, rest] = split_power(l.text);
    auto power = power_named(map_, power_text);
    auto parsed = power ? parse_order(map_, rest) : Result<Order>(tl::unexpected(power.error()));
    if (!parsed) {
      problem(l.line, "{}", parsed.error().message);
      ok = false;
      continue;
    }
    results.push_back({*power, *parsed, l.expect == 'S'});
  }
  // A move went by convoy when written VIA, when the army could not walk there, or when a
  // fleet of its power convoyed it (docs/diplomacy.md, 4.A.3); a unit it dislodged may then
  // retreat to its origin (4.A.5), as the adjudicator records it.
  const auto by_convoy = [&](const PastOrder& m) {
    const ProvinceId from = map_.province_of(m.order.location);
    const ProvinceId to = map_.province_of(m.order.target);
    if (m.order.unit != UnitType::kArmy) return false;
    if (m.order.via_convoy || !map_.army_adjacent(from, to)) return true;
    return std::any_of(results.begin(), results.end(), [&](const PastOrder& c) {
      return c.order.type == OrderType::kConvoy && c.power == m.power &&
             map_.province_of(c.order.aux) == from && map_.province_of(c.order.target) == to;
    });
  };
  ProvinceSet entered;
  std::vector<const PastOrder*> failed;
  for (const PastOrder& m : results) {
    if (m.order.type != OrderType::kMove) continue;
    const ProvinceId from = map_.province_of(m.order.location);
    const ProvinceId to = map_.province_of(m.order.target);
    if (m.succeeded) {
      entered.set(to);
      if (s.dislodged[to].exists()) s.attacker_from[to] = by_convoy(m) ? kNoProvince : from;
    } else {
      failed.push_back(&m);
    }
  }
  if (!ok) return;
  // A standoff: a province nobody entered after a bounce. The results do not say whether a
  // convoyed army arrived (a broken convoy bounces nobody), so a failed convoyed move counts
  // only with another beside it; the loser of a head-to-head battle never counts.
  std::array<int, kMaxProvinces> walkers{}, convoyed{};
  ProvinceSet tried;
  for (const PastOrder* m : failed) {
    const ProvinceId from = map_.province_of(m->order.location);
    const ProvinceId to = map_.province_of(m->order.target);
    const bool convoy = by_convoy(*m);
    if (!convoy && s.dislodged[from].exists() && s.attacker_from[from] == to) continue;
    ++(convoy ? convoyed : walkers)[to];
    if (walkers[to] > 0 || convoyed[to] > 1) tried.set(to);
  }
  if (s.phase.type == PhaseType::kRetreat) {
    s.contested = tried & ~entered;
    for (int p = 0; p < map_.num_provinces(); ++p)
      if (s.units[p].exists()) s.contested.reset(p);
  }

  std::vector<Given> given;
  for (const DatcLine& l : c_.orders) {
    auto parsed = parse_order_line(map_, s, l.text);
    if (!parsed) {
      problem(l.line, "{}", parsed.error().message);
      ok = false;
      continue;
    }
    Given g;
    g.power = parsed->power;
    g.order = parsed->order;
    given.push_back(g);
  }
  if (!ok) return;
  const Resolved r = resolve_given(map_, s, std::move(given));
  trace(r, "");

  auto post = units_of(c_.post_same ? c_.units : c_.post);
  auto post_dislodged = units_of(c_.post_same ? std::vector<DatcLine>{} : c_.post_dislodged);
  if (!post || !post_dislodged) return;
  // jDip destroys a dislodged unit without a legal retreat at once and does not list it;
  // other files list it: such a unit may be listed or left out.
  std::array<Unit, kMaxProvinces> dislodged = r.next.dislodged;
  if (r.next.phase.type == PhaseType::kRetreat)
    for (int p = 0; p < map_.num_provinces(); ++p) {
      const bool listed = std::find(post_dislodged->begin(), post_dislodged->end(), dislodged[p]) !=
                          post_dislodged->end();
      if (dislodged[p].exists() && !listed &&
          !can_retreat(map_, r.next, static_cast<ProvinceId>(p)))
        dislodged[p] = Unit{};
    }
  compare_units(map_, r.next.units, *post, "", out_.differences);
  compare_units(map_, dislodged, *post_dislodged, "dislodged: ", out_.differences);
}

void CaseRunner::run_teddriggs() {
  State s;
  const bool retreat = c_.phase == "Retreat", build = c_.phase == "Build";
  s.phase = build ? Phase{Season::kWinter, PhaseType::kAdjustment, 1901}
                  : Phase{Season::kSpring, PhaseType::kMovement, 1901};
  s.owner = initial_state(map_).owner;
  bool ok = true;
  for (const DatcLine& l : c_.owners) {
    const auto [where, nat] = first_word(l.text);
    const auto p = map_.find_province(where);
    auto power = power_named(map_, nat);
    if (!p || !map_.is_supply_centre(*p) || !power) {
      problem(l.line, "{}",
              !power ? power.error().message : fmt::format("'{}' is not a supply centre", where));
      ok = false;
      continue;
    }
    s.owner[*p] = *power;
  }
  for (const DatcLine& l : c_.units) {
    auto u = parse_unit(map_, l.text);
    ok = put(s.units, l, u) && ok;
    // A unit in a centre at the adjustment owns it (the fall's ownership update).
    if (u && build && map_.is_supply_centre(map_.province_of(u->location)))
      s.owner[map_.province_of(u->location)] = u->power;
  }
  if (!ok) return;

  // The movement phase: Main's orders, or a Retreat case's PRE orders. Without UNIT lines the
  // board is the units the orders name.
  const auto movement_lines = retreat ? c_.results : c_.orders;
  std::vector<Given> given;
  if (!build) {
    for (const DatcLine& l : movement_lines) {
      auto g = ted_order(l, PhaseType::kMovement);
      if (!g) {
        ok = false;
        continue;
      }
      if (c_.units.empty()) {
        auto u = make_unit(map_, g->power, unit_letter(g->order.unit),
                           map_.location_name(g->order.location));
        if (!u) {
          problem(l.line, "{}", u.error().message);
          ok = false;
          continue;
        }
        s.place(*u, map_);
      }
      given.push_back(*g);
    }
    if (!ok) return;
    const Resolved r = resolve_given(map_, s, std::move(given));
    trace(r, retreat ? "movement: " : "");
    check_expectations(r, retreat ? "movement: " : "");
    if (!retreat) return;
    if (r.next.phase.type != PhaseType::kRetreat)
      return out_.differences.push_back("movement: no unit was dislodged");
    s = r.next;
    given.clear();
  }
  for (const DatcLine& l : c_.orders) {
    auto g = ted_order(l, s.phase.type);
    if (!g) {
      ok = false;
      continue;
    }
    given.push_back(*g);
  }
  if (!ok) return;
  const Resolved r = resolve_given(map_, s, std::move(given));
  trace(r, retreat ? "retreat: " : "");
  check_expectations(r, retreat ? "retreat: " : "");
  // CD lines: exactly these units are removed by civil disorder.
  if (build && !c_.post.empty()) {
    auto expected = units_of(c_.post);
    if (!expected) return;
    std::array<Unit, kMaxProvinces> removed{};
    for (int p = 0; p < map_.num_provinces(); ++p)
      if (r.civil_disorder.test(p)) removed[p] = s.units[p];
    compare_units(map_, removed, *expected, "civil disorder: ", out_.differences);
  }
}

}  // namespace

Result<DatcFile> read_datc(std::string_view text, std::string_view source) {
  const auto lines = split_lines(text);
  DatcFile file;
  file.source = std::string(source);
  auto format = detect_format(lines, source);
  if (!format) return tl::unexpected(format.error());
  file.format = *format;
  auto cases =
      *format == DatcFormat::kJdip ? JdipReader(source).read(lines) : TedReader(source).read(lines);
  if (!cases) return tl::unexpected(cases.error());
  if (cases->empty()) return fail("{}: no DATC cases (no CASE line)", source);
  file.cases = std::move(*cases);
  return file;
}

Result<DatcFile> read_datc_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("{}: cannot read the file", path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return fail("{}: cannot read the file", path);
  return read_datc(text.str(), path);
}

DatcOutcome run_datc_case(const Map& map, DatcFormat format, const DatcCase& c,
                          const DatcOptions& options) {
  DatcOutcome out;
  if (format == DatcFormat::kTedDriggs && !c.edition.empty() &&
      std::find(options.editions.begin(), options.editions.end(), c.edition) ==
          options.editions.end()) {
    out.skipped = true;
    out.skip_reason = "edition " + c.edition;
    return out;
  }
  CaseRunner runner(map, c, out);
  if (format == DatcFormat::kJdip)
    runner.run_jdip();
  else
    runner.run_teddriggs();
  out.passed = out.differences.empty();
  return out;
}

PhaseReport adjudicate_phase(const Map& map, const State& s, std::span<const OrderLine> orders) {
  std::vector<Given> given;
  for (const OrderLine& o : orders) {
    Given g;
    g.power = o.power;
    g.order = o.order;
    given.push_back(g);
  }
  Resolved r = resolve_given(map, s, std::move(given));
  PhaseReport out;
  out.lines = std::move(r.report);
  for (const Given& g : r.orders) out.succeeded.push_back(g.succeeded);
  out.next = r.next;
  return out;
}

Result<OrderLine> parse_order_line(const Map& map, const State& s, std::string_view text) {
  text = trim(text);
  OrderLine out;
  // "Power: order": the power must be known (parse_order would read an unknown one as a
  // province).
  if (const auto colon = text.find(':'); colon != std::string_view::npos) {
    auto power = power_named(map, text.substr(0, colon));
    if (!power) return tl::unexpected(power.error());
    out.power = *power;
    text = trim(text.substr(colon + 1));
  }
  auto o = parse_order(map, text, s.phase.type);
  if (!o) return tl::unexpected(o.error());
  out.order = *o;
  if (out.power == kNoPower) out.power = o->power;
  if (out.power == kNoPower) {
    const Order& order = *o;
    if (order.type == OrderType::kWaive)
      return fail("WAIVE needs its power first (England: WAIVE)");
    const ProvinceId p = map.province_of(order.location);
    if (order.type == OrderType::kBuild) {
      out.power = map.home_power(p);
    } else {
      const Unit& u = s.phase.type == PhaseType::kRetreat ? s.dislodged[p] : s.units[p];
      out.power = u.power;
    }
    if (out.power == kNoPower)
      return fail("no {}unit in {} to take the power from: write the power first ({}: {})",
                  s.phase.type == PhaseType::kRetreat ? "dislodged " : "", map.abbr(p),
                  map.power_name(0), to_upper(text));
  }
  out.order.power = out.power;
  return out;
}

}  // namespace kibitz::diplomacy

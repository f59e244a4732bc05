#include "games/diplomacy/orders.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <initializer_list>
#include <span>
#include <vector>

#include "core/text.hpp"

namespace kibitz::diplomacy {

namespace {

constexpr std::size_t kMaxOrderLength = 256;

// A word (its text and its name_key) or an operator: "-" (also "->", "=>", ">") or ":".
struct Token {
  std::string text;
  std::string key;
  bool op = false;
};

Result<std::vector<Token>> tokenize(std::string_view text) {
  std::vector<Token> out;
  std::size_t i = 0;
  const auto word_char = [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || c == '.' || c == '\'' || c == '/' || c == '_';
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',') {
      ++i;
    } else if (c == '-' || c == '=' || c == '>') {
      if ((c == '-' || c == '=') && i + 1 < text.size() && text[i + 1] == '>')
        ++i;
      else if (c == '=')
        return fail("unexpected '='");
      ++i;
      out.push_back({"-", "", true});
    } else if (c == ':') {
      ++i;
      out.push_back({":", "", true});
    } else if (c == '(') {
      // "STP(SC)", "Spain (south coast)": the coast joins the word before it.
      const auto close = text.find(')', i);
      if (close == std::string_view::npos) return fail("missing ')'");
      if (out.empty() || out.back().op) return fail("'(' without a province before it");
      const std::string_view inner = trim(text.substr(i + 1, close - i - 1));
      if (inner.empty()) return fail("empty '()'");
      for (const char d : inner)
        if (!word_char(d) && d != ' ') return fail("unexpected '{}' inside '()'", d);
      out.back().text += '/';
      out.back().text += inner;
      out.back().key = name_key(out.back().text);
      i = close + 1;
    } else if (word_char(c)) {
      const std::size_t j = i;
      while (i < text.size() && word_char(text[i])) ++i;
      const std::string w(text.substr(j, i - j));
      out.push_back({w, name_key(w), false});
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      return fail("unexpected byte 0x{:02x} (orders are plain ASCII)",
                  static_cast<unsigned char>(c));
    } else {
      return fail("unexpected character '{}'", c);
    }
  }
  return out;
}

bool is_one_of(const Token& t, std::span<const std::string_view> words) {
  if (t.op) return false;
  for (const auto w : words)
    if (t.key == w) return true;
  return false;
}
bool is_word(const Token& t, std::initializer_list<std::string_view> words) {
  return is_one_of(t, std::span<const std::string_view>(words.begin(), words.size()));
}

constexpr std::string_view kHold[] = {"h", "hold", "holds", "stand", "stands"};
constexpr std::string_view kMove[] = {"m", "move", "moves", "to"};
constexpr std::string_view kSupport[] = {"s", "sup", "support", "supports"};
constexpr std::string_view kConvoy[] = {"c", "con", "convoy", "convoys"};
constexpr std::string_view kRetreat[] = {"r", "retreat", "retreats"};
constexpr std::string_view kDisband[] = {"d",      "disband", "disbands",
                                         "remove", "removes", "destroy"};
constexpr std::string_view kBuild[] = {"b", "build", "builds"};
constexpr std::string_view kUnit[] = {"a", "army", "f", "fleet"};

// Words that end a province name: a multi-word name never ends with one of them, so "A STP S
// A MOS" is not read as the south coast of St Petersburg.
bool is_keyword(const Token& t) {
  return is_one_of(t, kHold) || is_one_of(t, kMove) || is_one_of(t, kSupport) ||
         is_one_of(t, kConvoy) || is_one_of(t, kRetreat) || is_one_of(t, kDisband) ||
         is_one_of(t, kBuild) || is_one_of(t, kUnit) ||
         is_word(t, {"via", "by", "waive", "n", "e", "w"});
}

class Parser {
 public:
  Parser(const Map& map, std::vector<Token> tokens) : map_(map), t_(std::move(tokens)) {}

  Result<Order> parse(PhaseType phase) {
    Order o;
    // "England: ...", "ENG A LON H": the power, when the next word cannot start a location.
    if (t_.size() >= 2 && !t_[0].op) {
      if (const auto pw = map_.find_power(t_[0].text)) {
        if (t_[1].op && t_[1].text == ":") {
          o.power = *pw;
          i_ = 2;
        } else if (is_one_of(t_[1], kUnit) ||
                   is_word(t_[1], {"build", "waive", "remove", "disband", "destroy"})) {
          o.power = *pw;
          i_ = 1;
        }
      }
    }
    if (at_end()) return fail("empty order");
    if (is_word(peek(), {"waive", "waives"})) {
      ++i_;
      o.type = OrderType::kWaive;
      return finish(o);
    }
    if (is_word(peek(), {"build", "builds"})) {  // BUILD A PAR
      ++i_;
      o.type = OrderType::kBuild;
      if (at_end() || !is_one_of(peek(), kUnit)) return fail("a build needs A or F");
      o.unit = unit_type();
      auto l = location("the build");
      if (!l) return tl::unexpected(l.error());
      o.location = *l;
      return finish(o);
    }
    if (is_word(peek(), {"remove", "disband", "destroy"})) {  // REMOVE [A] PAR
      ++i_;
      o.type = OrderType::kDisband;
      if (!at_end() && is_one_of(peek(), kUnit)) o.unit = unit_type();
      auto l = location("the disband");
      if (!l) return tl::unexpected(l.error());
      o.location = *l;
      return finish(o);
    }
    if (!is_one_of(peek(), kUnit)) return fail("expected A or F before '{}'", peek().text);
    o.unit = unit_type();
    auto l = location("the unit");
    if (!l) return tl::unexpected(l.error());
    o.location = *l;
    if (at_end()) return fail("missing order after {} (H, -, S, C, R, D or B)", last_text());
    const Token& verb = t_[i_++];
    if (is_one_of(verb, kHold)) {
      o.type = OrderType::kHold;
    } else if (verb.op ? verb.text == "-" : is_one_of(verb, kMove)) {
      if (!at_end() && is_word(peek(), {"to"})) ++i_;  // MOVES TO
      o.type = phase == PhaseType::kRetreat ? OrderType::kRetreat : OrderType::kMove;
      auto d = location("the move");
      if (!d) return tl::unexpected(d.error());
      o.target = *d;
      if (!at_end() && is_word(peek(), {"via", "by"})) {
        ++i_;
        if (!at_end() && is_word(peek(), {"convoy", "c"})) ++i_;
        if (o.type == OrderType::kRetreat) return fail("a retreat cannot go by convoy");
        o.via_convoy = true;
      }
    } else if (is_one_of(verb, kRetreat)) {
      o.type = OrderType::kRetreat;
      if (!at_end() && ((peek().op && peek().text == "-") || is_word(peek(), {"to"}))) ++i_;
      auto d = location("the retreat");
      if (!d) return tl::unexpected(d.error());
      o.target = *d;
    } else if (is_one_of(verb, kDisband)) {
      o.type = OrderType::kDisband;
    } else if (is_one_of(verb, kBuild)) {
      o.type = OrderType::kBuild;
    } else if (is_one_of(verb, kSupport) || is_one_of(verb, kConvoy)) {
      const bool support = is_one_of(verb, kSupport);
      o.type = support ? OrderType::kSupport : OrderType::kConvoy;
      if (!at_end() && is_one_of(peek(), kUnit)) o.aux_unit = unit_type();
      auto a = location(support ? "the support" : "the convoy");
      if (!a) return tl::unexpected(a.error());
      o.aux = *a;
      if (!at_end() && (peek().op ? peek().text == "-" : is_one_of(peek(), kMove))) {
        ++i_;
        if (!at_end() && is_word(peek(), {"to"})) ++i_;
        auto d = location("the supported move");
        if (!d) return tl::unexpected(d.error());
        o.target = *d;
      } else if (support && !at_end() && is_one_of(peek(), kHold)) {
        ++i_;
      } else if (!support) {
        return fail("a convoy needs the army's destination: C A {} - ...",
                    to_upper(map_.location_name(o.aux)));
      }
    } else {
      return fail("unknown order word '{}' (expected H, -, S, C, R, D or B)", verb.text);
    }
    return finish(o);
  }

 private:
  bool at_end() const { return i_ >= t_.size(); }
  const Token& peek() const { return t_[i_]; }
  std::string last_text() const { return i_ > 0 ? t_[i_ - 1].text : std::string(); }

  UnitType unit_type() {
    const bool army = t_[i_].key[0] == 'a';
    ++i_;
    return army ? UnitType::kArmy : UnitType::kFleet;
  }

  Result<Order> finish(const Order& o) const {
    if (!at_end()) return fail("unexpected '{}' after the order", peek().text);
    return o;
  }

  // The longest run of up to four tokens that names a location ("North Sea", "mid-atlantic",
  // "stp nc", "spa/sc"); a run never ends with an order word or an operator.
  Result<LocationId> location(std::string_view what) {
    if (at_end()) return fail("missing location for {}", what);
    if (peek().op) return fail("expected a location for {}, not '{}'", what, peek().text);
    const std::size_t most = std::min<std::size_t>(4, t_.size() - i_);
    for (std::size_t k = most; k >= 2; --k) {
      const Token& last = t_[i_ + k - 1];
      if (last.op || is_keyword(last)) continue;
      std::string joined;
      bool ok = true;
      for (std::size_t j = i_; j < i_ + k; ++j) {
        if (t_[j].op && t_[j].text != "-") ok = false;
        // A hyphen joins "mid-atlantic" but not "swe-den" (Sweden to Denmark, not "Sweden"):
        // never between two words that are locations by themselves.
        if (t_[j].op && j > i_ && j + 1 < i_ + k && !t_[j - 1].op && !t_[j + 1].op &&
            map_.find_location(t_[j - 1].text) && map_.find_location(t_[j + 1].text))
          ok = false;
        if (!joined.empty()) joined += ' ';
        joined += t_[j].text;
      }
      if (!ok) continue;
      if (const auto l = map_.parse_location(joined)) {
        i_ += k;
        return *l;
      }
    }
    const auto l = map_.parse_location(peek().text);
    if (!l) return tl::unexpected(l.error());
    ++i_;
    return *l;
  }

  const Map& map_;
  std::vector<Token> t_;
  std::size_t i_ = 0;
};

std::string loc_upper(const Map& map, LocationId l) {
  return l < map.num_locations() ? to_upper(map.location_name(l)) : std::string("?");
}

std::string unit_and_loc(const Map& map, UnitType u, LocationId l) {
  const std::string_view letter = unit_letter(u);
  return letter.empty() ? loc_upper(map, l) : fmt::format("{} {}", letter, loc_upper(map, l));
}

std::string_view article_name(UnitType u) { return u == UnitType::kArmy ? "an army" : "a fleet"; }

}  // namespace

Result<Order> parse_order(const Map& map, std::string_view text, PhaseType phase) {
  if (text.size() > kMaxOrderLength)
    return fail("order longer than {} characters", kMaxOrderLength);
  auto tokens = tokenize(text);
  if (!tokens) return tl::unexpected(tokens.error());
  return Parser(map, std::move(*tokens)).parse(phase);
}

std::string format_order(const Map& map, const Order& o) {
  std::string s;
  if (o.power != kNoPower && o.power < map.num_powers())
    s = fmt::format("{}: ", map.power_name(o.power));
  const std::string unit = unit_and_loc(map, o.unit, o.location);
  switch (o.type) {
    case OrderType::kHold:
      s += unit + " H";
      break;
    case OrderType::kMove:
      s += fmt::format("{} - {}{}", unit, loc_upper(map, o.target), o.via_convoy ? " VIA" : "");
      break;
    case OrderType::kSupport:
      s += fmt::format("{} S {}", unit, unit_and_loc(map, o.aux_unit, o.aux));
      if (o.target != kNoLocation) s += " - " + loc_upper(map, o.target);
      break;
    case OrderType::kConvoy:
      s += fmt::format("{} C {} - {}", unit, unit_and_loc(map, o.aux_unit, o.aux),
                       loc_upper(map, o.target));
      break;
    case OrderType::kRetreat:
      s += fmt::format("{} R {}", unit, loc_upper(map, o.target));
      break;
    case OrderType::kDisband:
      // Without a unit type "PAR D" would not read back: REMOVE takes a bare province.
      s += o.unit == UnitType::kNone ? "REMOVE " + unit : unit + " D";
      break;
    case OrderType::kBuild:
      s += unit + " B";
      break;
    case OrderType::kWaive:
      s += "WAIVE";
      break;
  }
  return s;
}

bool convoy_path_exists(const Map& map, const State& s, ProvinceId from, ProvinceId to) {
  if (from == to || !map.is_coastal(from) || !map.is_coastal(to)) return false;
  const int n = map.num_provinces();
  const auto fleet_at_sea = [&](int q) {
    return map.is_sea(static_cast<ProvinceId>(q)) && s.units[q].type == UnitType::kFleet &&
           s.units[q].exists();
  };
  std::array<ProvinceId, kMaxProvinces> stack;
  int top = 0;
  ProvinceSet seen;
  for (int q = 0; q < n; ++q)
    if (fleet_at_sea(q) && map.fleet_reaches(static_cast<LocationId>(q), from)) {
      seen.set(q);
      stack[top++] = static_cast<ProvinceId>(q);
    }
  while (top > 0) {
    const ProvinceId q = stack[--top];
    if (map.fleet_reaches(q, to)) return true;
    const ProvinceSet& next = map.fleet_reach(q);
    for (int r = 0; r < n; ++r)
      if (next.test(r) && !seen.test(r) && fleet_at_sea(r)) {
        seen.set(r);
        stack[top++] = static_cast<ProvinceId>(r);
      }
  }
  return false;
}

bool convoy_order_possible(const Map& map, const State& s, ProvinceId fleet, ProvinceId from,
                           ProvinceId to) {
  return for_each_minimal_convoy_route(
      map, s, from, [&](std::span<const ProvinceId> route, const ProvinceSet& reached) {
        return reached.test(to) && std::find(route.begin(), route.end(), fleet) != route.end();
      });
}

namespace {

// The unit `power` orders at `loc` (its province), completing the order's unit type.
Result<Unit> own_unit(const Map& map, const std::array<Unit, kMaxProvinces>& units, PowerId power,
                      UnitType written, LocationId loc, std::string_view what) {
  const ProvinceId p = map.province_of(loc);
  const Unit& u = units[p];
  if (!u.exists()) return fail("no {}unit in {}", what, map.abbr(p));
  if (u.power != power)
    return fail("the unit in {} is {}'s, not {}'s", map.abbr(p), map.power_name(u.power),
                map.power_name(power));
  if (written != UnitType::kNone && written != u.type)
    return fail("the unit in {} is {}, not {}", map.abbr(p), article_name(u.type),
                article_name(written));
  return u;
}

// Where a unit at `u.location` moving to `target` ends up (armies drop coasts, a fleet's only
// reachable coast is filled in), or why it cannot go there.
Result<LocationId> destination(const Map& map, const State& s, const Unit& u, LocationId target,
                               bool via, bool retreat) {
  const ProvinceId p = map.province_of(u.location), t = map.province_of(target);
  const std::string from = map.location_name(u.location);
  if (t == p) return fail("a unit cannot move to its own province");
  if (u.type == UnitType::kArmy) {
    if (map.is_sea(t)) return fail("armies cannot enter sea province {}", map.abbr(t));
    const LocationId dest = map.location(t);
    if (via || !map.army_adjacent(p, t)) {
      if (retreat) return fail("{} is not next to {}", map.abbr(t), from);
      if (!map.is_coastal(p) || !map.is_coastal(t))
        return fail("{} is not next to {}, and only armies on coasts can be convoyed", map.abbr(t),
                    from);
      if (!convoy_path_exists(map, s, p, t))
        return fail("{} is not next to {}, and no chain of fleets at sea can convoy it there",
                    map.abbr(t), from);
    }
    return dest;
  }
  if (via) return fail("only armies can be convoyed");
  if (map.is_land(t)) return fail("fleets cannot enter land province {}", map.abbr(t));
  if (map.has_coasts(t) && map.coast_of(target) == Coast::kNone) {
    LocationId only = kNoLocation;
    int reachable = 0;
    for (const LocationId c : map.coasts(t))
      if (map.fleet_adjacent(u.location, c)) {
        only = c;
        ++reachable;
      }
    if (reachable == 0) return fail("{} is not next to {}", map.abbr(t), from);
    if (reachable > 1)
      return fail("{} has {} coasts a fleet from {} can reach: say which ({}/{} ...)", map.abbr(t),
                  reachable, from, map.abbr(t), coast_abbr(map.coast_of(map.coasts(t)[0])));
    return only;
  }
  if (!map.fleet_adjacent(u.location, target)) {
    if (map.fleet_reaches(u.location, t))
      return fail("a fleet from {} reaches {} on another coast, not {}", from, map.abbr(t),
                  map.location_name(target));
    return fail("{} is not next to {}", map.location_name(target), from);
  }
  return target;
}

bool can_reach(const Map& map, const Unit& u, ProvinceId t) {
  return u.type == UnitType::kArmy ? map.army_adjacent(map.province_of(u.location), t)
                                   : map.fleet_reaches(u.location, t);
}

std::string_view phase_word(PhaseType t) {
  return t == PhaseType::kMovement  ? "movement"
         : t == PhaseType::kRetreat ? "retreat"
                                    : "adjustment";
}

}  // namespace

Result<Order> check_order(const Map& map, const State& s, PowerId power, const Order& order) {
  if (power >= map.num_powers()) return fail("no power {}", power);
  if (order.power != kNoPower && order.power != power)
    return fail("the order is {}'s, not {}'s",
                order.power < map.num_powers() ? map.power_name(order.power) : "nobody",
                map.power_name(power));
  const auto valid = [&](LocationId l) { return l < map.num_locations(); };
  Order o = order;
  const PhaseType phase = s.phase.type;
  if (o.type == OrderType::kMove && phase == PhaseType::kRetreat && !o.via_convoy)
    o.type = OrderType::kRetreat;
  const std::string_view name = map.power_name(power);
  // Only adjustment orders need the count; movement orders are checked far more often.
  const int builds = phase == PhaseType::kAdjustment
                         ? count_centres(map, s, power) - count_units(map, s, power)
                         : 0;

  if (o.type == OrderType::kWaive) {
    if (phase != PhaseType::kAdjustment)
      return fail("WAIVE is an adjustment order, not a {} one", phase_word(phase));
    if (builds <= 0) return fail("{} has no build to waive", name);
    return o;
  }
  if (!valid(o.location)) return fail("the order names no location");
  const ProvinceId p = map.province_of(o.location);

  switch (o.type) {
    case OrderType::kBuild: {
      if (phase != PhaseType::kAdjustment)
        return fail("builds are adjustment orders, not {} ones", phase_word(phase));
      if (o.unit == UnitType::kNone) return fail("a build needs A or F");
      if (map.home_power(p) != power)
        return fail("{} is not a home centre of {}", map.abbr(p), name);
      if (s.owner[p] != power) return fail("{} does not own {}", name, map.abbr(p));
      if (s.occupied(p)) return fail("{} is occupied", map.abbr(p));
      if (builds <= 0)
        return fail("{} has no builds ({} centres, {} units)", name, count_centres(map, s, power),
                    count_units(map, s, power));
      if (o.unit == UnitType::kArmy) {
        if (map.is_sea(p)) return fail("armies cannot be built at sea");
        o.location = map.location(p);
      } else {
        if (map.is_land(p)) return fail("fleets cannot be built in land province {}", map.abbr(p));
        if (map.has_coasts(p) && map.coast_of(o.location) == Coast::kNone)
          return fail("a fleet built in {} needs a coast ({}/{} ...)", map.abbr(p), map.abbr(p),
                      coast_abbr(map.coast_of(map.coasts(p)[0])));
      }
      return o;
    }
    case OrderType::kDisband: {
      if (phase == PhaseType::kMovement) return fail("disbands are not movement orders");
      const bool retreat = phase == PhaseType::kRetreat;
      const auto u = own_unit(map, retreat ? s.dislodged : s.units, power, o.unit, o.location,
                              retreat ? "dislodged " : "");
      if (!u) return tl::unexpected(u.error());
      if (!retreat && builds >= 0)
        return fail("{} has no disbands to make ({} centres, {} units)", name,
                    count_centres(map, s, power), count_units(map, s, power));
      o.unit = u->type;
      o.location = u->location;
      return o;
    }
    case OrderType::kRetreat: {
      if (phase != PhaseType::kRetreat)
        return fail("retreats are retreat-phase orders, not {} ones", phase_word(phase));
      const auto u = own_unit(map, s.dislodged, power, o.unit, o.location, "dislodged ");
      if (!u) return tl::unexpected(u.error());
      if (!valid(o.target)) return fail("the retreat names no destination");
      const auto d = destination(map, s, *u, o.target, false, true);
      if (!d) return tl::unexpected(d.error());
      const ProvinceId t = map.province_of(*d);
      if (t == s.attacker_from[p])
        return fail("cannot retreat to {}, where the attack came from", map.abbr(t));
      if (s.occupied(t)) return fail("cannot retreat to {}: it is occupied", map.abbr(t));
      if (s.contested.test(t))
        return fail("cannot retreat to {}: it was left empty by a standoff", map.abbr(t));
      o.unit = u->type;
      o.location = u->location;
      o.target = *d;
      return o;
    }
    case OrderType::kWaive:
      break;  // handled above
    case OrderType::kHold:
    case OrderType::kMove:
    case OrderType::kSupport:
    case OrderType::kConvoy: {
      if (phase != PhaseType::kMovement)
        return fail("holds, moves, supports and convoys are movement orders, not {} ones",
                    phase_word(phase));
      const auto u = own_unit(map, s.units, power, o.unit, o.location, "");
      if (!u) return tl::unexpected(u.error());
      o.unit = u->type;
      o.location = u->location;
      if (o.type == OrderType::kHold) return o;
      if (o.type == OrderType::kMove) {
        if (!valid(o.target)) return fail("the move names no destination");
        const auto d = destination(map, s, *u, o.target, o.via_convoy, false);
        if (!d) return tl::unexpected(d.error());
        o.target = *d;
        return o;
      }
      if (!valid(o.aux)) return fail("the order names no unit to support or convoy");
      const ProvinceId q = map.province_of(o.aux);
      if (q == p) return fail("a unit cannot support or convoy itself");
      const Unit& other = s.units[q];
      if (o.aux_unit == UnitType::kNone && other.exists()) o.aux_unit = other.type;
      o.aux = map.location(q);
      if (o.type == OrderType::kSupport) {
        if (other.exists() && other.location != o.aux) o.aux = other.location;
        if (o.target == kNoLocation) {
          if (!can_reach(map, *u, q))
            return fail("{} cannot reach {}, so cannot support it there",
                        map.location_name(u->location), map.abbr(q));
          return o;
        }
        if (!valid(o.target)) return fail("the support names no destination");
        const ProvinceId t = map.province_of(o.target);
        if (t == q) return fail("the supported unit cannot move to its own province");
        if (t == p) return fail("a unit cannot support a move into its own province");
        if (!can_reach(map, *u, t))
          return fail("{} cannot reach {}, so cannot support a move there",
                      map.location_name(u->location), map.abbr(t));
        // A support names the province; a coast written in it must match the move's coast
        // (DATC 6.B.9), so a coast of t is kept and the adjudicator compares it.
        if (map.coast_of(o.target) == Coast::kNone || map.province_of(o.target) != t)
          o.target = map.location(t);
        return o;
      }
      // Convoy.
      if (u->type != UnitType::kFleet || !map.is_sea(p))
        return fail("only fleets at sea can convoy");
      if (o.aux_unit == UnitType::kFleet) return fail("only armies can be convoyed");
      o.aux_unit = UnitType::kArmy;
      if (!valid(o.target)) return fail("the convoy names no destination");
      const ProvinceId t = map.province_of(o.target);
      if (!map.is_coastal(q)) return fail("an army in {} cannot be convoyed", map.abbr(q));
      if (!map.is_coastal(t)) return fail("an army cannot be convoyed to {}", map.abbr(t));
      if (t == q) return fail("the convoyed army cannot move to its own province");
      if (!convoy_order_possible(map, s, p, q, t))
        return fail("no convoy route of the fleets now at sea from {} to {} needs the fleet in {}",
                    map.abbr(q), map.abbr(t), map.abbr(p));
      o.target = map.location(t);
      return o;
    }
  }
  return fail("unknown order type");
}

std::optional<Order> effective_order(const Map& map, const State& s, PowerId power,
                                     const Order& order) {
  if (auto r = check_order(map, s, power, order)) return *r;
  if (s.phase.type != PhaseType::kMovement || order.type == OrderType::kWaive ||
      order.location >= map.num_locations() || power >= map.num_powers())
    return std::nullopt;
  const Unit& u = s.units[map.province_of(order.location)];
  if (u.power != power) return std::nullopt;
  Order hold;
  hold.type = OrderType::kHold;
  hold.power = order.power;
  hold.unit = u.type;
  hold.location = u.location;
  return hold;
}

}  // namespace kibitz::diplomacy

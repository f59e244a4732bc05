#include "protocol/daide/board.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <set>

#include "games/diplomacy/bots.hpp"

namespace kibitz::daide {

namespace {

// A part that is a single token, or a bracketed location "(PRO CST)".
struct Loc {
  Token province = 0;
  std::optional<Token> coast;
};

std::optional<Loc> read_loc(std::span<const Token> part) {
  if (part.size() == 1 && is_province(part[0])) return Loc{part[0], std::nullopt};
  if (part.size() == 2 && is_province(part[0]) && is_coast(part[1])) return Loc{part[0], part[1]};
  return std::nullopt;
}

std::string words(std::span<const Token> t) { return to_text(t); }

}  // namespace

Token coast_token(dip::Coast c) {
  switch (c) {
    case dip::Coast::kNorth:
      return tok::kNcs;
    case dip::Coast::kSouth:
      return tok::kScs;
    case dip::Coast::kEast:
      return tok::kEcs;
    case dip::Coast::kWest:
      return tok::kWcs;
    case dip::Coast::kNone:
      break;
  }
  return 0;
}

std::optional<dip::Coast> coast_of(Token t) {
  switch (t) {
    case tok::kNcs:
      return dip::Coast::kNorth;
    case tok::kScs:
      return dip::Coast::kSouth;
    case tok::kEcs:
      return dip::Coast::kEast;
    case tok::kWcs:
      return dip::Coast::kWest;
    default:
      return std::nullopt;
  }
}

Result<Board> Board::make(const dip::Map& map) {
  Board b;
  b.map_ = &map;
  b.province_of_.fill(dip::kNoProvince);
  int found = 0;
  for (int t = 0x5000; t <= 0x57FF; ++t) {
    const auto name = token_name(static_cast<Token>(t));
    if (name.empty()) continue;
    const auto p = map.find_province(name);
    if (!p)
      return fail("DAIDE: the map has no province {} (only the standard map is spoken)", name);
    b.province_token_[*p] = static_cast<Token>(t);
    b.province_of_[t & 0xFF] = *p;
    ++found;
  }
  if (found != map.num_provinces() || map.num_powers() != 7)
    return fail("DAIDE: the map is not the standard one ({} provinces, {} powers)",
                map.num_provinces(), map.num_powers());
  return b;
}

std::optional<dip::PowerId> Board::power_of(Token t) const {
  if (!is_power(t) || (t & 0xFF) >= map_->num_powers()) return std::nullopt;
  return static_cast<dip::PowerId>(t & 0xFF);
}

std::optional<dip::ProvinceId> Board::province_of(Token t) const {
  if (!is_province(t)) return std::nullopt;
  const dip::ProvinceId p = province_of_[t & 0xFF];
  if (p == dip::kNoProvince || province_token_[p] != t) return std::nullopt;
  return p;
}

void Board::append_location(Message& m, dip::LocationId loc) const {
  const dip::Coast c = map_->coast_of(loc);
  const Token pro = province_token_[map_->province_of(loc)];
  if (c == dip::Coast::kNone) {
    m.push_back(pro);
  } else {
    m.insert(m.end(), {tok::kOpen, pro, coast_token(c), tok::kClose});
  }
}

void Board::append_unit(Message& m, const dip::Unit& u) const {
  m.push_back(tok::kOpen);
  m.push_back(power(u.power));
  m.push_back(u.type == dip::UnitType::kArmy ? tok::kAmy : tok::kFlt);
  append_location(m, u.location);
  m.push_back(tok::kClose);
}

void Board::append_turn(Message& m, dip::Phase phase) const {
  Token season = tok::kWin;
  const bool retreat = phase.type == dip::PhaseType::kRetreat;
  if (phase.season == dip::Season::kSpring) season = retreat ? tok::kSum : tok::kSpr;
  if (phase.season == dip::Season::kFall) season = retreat ? tok::kAut : tok::kFal;
  m.insert(m.end(), {tok::kOpen, season, integer_token(phase.year), tok::kClose});
}

Result<dip::Phase> Board::turn_of(std::span<const Token> turn) const {
  if (turn.size() != 2 || !is_season(turn[0]) || !is_integer(turn[1]))
    return fail("DAIDE: '{}' is not a turn (season and year)", words(turn));
  dip::Phase p;
  p.year = token_integer(turn[1]);
  switch (turn[0]) {
    case tok::kSpr:
      p = {dip::Season::kSpring, dip::PhaseType::kMovement, p.year};
      break;
    case tok::kSum:
      p = {dip::Season::kSpring, dip::PhaseType::kRetreat, p.year};
      break;
    case tok::kFal:
      p = {dip::Season::kFall, dip::PhaseType::kMovement, p.year};
      break;
    case tok::kAut:
      p = {dip::Season::kFall, dip::PhaseType::kRetreat, p.year};
      break;
    case tok::kWin:
      p = {dip::Season::kWinter, dip::PhaseType::kAdjustment, p.year};
      break;
    default:
      return fail("DAIDE: '{}' is not a season", words(turn.first(1)));
  }
  return p;
}

Message Board::order(const dip::State& s, const dip::Order& o) const {
  const dip::Map& map = *map_;
  Message m;
  const bool retreat = s.phase.type == dip::PhaseType::kRetreat;
  const auto unit_at = [&](dip::LocationId loc, bool dislodged) {
    const dip::ProvinceId p = map.province_of(loc);
    return dislodged ? s.dislodged[p] : s.units[p];
  };
  const auto own = [&] { append_unit(m, unit_at(o.location, retreat)); };
  switch (o.type) {
    case dip::OrderType::kHold:
      own();
      m.push_back(tok::kHld);
      break;
    case dip::OrderType::kMove: {
      own();
      const dip::ProvinceId from = map.province_of(o.location), to = map.province_of(o.target);
      const dip::Unit u = s.units[from];
      if (u.type == dip::UnitType::kArmy && (o.via_convoy || !map.army_adjacent(from, to))) {
        // By convoy: the seas of a chain of fleets from the army's coast to the target's.
        std::array<dip::ProvinceId, dip::kMaxProvinces> prev{};
        prev.fill(dip::kNoProvince);
        std::deque<dip::ProvinceId> queue;
        const auto fleet_at_sea = [&](dip::ProvinceId p) {
          return map.is_sea(p) && s.units[p].exists() && s.units[p].type == dip::UnitType::kFleet;
        };
        for (int p = 0; p < map.num_provinces(); ++p)
          if (fleet_at_sea(static_cast<dip::ProvinceId>(p)) &&
              map.fleet_reaches(map.location(static_cast<dip::ProvinceId>(p)), from)) {
            prev[p] = static_cast<dip::ProvinceId>(p);
            queue.push_back(static_cast<dip::ProvinceId>(p));
          }
        dip::ProvinceId last = dip::kNoProvince;
        while (!queue.empty() && last == dip::kNoProvince) {
          const dip::ProvinceId sea = queue.front();
          queue.pop_front();
          if (map.fleet_reaches(map.location(sea), to)) {
            last = sea;
            break;
          }
          for (int p = 0; p < map.num_provinces(); ++p)
            if (prev[p] == dip::kNoProvince && fleet_at_sea(static_cast<dip::ProvinceId>(p)) &&
                map.fleet_reaches(map.location(sea), static_cast<dip::ProvinceId>(p))) {
              prev[p] = sea;
              queue.push_back(static_cast<dip::ProvinceId>(p));
            }
        }
        if (last != dip::kNoProvince) {
          std::vector<dip::ProvinceId> path;
          for (dip::ProvinceId p = last;; p = prev[p]) {
            path.push_back(p);
            if (prev[p] == p) break;
          }
          std::reverse(path.begin(), path.end());
          m.push_back(tok::kCto);
          m.push_back(province_token_[to]);
          m.push_back(tok::kVia);
          m.push_back(tok::kOpen);
          for (const auto p : path) m.push_back(province_token_[p]);
          m.push_back(tok::kClose);
          break;
        }
      }
      m.push_back(tok::kMto);
      append_location(m, o.target);
      break;
    }
    case dip::OrderType::kSupport:
      own();
      m.push_back(tok::kSup);
      append_unit(m, unit_at(o.aux, false));
      if (o.target != dip::kNoLocation) {
        m.push_back(tok::kMto);
        m.push_back(province_token_[map.province_of(o.target)]);
      }
      break;
    case dip::OrderType::kConvoy:
      own();
      m.push_back(tok::kCvy);
      append_unit(m, unit_at(o.aux, false));
      m.push_back(tok::kCto);
      m.push_back(province_token_[map.province_of(o.target)]);
      break;
    case dip::OrderType::kRetreat:
      own();
      m.push_back(tok::kRto);
      append_location(m, o.target);
      break;
    case dip::OrderType::kDisband:
      if (retreat) {
        own();
        m.push_back(tok::kDsb);
      } else {
        append_unit(m, unit_at(o.location, false));
        m.push_back(tok::kRem);
      }
      break;
    case dip::OrderType::kBuild:
      append_unit(m, dip::Unit{o.unit, o.power, o.location});
      m.push_back(tok::kBld);
      break;
    case dip::OrderType::kWaive:
      m.push_back(power(o.power));
      m.push_back(tok::kWve);
      break;
  }
  return m;
}

tl::expected<dip::Order, Board::Refusal> Board::parse_order(const dip::State& s,
                                                            std::span<const Token> order) const {
  using R = tl::unexpected<Refusal>;
  const dip::Map& map = *map_;
  const auto p = parts(order);
  if (p.size() < 2) return R({tok::kNso, "not an order"});
  dip::Order o;
  // WVE: "POW WVE".
  if (p.size() == 2 && p[1].size() == 1 && p[1][0] == tok::kWve && p[0].size() == 1) {
    const auto power = power_of(p[0][0]);
    if (!power) return R({tok::kNso, "WVE needs a power"});
    o.type = dip::OrderType::kWaive;
    o.power = *power;
    return o;
  }
  // The unit: POW AMY|FLT LOC.
  const auto read_unit = [&](std::span<const Token> u, dip::Unit& out) -> bool {
    const auto up = parts(u);
    if (up.size() != 3 || up[0].size() != 1 || up[1].size() != 1) return false;
    const auto power = power_of(up[0][0]);
    const auto loc = read_loc(up[2]);
    if (!power || (up[1][0] != tok::kAmy && up[1][0] != tok::kFlt) || !loc) return false;
    const auto prov = province_of(loc->province);
    if (!prov) return false;
    dip::LocationId l = map.location(*prov);
    if (loc->coast) {
      const auto c = coast_of(*loc->coast);
      if (!c) return false;
      l = map.location(*prov, *c);
      if (l == dip::kNoLocation) return false;
    }
    out = {up[1][0] == tok::kAmy ? dip::UnitType::kArmy : dip::UnitType::kFleet, *power, l};
    return true;
  };
  dip::Unit unit;
  if (!read_unit(p[0], unit)) return R({tok::kNso, "'" + words(p[0]) + "' is not a unit"});
  o.power = unit.power;
  o.unit = unit.type;
  o.location = unit.location;
  const Token verb = p[1].size() == 1 ? p[1][0] : 0;
  const auto location_part = [&](std::span<const Token> part) -> std::optional<dip::LocationId> {
    const auto loc = read_loc(part);
    if (!loc) return std::nullopt;
    const auto prov = province_of(loc->province);
    if (!prov) return std::nullopt;
    if (!loc->coast) return map.location(*prov);
    const auto c = coast_of(*loc->coast);
    if (!c || map.location(*prov, *c) == dip::kNoLocation) return std::nullopt;
    return map.location(*prov, *c);
  };
  dip::Unit aux;
  switch (verb) {
    case tok::kHld:
      if (p.size() != 2) return R({tok::kNso, "HLD takes nothing more"});
      o.type = dip::OrderType::kHold;
      break;
    case tok::kMto:
    case tok::kRto: {
      const auto to = p.size() == 3 ? location_part(p[2]) : std::nullopt;
      if (!to) return R({tok::kNsp, "no such province"});
      o.type = verb == tok::kMto ? dip::OrderType::kMove : dip::OrderType::kRetreat;
      o.target = *to;
      break;
    }
    case tok::kCto: {
      // CTO PRO VIA (seas): a move by convoy (the route is the adjudicator's to find).
      const auto to = p.size() >= 3 ? location_part(p[2]) : std::nullopt;
      if (!to || (p.size() != 3 && p.size() != 5)) return R({tok::kNsp, "CTO needs a province"});
      o.type = dip::OrderType::kMove;
      o.target = *to;
      o.via_convoy = true;
      break;
    }
    case tok::kSup:
    case tok::kCvy: {
      if (p.size() < 3 || !read_unit(p[2], aux))
        return R({tok::kNsu, "the unit supported or convoyed is not a unit"});
      o.type = verb == tok::kSup ? dip::OrderType::kSupport : dip::OrderType::kConvoy;
      o.aux_unit = aux.type;
      o.aux = aux.location;
      if (p.size() == 5 && p[3].size() == 1 &&
          p[3][0] == (verb == tok::kSup ? tok::kMto : tok::kCto)) {
        const auto to = location_part(p[4]);
        if (!to) return R({tok::kNsp, "no such province"});
        o.target = map.location(map.province_of(*to));
      } else if (!(verb == tok::kSup && p.size() == 3)) {
        return R({tok::kNso, "not a support or convoy order"});
      }
      break;
    }
    case tok::kDsb:
    case tok::kRem:
      if (p.size() != 2) return R({tok::kNso, "takes nothing more"});
      o.type = dip::OrderType::kDisband;
      break;
    case tok::kBld:
      if (p.size() != 2) return R({tok::kNso, "BLD takes nothing more"});
      o.type = dip::OrderType::kBuild;
      break;
    default:
      return R({tok::kNso, "'" + words(p[1]) + "' is not an order"});
  }
  // Seasons: DAIDE's notes for an order of the wrong kind of phase.
  const auto phase = s.phase.type;
  const bool movement = o.type == dip::OrderType::kHold || o.type == dip::OrderType::kMove ||
                        o.type == dip::OrderType::kSupport || o.type == dip::OrderType::kConvoy;
  const bool retreat = o.type == dip::OrderType::kRetreat ||
                       (o.type == dip::OrderType::kDisband && verb == tok::kDsb);
  if ((movement && phase != dip::PhaseType::kMovement) ||
      (retreat && phase != dip::PhaseType::kRetreat) ||
      (!movement && !retreat && phase != dip::PhaseType::kAdjustment))
    return R({tok::kNrs, "not an order for this phase"});
  if (o.type != dip::OrderType::kBuild) {
    const dip::ProvinceId at = map.province_of(o.location);
    const dip::Unit& there = phase == dip::PhaseType::kRetreat ? s.dislodged[at] : s.units[at];
    if (!there.exists() || there.type != unit.type || there.location != unit.location)
      return R({tok::kNsu, "no such unit"});
  }
  auto checked = dip::check_order(map, s, unit.power, o);
  if (!checked) {
    Token note = tok::kFar;
    if (o.type == dip::OrderType::kBuild) note = tok::kHsc;
    if (o.type == dip::OrderType::kRetreat) note = tok::kNvr;
    return R({note, checked.error().message});
  }
  checked->power = unit.power;
  return *checked;
}

Message Board::now(const dip::State& s) const {
  const dip::Map& map = *map_;
  Message m{tok::kNow};
  append_turn(m, s.phase);
  std::vector<dip::Order> retreats;
  for (int p = 0; p < map.num_provinces(); ++p) {
    if (s.units[p].exists()) append_unit(m, s.units[p]);
    const dip::Unit& d = s.dislodged[p];
    if (!d.exists()) continue;
    append_unit(m, d);
    m.pop_back();  // the unit's closing bracket: MRT goes inside it
    m.push_back(tok::kMrt);
    m.push_back(tok::kOpen);
    retreats.clear();
    dip::legal_orders(map, s, d.location, retreats);
    for (const auto& o : retreats)
      if (o.type == dip::OrderType::kRetreat) append_location(m, o.target);
    m.push_back(tok::kClose);
    m.push_back(tok::kClose);
  }
  return m;
}

Message Board::sco(const dip::State& s) const {
  const dip::Map& map = *map_;
  Message m{tok::kSco};
  for (int power = 0; power <= map.num_powers(); ++power) {
    const dip::PowerId who =
        power == map.num_powers() ? dip::kNoPower : static_cast<dip::PowerId>(power);
    Message list;
    dip::for_each_province(map.supply_centres(), [&](dip::ProvinceId p) {
      if (s.owner[p] == who) list.push_back(province_token_[p]);
    });
    if (list.empty()) continue;
    m.push_back(tok::kOpen);
    m.push_back(who == dip::kNoPower ? tok::kUno : this->power(who));
    m.insert(m.end(), list.begin(), list.end());
    m.push_back(tok::kClose);
  }
  return m;
}

Result<void> Board::read_now(std::span<const Token> message, dip::State& s,
                             Retreats* retreats) const {
  const dip::Map& map = *map_;
  const auto p = parts(message);
  if (p.size() < 2 || p[0].size() != 1 || p[0][0] != tok::kNow)
    return fail("DAIDE: not a NOW message: {}", words(message));
  auto phase = turn_of(p[1]);
  if (!phase) return tl::unexpected(phase.error());
  s.phase = *phase;
  s.units.fill(dip::Unit{});
  s.dislodged.fill(dip::Unit{});
  s.attacker_from.fill(dip::kNoProvince);
  s.contested.reset();
  dip::ProvinceSet may_retreat;
  bool any_dislodged = false;
  if (retreats)
    for (auto& r : *retreats) r.reset();
  for (std::size_t i = 2; i < p.size(); ++i) {
    const auto up = parts(p[i]);
    if (up.size() != 3 && up.size() != 5)
      return fail("DAIDE: NOW: '{}' is not a unit", words(p[i]));
    const auto power = up[0].size() == 1 ? power_of(up[0][0]) : std::nullopt;
    const auto loc = read_loc(up[2]);
    const auto prov = loc ? province_of(loc->province) : std::nullopt;
    if (!power || up[1].size() != 1 || (up[1][0] != tok::kAmy && up[1][0] != tok::kFlt) || !prov)
      return fail("DAIDE: NOW: '{}' is not a unit", words(p[i]));
    dip::LocationId l = map.location(*prov);
    if (loc->coast) {
      const auto c = coast_of(*loc->coast);
      if (!c || map.location(*prov, *c) == dip::kNoLocation)
        return fail("DAIDE: NOW: '{}' has no such coast", words(p[i]));
      l = map.location(*prov, *c);
    }
    const dip::Unit u{up[1][0] == tok::kAmy ? dip::UnitType::kArmy : dip::UnitType::kFleet, *power,
                      l};
    if (up.size() == 5) {
      if (up[3].size() != 1 || up[3][0] != tok::kMrt)
        return fail("DAIDE: NOW: '{}' is not a unit", words(p[i]));
      s.dislodged[*prov] = u;
      any_dislodged = true;
      for (const auto& part : parts(up[4]))
        if (const auto r = read_loc(part))
          if (const auto rp = province_of(r->province)) {
            may_retreat.set(*rp);
            if (retreats) (*retreats)[*prov].set(*rp);
          }
    } else {
      if (s.units[*prov].exists()) return fail("DAIDE: NOW: two units in {}", map.abbr(*prov));
      s.units[*prov] = u;
    }
  }
  // The server says where each dislodged unit may go; Kibitz's retreat rules read that from
  // the standoffs and the attackers' origins, which NOW does not give: every other province
  // counts as a standoff.
  if (any_dislodged)
    for (int q = 0; q < map.num_provinces(); ++q)
      if (!may_retreat.test(static_cast<std::size_t>(q)))
        s.contested.set(static_cast<std::size_t>(q));
  return {};
}

Result<void> Board::read_sco(std::span<const Token> message, dip::State& s) const {
  const dip::Map& map = *map_;
  const auto p = parts(message);
  if (p.empty() || p[0].size() != 1 || p[0][0] != tok::kSco)
    return fail("DAIDE: not an SCO message: {}", words(message));
  for (int q = 0; q < map.num_provinces(); ++q) s.owner[q] = dip::kNoPower;
  for (std::size_t i = 1; i < p.size(); ++i) {
    if (p[i].empty()) continue;
    std::optional<dip::PowerId> who;
    if (p[i][0] != tok::kUno) {
      who = power_of(p[i][0]);
      if (!who) return fail("DAIDE: SCO: '{}' is not a power", words(p[i].first(1)));
    }
    for (const Token t : p[i].subspan(1)) {
      const auto prov = province_of(t);
      if (!prov || !map.is_supply_centre(*prov))
        return fail("DAIDE: SCO: '{}' is not a supply centre", words(std::span(&t, 1)));
      s.owner[*prov] = who ? *who : dip::kNoPower;
    }
  }
  return {};
}

Message Board::mdf() const {
  const dip::Map& map = *map_;
  Message m{tok::kMdf, tok::kOpen};
  for (int p = 0; p < map.num_powers(); ++p) m.push_back(power(static_cast<dip::PowerId>(p)));
  m.push_back(tok::kClose);
  // The provinces: the centres by home power (neutral ones under UNO), then the others.
  m.insert(m.end(), {tok::kOpen, tok::kOpen});
  for (int power = 0; power <= map.num_powers(); ++power) {
    m.push_back(tok::kOpen);
    if (power == map.num_powers()) {
      m.push_back(tok::kUno);
      dip::for_each_province(map.supply_centres(), [&](dip::ProvinceId q) {
        if (map.home_power(q) == dip::kNoPower) m.push_back(province_token_[q]);
      });
    } else {
      m.push_back(this->power(static_cast<dip::PowerId>(power)));
      dip::for_each_province(map.homes(static_cast<dip::PowerId>(power)),
                             [&](dip::ProvinceId q) { m.push_back(province_token_[q]); });
    }
    m.push_back(tok::kClose);
  }
  m.insert(m.end(), {tok::kClose, tok::kOpen});
  for (int q = 0; q < map.num_provinces(); ++q)
    if (!map.is_supply_centre(static_cast<dip::ProvinceId>(q))) m.push_back(province_token_[q]);
  m.insert(m.end(), {tok::kClose, tok::kClose, tok::kOpen});
  // The adjacencies.
  for (int q = 0; q < map.num_provinces(); ++q) {
    const auto prov = static_cast<dip::ProvinceId>(q);
    m.push_back(tok::kOpen);
    m.push_back(province_token_[prov]);
    if (!map.is_sea(prov)) {
      m.insert(m.end(), {tok::kOpen, tok::kAmy});
      dip::for_each_province(map.army_neighbours(prov),
                             [&](dip::ProvinceId n) { m.push_back(province_token_[n]); });
      m.push_back(tok::kClose);
    }
    const auto fleet_list = [&](dip::LocationId from, bool coast) {
      const auto& n = map.fleet_neighbours(from);
      if (n.none()) return;
      m.push_back(tok::kOpen);
      if (coast) {
        m.insert(m.end(), {tok::kOpen, tok::kFlt, coast_token(map.coast_of(from)), tok::kClose});
      } else {
        m.push_back(tok::kFlt);
      }
      for (int l = 0; l < map.num_locations(); ++l)
        if (n.test(static_cast<std::size_t>(l)))
          append_location(m, static_cast<dip::LocationId>(l));
      m.push_back(tok::kClose);
    };
    if (map.has_coasts(prov)) {
      for (const auto c : map.coasts(prov)) fleet_list(c, true);
    } else if (!map.is_land(prov)) {
      fleet_list(map.location(prov), false);
    }
    m.push_back(tok::kClose);
  }
  m.push_back(tok::kClose);
  return m;
}

Result<void> Board::check_mdf(std::span<const Token> message) const {
  const dip::Map& map = *map_;
  const auto p = parts(message);
  if (p.size() != 4 || p[0].size() != 1 || p[0][0] != tok::kMdf)
    return fail("DAIDE: MDF: not a map definition (MDF (powers) (provinces) (adjacencies))");
  // Powers.
  std::set<Token> powers(p[1].begin(), p[1].end()), ours;
  for (int q = 0; q < map.num_powers(); ++q) ours.insert(power(static_cast<dip::PowerId>(q)));
  if (powers != ours)
    return fail("DAIDE: MDF: the powers are {}, not the standard seven", words(p[1]));
  const auto province = [&](Token t) -> Result<dip::ProvinceId> {
    const auto q = province_of(t);
    if (!q)
      return fail("DAIDE: MDF: '{}' is not a province of the standard map",
                  words(std::span(&t, 1)));
    return *q;
  };
  // Centres and homes, then the other provinces.
  const auto prov_parts = parts(p[2]);
  if (prov_parts.size() != 2) return fail("DAIDE: MDF: the provinces are not (centres) (others)");
  dip::ProvinceSet centres, others;
  std::array<dip::ProvinceSet, dip::kMaxPowers> homes{};
  for (const auto& group : parts(prov_parts[0])) {
    if (group.empty()) continue;
    std::optional<dip::PowerId> who;
    std::size_t first = 1;
    if (group[0] == tok::kOpen) {
      return fail("DAIDE: MDF: centres shared between powers are not the standard map");
    }
    if (group[0] != tok::kUno) {
      who = power_of(group[0]);
      if (!who) return fail("DAIDE: MDF: '{}' is not a power", words(group.first(1)));
    }
    for (std::size_t i = first; i < group.size(); ++i) {
      auto q = province(group[i]);
      if (!q) return tl::unexpected(q.error());
      centres.set(*q);
      if (who) homes[*who].set(*q);
    }
  }
  for (const Token t : prov_parts[1]) {
    auto q = province(t);
    if (!q) return tl::unexpected(q.error());
    others.set(*q);
  }
  if (centres != map.supply_centres()) return fail("DAIDE: MDF: the supply centres differ");
  for (int q = 0; q < map.num_powers(); ++q)
    if (homes[q] != map.homes(static_cast<dip::PowerId>(q)))
      return fail("DAIDE: MDF: {}'s home centres differ",
                  map.power_name(static_cast<dip::PowerId>(q)));
  if ((centres | others).count() != static_cast<std::size_t>(map.num_provinces()) ||
      (centres & others).any())
    return fail("DAIDE: MDF: the provinces differ from the standard map's");
  // Adjacencies.
  dip::ProvinceSet seen;
  for (const auto& entry : parts(p[3])) {
    const auto e = parts(entry);
    if (e.empty() || e[0].size() != 1)
      return fail("DAIDE: MDF: '{}' is not an adjacency", words(entry));
    auto q = province(e[0][0]);
    if (!q) return tl::unexpected(q.error());
    seen.set(*q);
    bool army_listed = false;
    for (std::size_t i = 1; i < e.size(); ++i) {
      const auto list = parts(e[i]);
      if (list.empty()) continue;
      if (list[0].size() == 1 && list[0][0] == tok::kAmy) {
        army_listed = true;
        dip::ProvinceSet army;
        for (std::size_t k = 1; k < list.size(); ++k) {
          if (list[k].size() != 1)
            return fail("DAIDE: MDF: an army moves to a province, not a coast");
          auto n = province(list[k][0]);
          if (!n) return tl::unexpected(n.error());
          army.set(*n);
        }
        if (army != map.army_neighbours(*q))
          return fail("DAIDE: MDF: an army in {} moves elsewhere than on the standard map",
                      map.abbr(*q));
        continue;
      }
      // (FLT ...) or ((FLT CST) ...).
      dip::LocationId from = map.location(*q);
      if (list[0].size() == 2 && list[0][0] == tok::kFlt) {
        const auto c = coast_of(list[0][1]);
        if (!c || map.location(*q, *c) == dip::kNoLocation)
          return fail("DAIDE: MDF: {} has no such coast", map.abbr(*q));
        from = map.location(*q, *c);
      } else if (!(list[0].size() == 1 && list[0][0] == tok::kFlt)) {
        return fail("DAIDE: MDF: '{}' is not AMY or FLT", words(list[0]));
      }
      dip::LocationSet fleet;
      for (std::size_t k = 1; k < list.size(); ++k) {
        const auto loc = read_loc(list[k]);
        auto n = loc ? province(loc->province) : Result<dip::ProvinceId>(fail("no"));
        if (!n) return fail("DAIDE: MDF: '{}' is not a location", words(list[k]));
        dip::LocationId l = map.location(*n);
        if (loc->coast) {
          const auto c = coast_of(*loc->coast);
          if (!c || map.location(*n, *c) == dip::kNoLocation)
            return fail("DAIDE: MDF: {} has no such coast", map.abbr(*n));
          l = map.location(*n, *c);
        }
        fleet.set(l);
      }
      if (fleet != map.fleet_neighbours(from))
        return fail("DAIDE: MDF: a fleet in {} moves elsewhere than on the standard map",
                    map.location_name(from));
    }
    if (!army_listed && map.army_neighbours(*q).any())
      return fail("DAIDE: MDF: no army moves from {}", map.abbr(*q));
  }
  if (seen.count() != static_cast<std::size_t>(map.num_provinces()))
    return fail("DAIDE: MDF: {} provinces have adjacencies, not {}", seen.count(),
                map.num_provinces());
  return {};
}

}  // namespace kibitz::daide

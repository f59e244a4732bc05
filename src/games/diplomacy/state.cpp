#include "games/diplomacy/state.hpp"

#include <cctype>
#include <nlohmann/json.hpp>

#include "core/text.hpp"

namespace kibitz::diplomacy {

namespace {

constexpr std::string_view kSeasonNames[] = {"spring", "fall", "winter"};
constexpr std::string_view kTypeNames[] = {"movement", "retreat", "adjustment"};

Result<Phase> make_phase(Season s, int year, PhaseType t, std::string_view text) {
  if ((s == Season::kWinter) != (t == PhaseType::kAdjustment))
    return fail("phase '{}': adjustments happen in winter and only then", text);
  if (year < 1 || year > 9999) return fail("phase '{}': year out of range", text);
  return Phase{s, t, year};
}

// Digits only, at most 4 of them.
std::optional<int> parse_year(std::string_view t) {
  if (t.empty() || t.size() > 4) return std::nullopt;
  int y = 0;
  for (const char c : t) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    y = y * 10 + (c - '0');
  }
  return y;
}

}  // namespace

std::string phase_code(Phase p) {
  static constexpr char kSeason[] = {'S', 'F', 'W'};
  static constexpr char kType[] = {'M', 'R', 'A'};
  return fmt::format("{}{}{}", kSeason[static_cast<int>(p.season)], p.year,
                     kType[static_cast<int>(p.type)]);
}

std::string phase_name(Phase p) {
  std::string s(kSeasonNames[static_cast<int>(p.season)]);
  s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return fmt::format("{} {} {}", s, p.year, kTypeNames[static_cast<int>(p.type)]);
}

Result<Phase> parse_phase(std::string_view text) {
  const std::string t = to_lower(trim(text));
  // Short form: S1901M.
  if (t.size() >= 3 && t.find_first_of(" ,\t") == std::string::npos) {
    const auto year = parse_year(std::string_view(t).substr(1, t.size() - 2));
    const std::string_view seasons = "sfw", types = "mra";
    const auto s = seasons.find(t.front()), ty = types.find(t.back());
    if (year && s != std::string_view::npos && ty != std::string_view::npos)
      return make_phase(static_cast<Season>(s), *year, static_cast<PhaseType>(ty), text);
    return fail("bad phase '{}' (expected e.g. S1901M or 'Spring 1901 movement')", text);
  }
  std::string spaced = t;
  for (char& c : spaced)
    if (c == ',') c = ' ';
  const auto w = split_blanks(spaced);
  if (w.size() != 3)
    return fail("bad phase '{}' (expected e.g. S1901M or 'Spring 1901 movement')", text);
  int s = -1, ty = -1;
  for (int i = 0; i < 3; ++i) {
    if (w[0] == kSeasonNames[i] || (i == 1 && w[0] == "autumn")) s = i;
    if (w[2] == kTypeNames[i] || (i == 1 && w[2] == "retreats") ||
        (i == 2 && (w[2] == "build" || w[2] == "builds" || w[2] == "adjustments")) ||
        (i == 0 && w[2] == "moves"))
      ty = i;
  }
  const auto year = parse_year(w[1]);
  if (s < 0 || ty < 0 || !year)
    return fail("bad phase '{}' (expected e.g. S1901M or 'Spring 1901 movement')", text);
  return make_phase(static_cast<Season>(s), *year, static_cast<PhaseType>(ty), text);
}

State initial_state(const Map& map) {
  State s;
  s.phase = Phase{Season::kSpring, PhaseType::kMovement, map.start_year()};
  for (const StartUnit& u : map.start_units()) s.place(Unit{u.type, u.power, u.location}, map);
  for (int p = 0; p < map.num_provinces(); ++p)
    if (map.is_supply_centre(static_cast<ProvinceId>(p)))
      s.owner[p] = map.home_power(static_cast<ProvinceId>(p));
  return s;
}

int count_units(const Map& map, const State& s, PowerId power) {
  int n = 0;
  for (int p = 0; p < map.num_provinces(); ++p) n += s.units[p].power == power;
  return n;
}

int count_centres(const Map& map, const State& s, PowerId power) {
  int n = 0;
  for (int p = 0; p < map.num_provinces(); ++p)
    n += map.is_supply_centre(static_cast<ProvinceId>(p)) && s.owner[p] == power;
  return n;
}

namespace {

using nlohmann::json;

// "A bud", "F stp/sc": a unit of `power` where a unit may stand.
Result<Unit> read_unit(const Map& map, const json& j, PowerId power) {
  if (!j.is_string()) return fail("expected a string such as \"A par\"");
  const std::string& text = j.get_ref<const std::string&>();
  const std::string_view t = trim(text);
  const auto sp = t.find_first_of(" \t");
  if (sp == std::string_view::npos) return fail("expected \"A|F LOCATION\", not '{}'", text);
  const std::string type = to_lower(t.substr(0, sp));
  Unit u;
  u.power = power;
  if (type == "a" || type == "army")
    u.type = UnitType::kArmy;
  else if (type == "f" || type == "fleet")
    u.type = UnitType::kFleet;
  else
    return fail("unit type '{}' is not A or F", t.substr(0, sp));
  const auto loc = map.parse_location(t.substr(sp + 1));
  if (!loc) return tl::unexpected(loc.error());
  const ProvinceId p = map.province_of(*loc);
  if (u.type == UnitType::kArmy) {
    if (map.is_sea(p)) return fail("army in sea province {}", map.abbr(p));
    u.location = map.location(p);  // armies ignore coasts
  } else {
    if (map.is_land(p)) return fail("fleet in land province {}", map.abbr(p));
    if (map.has_coasts(p) && map.coast_of(*loc) == Coast::kNone)
      return fail("a fleet in {} needs a coast ({}/{} ...)", map.abbr(p), map.abbr(p),
                  coast_abbr(map.coast_of(map.coasts(p)[0])));
    u.location = *loc;
  }
  return u;
}

Result<ProvinceId> read_province(const Map& map, const json& j) {
  if (!j.is_string()) return fail("expected a province name");
  const auto loc = map.parse_location(j.get_ref<const std::string&>());
  if (!loc) return tl::unexpected(loc.error());
  return map.province_of(*loc);
}

Result<PowerId> read_power(const Map& map, std::string_view name) {
  const auto p = map.find_power(name);
  if (!p) return fail("unknown power '{}'", name);
  return *p;
}

Result<State> read_state(const Map& map, const json& j) {
  if (!j.is_object()) return fail("expected an object");
  State s;
  for (const auto& [key, value] : j.items())
    if (key != "map" && key != "phase" && key != "units" && key != "dislodged" &&
        key != "contested" && key != "centres")
      return fail("unknown key '{}'", key);
  if (j.contains("map")) {
    const json& m = j["map"];
    if (!m.is_string()) return fail("map: expected a string");
    if (name_key(m.get_ref<const std::string&>()) != name_key(map.name()))
      return fail("map: the state is for map '{}', not '{}'", m.get_ref<const std::string&>(),
                  map.name());
  }
  if (!j.contains("phase")) return fail("missing key 'phase'");
  if (!j["phase"].is_string()) return fail("phase: expected a string such as \"S1901M\"");
  const auto phase = parse_phase(j["phase"].get_ref<const std::string&>());
  if (!phase) return tl::unexpected(phase.error());
  s.phase = *phase;
  const bool retreat = s.phase.type == PhaseType::kRetreat;

  if (j.contains("units")) {
    const json& units = j["units"];
    if (!units.is_object()) return fail("units: expected an object of powers");
    for (const auto& [name, list] : units.items()) {
      const std::string where = fmt::format("units.{}", name);
      const auto power = read_power(map, name);
      if (!power) return with_context(power.error(), where);
      if (!list.is_array()) return fail("{}: expected an array", where);
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = fmt::format("{}[{}]", where, i);
        const auto u = read_unit(map, list[i], *power);
        if (!u) return with_context(u.error(), at);
        const ProvinceId p = map.province_of(u->location);
        if (s.occupied(p)) return fail("{}: two units in {}", at, map.abbr(p));
        s.units[p] = *u;
      }
    }
  }

  if (j.contains("dislodged")) {
    const json& list = j["dislodged"];
    if (!list.is_array()) return fail("dislodged: expected an array");
    if (!list.empty() && !retreat)
      return fail("dislodged: units are dislodged only in retreat phases");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string at = fmt::format("dislodged[{}]", i);
      const json& d = list[i];
      if (!d.is_object()) return fail("{}: expected an object", at);
      for (const auto& [key, value] : d.items())
        if (key != "power" && key != "unit" && key != "attacker_from")
          return fail("{}: unknown key '{}'", at, key);
      if (!d.contains("power") || !d["power"].is_string()) return fail("{}: missing power", at);
      if (!d.contains("unit")) return fail("{}: missing unit", at);
      const auto power = read_power(map, d["power"].get_ref<const std::string&>());
      if (!power) return with_context(power.error(), at);
      const auto u = read_unit(map, d["unit"], *power);
      if (!u) return with_context(u.error(), at);
      const ProvinceId p = map.province_of(u->location);
      if (s.dislodged[p].exists()) return fail("{}: two dislodged units in {}", at, map.abbr(p));
      s.dislodged[p] = *u;
      if (d.contains("attacker_from")) {
        const auto from = read_province(map, d["attacker_from"]);
        if (!from) return with_context(from.error(), at + ".attacker_from");
        if (*from == p) return fail("{}: attacked from its own province", at);
        s.attacker_from[p] = *from;
      }
    }
  }

  if (j.contains("contested")) {
    const json& list = j["contested"];
    if (!list.is_array()) return fail("contested: expected an array");
    if (!list.empty() && !retreat)
      return fail("contested: standoffs matter only in retreat phases");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const auto p = read_province(map, list[i]);
      if (!p) return with_context(p.error(), fmt::format("contested[{}]", i));
      s.contested.set(*p);
    }
  }

  if (j.contains("centres")) {
    const json& centres = j["centres"];
    if (!centres.is_object()) return fail("centres: expected an object of powers");
    for (const auto& [name, list] : centres.items()) {
      const std::string where = fmt::format("centres.{}", name);
      const auto power = read_power(map, name);
      if (!power) return with_context(power.error(), where);
      if (!list.is_array()) return fail("{}: expected an array", where);
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = fmt::format("{}[{}]", where, i);
        const auto p = read_province(map, list[i]);
        if (!p) return with_context(p.error(), at);
        if (!map.is_supply_centre(*p))
          return fail("{}: {} is not a supply centre", at, map.abbr(*p));
        if (s.owner[*p] != kNoPower) return fail("{}: {} is owned twice", at, map.abbr(*p));
        s.owner[*p] = *power;
      }
    }
  }
  return s;
}

}  // namespace

Result<State> read_state_json(const Map& map, std::string_view text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    return fail("state JSON: {}", e.what());
  }
  try {
    auto s = read_state(map, j);
    if (!s) return with_context(s.error(), "state JSON");
    return s;
  } catch (const json::exception& e) {  // a type check missed above: still one line
    return fail("state JSON: {}", e.what());
  }
}

std::string write_state_json(const Map& map, const State& s) {
  nlohmann::ordered_json j;
  j["map"] = std::string(map.name());
  j["phase"] = phase_code(s.phase);
  auto& units = j["units"] = nlohmann::ordered_json::object();
  auto& centres = j["centres"] = nlohmann::ordered_json::object();
  for (int pw = 0; pw < map.num_powers(); ++pw) {
    const auto power = static_cast<PowerId>(pw);
    auto list = nlohmann::ordered_json::array();
    auto owned = nlohmann::ordered_json::array();
    for (int p = 0; p < map.num_provinces(); ++p) {
      const Unit& u = s.units[p];
      if (u.power == power)
        list.push_back(fmt::format("{} {}", unit_letter(u.type), map.location_name(u.location)));
      if (map.is_supply_centre(static_cast<ProvinceId>(p)) && s.owner[p] == power)
        owned.push_back(std::string(map.abbr(static_cast<ProvinceId>(p))));
    }
    units[std::string(map.power_name(power))] = std::move(list);
    centres[std::string(map.power_name(power))] = std::move(owned);
  }
  auto dislodged = nlohmann::ordered_json::array();
  auto contested = nlohmann::ordered_json::array();
  for (int p = 0; p < map.num_provinces(); ++p) {
    const Unit& u = s.dislodged[p];
    if (u.exists()) {
      nlohmann::ordered_json d;
      d["power"] = std::string(map.power_name(u.power));
      d["unit"] = fmt::format("{} {}", unit_letter(u.type), map.location_name(u.location));
      if (s.attacker_from[p] != kNoProvince)
        d["attacker_from"] = std::string(map.abbr(s.attacker_from[p]));
      dislodged.push_back(std::move(d));
    }
    if (s.contested.test(p)) contested.push_back(std::string(map.abbr(static_cast<ProvinceId>(p))));
  }
  if (!dislodged.empty()) j["dislodged"] = std::move(dislodged);
  if (!contested.empty()) j["contested"] = std::move(contested);
  return j.dump(2) + "\n";
}

}  // namespace kibitz::diplomacy

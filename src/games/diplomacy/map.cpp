#include "games/diplomacy/map.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/text.hpp"

namespace kibitz::diplomacy {

std::string_view coast_abbr(Coast c) {
  switch (c) {
    case Coast::kNorth:
      return "nc";
    case Coast::kSouth:
      return "sc";
    case Coast::kEast:
      return "ec";
    case Coast::kWest:
      return "wc";
    case Coast::kNone:
      break;
  }
  return "";
}

std::string_view type_name(ProvinceType t) {
  switch (t) {
    case ProvinceType::kLand:
      return "land";
    case ProvinceType::kCoast:
      return "coast";
    case ProvinceType::kSea:
      return "sea";
  }
  return "?";
}

std::string_view unit_letter(UnitType u) {
  return u == UnitType::kArmy ? "A" : u == UnitType::kFleet ? "F" : "";
}

std::string name_key(std::string_view text) {
  std::string k;
  k.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) k += static_cast<char>(std::tolower(u));
  }
  return k;
}

std::optional<Coast> parse_coast(std::string_view text) {
  const std::string k = name_key(text);
  if (k.empty()) return std::nullopt;
  // The first letter says which coast; the rest must be one of the usual spellings.
  const std::string_view rest = std::string_view(k).substr(1);
  Coast c;
  switch (k[0]) {
    case 'n':
      c = Coast::kNorth;
      break;
    case 's':
      c = Coast::kSouth;
      break;
    case 'e':
      c = Coast::kEast;
      break;
    case 'w':
      c = Coast::kWest;
      break;
    default:
      return std::nullopt;
  }
  static constexpr std::string_view kWords[] = {"north", "south", "east", "west"};
  const std::string_view word = kWords[static_cast<int>(c) - 1];
  if (rest.empty() || rest == "c" || rest == "cs") return c;  // n, nc, ncs (DAIDE)
  if (k == word || k == std::string(word) + "coast") return c;
  return std::nullopt;
}

std::string Map::location_name(LocationId l) const {
  std::string s(abbr(province_of(l)));
  if (coast_of(l) != Coast::kNone) {
    s += '/';
    s += coast_abbr(coast_of(l));
  }
  return s;
}

std::optional<PowerId> Map::find_power(std::string_view text) const {
  const std::string k = name_key(text);
  if (k.empty()) return std::nullopt;
  for (std::size_t i = 0; i < powers_.size(); ++i)
    if (k == name_key(powers_[i].name) || k == name_key(powers_[i].abbr))
      return static_cast<PowerId>(i);
  return std::nullopt;
}

std::optional<ProvinceId> Map::find_province(std::string_view text) const {
  const auto it = names_.find(name_key(text));
  if (it == names_.end()) return std::nullopt;
  return it->second;
}

Result<LocationId> Map::parse_location(std::string_view text) const {
  const std::string_view t = trim(text);
  if (t.empty()) return fail("empty location");
  if (const auto p = find_province(t)) return location(*p);
  std::string_view prov, coast;
  if (const auto cut = t.find_first_of("/("); cut != std::string_view::npos) {
    prov = trim(t.substr(0, cut));
    coast = t.substr(cut + 1);
    if (t[cut] == '(') {
      if (coast.empty() || coast.back() != ')') return fail("missing ')' in '{}'", t);
      coast.remove_suffix(1);
    }
    coast = trim(coast);
  } else {
    // "stp nc": the last word may be the coast.
    const auto sp = t.find_last_of(" \t");
    if (sp == std::string_view::npos || !parse_coast(t.substr(sp + 1)))
      return fail("unknown province '{}'", t);
    prov = trim(t.substr(0, sp));
    coast = t.substr(sp + 1);
  }
  const auto p = find_province(prov);
  if (!p) return fail("unknown province '{}'", prov);
  const auto c = parse_coast(coast);
  if (!c) return fail("unknown coast '{}' of {}", coast, abbr(*p));
  const LocationId l = location(*p, *c);
  if (l == kNoLocation) return fail("{} has no coast {}", abbr(*p), coast_abbr(*c));
  return l;
}

namespace {

// A statement that names other provinces, resolved once every province is known.
struct Pending {
  int line;
  ProvinceId province;
  Coast coast;  // fleet/XC lines
  std::vector<std::string> words;
};

struct PendingUnit {
  int line;
  std::string power, type, location;
};

struct PendingProvince {
  int line;
  std::string id, type, centre, name;
  std::vector<std::string> coasts;
  int coasts_line = 0;
};

}  // namespace

Result<Map> parse_map(std::string_view text, std::string_view source) {
  Map m;
  int line_no = 0;
  const auto err = [&](int line, const std::string& message) {
    return tl::unexpected<Error>(Error{one_line(fmt::format("{}:{}: {}", source, line, message))});
  };

  std::vector<PendingProvince> provs;
  std::vector<Pending> alias_lines, army_lines, fleet_lines;
  std::vector<PendingUnit> units;

  std::size_t pos = 0;
  while (pos <= text.size()) {
    const auto nl = text.find('\n', pos);
    std::string_view line =
        text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    const auto w = split_blanks(trim(line));
    if (w.empty()) continue;
    const std::string key = to_lower(w[0]);
    const auto args = [&](std::size_t first) {
      std::vector<std::string> v;
      for (std::size_t i = first; i < w.size(); ++i) v.emplace_back(w[i]);
      return v;
    };
    const bool in_province = !provs.empty();
    const auto current = static_cast<ProvinceId>(provs.size() - 1);
    if (key == "map") {
      if (w.size() != 2) return err(line_no, "expected 'map NAME'");
      m.name_ = std::string(w[1]);
    } else if (key == "start") {
      if (w.size() != 3) return err(line_no, "expected 'start spring YEAR'");
      if (to_lower(w[1]) != "spring") return err(line_no, "a game starts in spring");
      int year = 0;
      for (const char c : w[2]) {
        if (!std::isdigit(static_cast<unsigned char>(c)) || year > 99999)
          return err(line_no, fmt::format("bad year '{}'", w[2]));
        year = year * 10 + (c - '0');
      }
      if (year < 1 || year > 9999) return err(line_no, fmt::format("bad year '{}'", w[2]));
      m.start_year_ = year;
    } else if (key == "power") {
      if (w.size() != 3) return err(line_no, "expected 'power NAME ABBR'");
      if (m.powers_.size() == kMaxPowers)
        return err(line_no, fmt::format("more than {} powers", kMaxPowers));
      for (const auto& p : m.powers_)
        if (name_key(p.name) == name_key(w[1]) || name_key(p.abbr) == name_key(w[2]) ||
            name_key(p.name) == name_key(w[2]) || name_key(p.abbr) == name_key(w[1]))
          return err(line_no, fmt::format("power '{}' named twice", w[1]));
      if (name_key(w[1]).empty() || name_key(w[2]).empty())
        return err(line_no, "a power's name and abbreviation need letters");
      m.powers_.push_back({std::string(w[1]), std::string(w[2])});
    } else if (key == "province") {
      if (w.size() < 5) return err(line_no, "expected 'province ID TYPE CENTRE FULL NAME'");
      if (provs.size() == kMaxProvinces)
        return err(line_no, fmt::format("more than {} provinces", kMaxProvinces));
      std::string name;
      for (std::size_t i = 4; i < w.size(); ++i) {
        if (!name.empty()) name += ' ';
        name += w[i];
      }
      provs.push_back({line_no, to_lower(w[1]), to_lower(w[2]), std::string(w[3]), name, {}});
    } else if (key == "alias" || key == "army" || key == "coasts" || key == "fleet" ||
               key.starts_with("fleet/")) {
      if (!in_province) return err(line_no, fmt::format("'{}' before any province", w[0]));
      if (w.size() < 2) return err(line_no, fmt::format("'{}' names nothing", w[0]));
      if (key == "alias") {
        alias_lines.push_back({line_no, current, Coast::kNone, args(1)});
      } else if (key == "army") {
        army_lines.push_back({line_no, current, Coast::kNone, args(1)});
      } else if (key == "coasts") {
        if (!provs.back().coasts.empty())
          return err(line_no, fmt::format("coasts of {} given twice", provs.back().id));
        provs.back().coasts = args(1);
        provs.back().coasts_line = line_no;
      } else {
        Coast c = Coast::kNone;
        if (key != "fleet") {
          const auto pc = parse_coast(std::string_view(key).substr(6));
          if (!pc) return err(line_no, fmt::format("unknown coast in '{}'", w[0]));
          c = *pc;
        }
        fleet_lines.push_back({line_no, current, c, args(1)});
      }
    } else if (key == "unit") {
      if (w.size() != 4) return err(line_no, "expected 'unit POWER A|F LOCATION'");
      units.push_back({line_no, std::string(w[1]), std::string(w[2]), std::string(w[3])});
    } else {
      return err(line_no, fmt::format("unknown statement '{}'", w[0]));
    }
  }

  if (provs.empty()) return fail("{}: no provinces", source);
  if (m.powers_.empty()) return fail("{}: no powers", source);

  // Provinces, their names and centres.
  for (std::size_t i = 0; i < provs.size(); ++i) {
    const auto& pp = provs[i];
    Map::Province p;
    p.abbr = pp.id;
    p.name = pp.name;
    if (pp.id.empty() || name_key(pp.id) != pp.id)
      return err(pp.line, fmt::format("province id '{}' must be letters and digits", pp.id));
    if (pp.type == "land")
      p.type = ProvinceType::kLand;
    else if (pp.type == "coast")
      p.type = ProvinceType::kCoast;
    else if (pp.type == "sea")
      p.type = ProvinceType::kSea;
    else
      return err(pp.line, fmt::format("unknown province type '{}' (land, coast or sea)", pp.type));
    const auto id = static_cast<ProvinceId>(i);
    if (p.type == ProvinceType::kCoast) m.coastal_.set(id);
    if (pp.centre != "-") {
      if (p.type == ProvinceType::kSea)
        return err(pp.line, fmt::format("sea province {} cannot be a supply centre", pp.id));
      m.centres_.set(id);
      if (pp.centre != "*") {
        const auto power = m.find_power(pp.centre);
        if (!power) return err(pp.line, fmt::format("unknown power '{}'", pp.centre));
        p.home = *power;
        m.homes_[*power].set(id);
      }
    }
    for (const std::string& n : {pp.id, name_key(pp.name)}) {
      const std::string k = name_key(n);
      if (k.empty()) return err(pp.line, "a province name needs letters");
      const auto [it, fresh] = m.names_.emplace(k, id);
      if (!fresh && it->second != id)
        return err(pp.line, fmt::format("name '{}' is already {}", n, provs[it->second].id));
    }
    m.provinces_.push_back(std::move(p));
  }
  for (const auto& al : alias_lines)
    for (const auto& word : al.words) {
      const std::string k = name_key(word);
      if (k.empty()) return err(al.line, fmt::format("alias '{}' needs letters", word));
      const auto [it, fresh] = m.names_.emplace(k, al.province);
      if (!fresh && it->second != al.province)
        return err(al.line, fmt::format("alias '{}' is already {}", word, provs[it->second].id));
    }

  // Locations: the provinces first, then the coasts of split-coast provinces.
  for (auto& row : m.coast_loc_) row.fill(kNoLocation);
  for (std::size_t i = 0; i < provs.size(); ++i) {
    m.loc_province_.push_back(static_cast<ProvinceId>(i));
    m.loc_coast_.push_back(Coast::kNone);
    m.coast_loc_[i][0] = static_cast<LocationId>(i);
  }
  for (std::size_t i = 0; i < provs.size(); ++i) {
    const auto& pp = provs[i];
    if (pp.coasts.empty()) continue;
    if (m.provinces_[i].type != ProvinceType::kCoast)
      return err(pp.coasts_line, fmt::format("only coastal provinces have split coasts"));
    if (pp.coasts.size() < 2 || pp.coasts.size() > 4)
      return err(pp.coasts_line, "a split-coast province has 2 to 4 coasts");
    for (const auto& cs : pp.coasts) {
      const auto c = parse_coast(cs);
      if (!c) return err(pp.coasts_line, fmt::format("unknown coast '{}'", cs));
      if (m.coast_loc_[i][static_cast<int>(*c)] != kNoLocation)
        return err(pp.coasts_line, fmt::format("coast '{}' given twice", cs));
      if (m.loc_province_.size() >= kMaxLocations)
        return err(pp.coasts_line, fmt::format("more than {} locations", kMaxLocations));
      const auto l = static_cast<LocationId>(m.loc_province_.size());
      m.loc_province_.push_back(static_cast<ProvinceId>(i));
      m.loc_coast_.push_back(*c);
      m.coast_loc_[i][static_cast<int>(*c)] = l;
      auto& prov = m.provinces_[i];
      prov.coasts[prov.num_coasts++] = l;
    }
  }

  // Army adjacency.
  for (const auto& pl : army_lines) {
    if (m.is_sea(pl.province))
      return err(pl.line,
                 fmt::format("armies cannot stand in sea province {}", m.abbr(pl.province)));
    for (const auto& word : pl.words) {
      const auto q = m.find_province(word);
      if (!q) return err(pl.line, fmt::format("unknown province '{}'", word));
      if (*q == pl.province) return err(pl.line, fmt::format("{} next to itself", word));
      if (m.is_sea(*q))
        return err(pl.line, fmt::format("army neighbour {} is a sea province", m.abbr(*q)));
      m.army_[pl.province].set(*q);
    }
  }
  // Fleet adjacency, by location.
  for (const auto& pl : fleet_lines) {
    const ProvinceId p = pl.province;
    if (m.is_land(p))
      return err(pl.line, fmt::format("fleets cannot stand in land province {}", m.abbr(p)));
    if (pl.coast == Coast::kNone && m.has_coasts(p))
      return err(pl.line, fmt::format("{} has split coasts: write fleet/{} ...", m.abbr(p),
                                      coast_abbr(m.coast_of(m.coasts(p)[0]))));
    const LocationId from = m.location(p, pl.coast);
    if (from == kNoLocation)
      return err(pl.line, fmt::format("{} has no coast {}", m.abbr(p), coast_abbr(pl.coast)));
    for (const auto& word : pl.words) {
      const auto to = m.parse_location(word);
      if (!to) return err(pl.line, to.error().message);
      const ProvinceId q = m.province_of(*to);
      if (q == p) return err(pl.line, fmt::format("{} next to itself", word));
      if (m.is_land(q))
        return err(pl.line, fmt::format("fleet neighbour {} is a land province", m.abbr(q)));
      if (m.has_coasts(q) && m.coast_of(*to) == Coast::kNone)
        return err(pl.line, fmt::format("fleet neighbour {} needs a coast", m.abbr(q)));
      m.fleet_[from].set(*to);
    }
  }
  // Every edge from both ends: a one-sided edge is a typo in the file.
  for (const auto& pl : army_lines)
    for (const auto& word : pl.words) {
      const ProvinceId q = *m.find_province(word);
      if (!m.army_[q].test(pl.province))
        return err(pl.line, fmt::format("army edge {}-{} is not listed from {}",
                                        m.abbr(pl.province), m.abbr(q), m.abbr(q)));
    }
  for (const auto& pl : fleet_lines) {
    const LocationId from = m.location(pl.province, pl.coast);
    for (const auto& word : pl.words) {
      const LocationId to = *m.parse_location(word);
      if (!m.fleet_[to].test(from))
        return err(pl.line,
                   fmt::format("fleet edge {}-{} is not listed from {}", m.location_name(from),
                               m.location_name(to), m.location_name(to)));
    }
  }
  for (std::size_t l = 0; l < m.loc_province_.size(); ++l)
    for (std::size_t t = 0; t < m.loc_province_.size(); ++t)
      if (m.fleet_[l].test(t)) m.fleet_reach_[l].set(m.loc_province_[t]);

  // Starting units.
  ProvinceSet occupied;
  for (const auto& u : units) {
    const auto power = m.find_power(u.power);
    if (!power) return err(u.line, fmt::format("unknown power '{}'", u.power));
    const std::string t = to_lower(u.type);
    if (t != "a" && t != "f")
      return err(u.line, fmt::format("unit type '{}' is not A or F", u.type));
    const auto loc = m.parse_location(u.location);
    if (!loc) return err(u.line, loc.error().message);
    const ProvinceId p = m.province_of(*loc);
    if (t == "a") {
      if (m.is_sea(p)) return err(u.line, fmt::format("army in sea province {}", m.abbr(p)));
      if (m.coast_of(*loc) != Coast::kNone)
        return err(u.line, fmt::format("armies stand on no coast: {}", m.abbr(p)));
    } else {
      if (m.is_land(p)) return err(u.line, fmt::format("fleet in land province {}", m.abbr(p)));
      if (m.has_coasts(p) && m.coast_of(*loc) == Coast::kNone)
        return err(u.line, fmt::format("a fleet in {} needs a coast", m.abbr(p)));
    }
    if (occupied.test(p)) return err(u.line, fmt::format("two units in {}", m.abbr(p)));
    occupied.set(p);
    m.start_units_.push_back({*power, t == "a" ? UnitType::kArmy : UnitType::kFleet, *loc});
  }
  if (m.name_.empty()) m.name_ = "unnamed";
  return m;
}

Result<Map> load_map_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("{}: cannot open", path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_map(ss.str(), path);
}

const Map& standard_map() {
  static const Map map = [] {
    auto r = parse_map(standard_map_text(), "standard.map.txt");
    if (!r) {
      // The embedded file is checked by the tests; failing here is a broken build.
      std::fprintf(stderr, "kibitz: embedded Diplomacy map: %s\n", r.error().message.c_str());
      std::abort();
    }
    return std::move(*r);
  }();
  return map;
}

}  // namespace kibitz::diplomacy

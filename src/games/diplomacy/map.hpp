#pragma once
// The Diplomacy map: provinces, split coasts, army and fleet adjacency, supply centres, home
// centres and the starting units, read from a Kibitz map file (the standard map is
// data/diplomacy/standard.map.txt, embedded in the library; docs/diplomacy.md has the format).
//
// Everything is a small integer so the adjudicator can index arrays. Provinces are numbered
// 0..num_provinces()-1 in file order. A *location* is where a unit stands: location p for
// p < num_provinces() is province p itself (every army, and fleets outside split-coast
// provinces); the ids from num_provinces() up are the coasts of split-coast provinces
// (spa/nc, spa/sc, ...). Adjacency is precomputed into bit sets: a query is one bit test.
#include <array>
#include <bitset>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/error.hpp"

namespace kibitz::diplomacy {

using ProvinceId = std::uint8_t;
using LocationId = std::uint8_t;
using PowerId = std::uint8_t;

inline constexpr std::size_t kMaxProvinces = 128;
inline constexpr std::size_t kMaxLocations = 192;
inline constexpr std::size_t kMaxPowers = 16;
inline constexpr ProvinceId kNoProvince = 0xff;
inline constexpr LocationId kNoLocation = 0xff;
inline constexpr PowerId kNoPower = 0xff;

enum class ProvinceType : std::uint8_t { kLand, kCoast, kSea };
enum class Coast : std::uint8_t { kNone, kNorth, kSouth, kEast, kWest };
// kNone: an order that does not say which kind of unit ("A BUR S WAL - PIC", "REMOVE PAR").
enum class UnitType : std::uint8_t { kArmy, kFleet, kNone };

inline constexpr int kNumCoasts = 5;

std::string_view coast_abbr(Coast c);        // "", "nc", "sc", "ec", "wc"
std::string_view type_name(ProvinceType t);  // "land", "coast", "sea"
std::string_view unit_letter(UnitType u);    // "A", "F", ""
// "nc", "north", "ncs", "north coast", "n" ... (any case); nullopt for anything else.
std::optional<Coast> parse_coast(std::string_view text);

using ProvinceSet = std::bitset<kMaxProvinces>;
using LocationSet = std::bitset<kMaxLocations>;

struct StartUnit {
  PowerId power;
  UnitType type;
  LocationId location;
};

class Map {
 public:
  std::string_view name() const { return name_; }
  int num_provinces() const { return static_cast<int>(provinces_.size()); }
  int num_locations() const { return static_cast<int>(loc_province_.size()); }
  int num_powers() const { return static_cast<int>(powers_.size()); }
  int start_year() const { return start_year_; }

  // --- provinces
  std::string_view abbr(ProvinceId p) const { return provinces_[p].abbr; }  // "spa"
  std::string_view full_name(ProvinceId p) const { return provinces_[p].name; }
  ProvinceType type(ProvinceId p) const { return provinces_[p].type; }
  bool is_sea(ProvinceId p) const { return type(p) == ProvinceType::kSea; }
  bool is_land(ProvinceId p) const { return type(p) == ProvinceType::kLand; }
  bool is_coastal(ProvinceId p) const { return type(p) == ProvinceType::kCoast; }
  const ProvinceSet& coastal_provinces() const { return coastal_; }
  bool is_supply_centre(ProvinceId p) const { return centres_.test(p); }
  const ProvinceSet& supply_centres() const { return centres_; }
  int num_supply_centres() const { return static_cast<int>(centres_.count()); }
  // The power whose home centre p is; kNoPower for neutral centres and other provinces.
  PowerId home_power(ProvinceId p) const { return provinces_[p].home; }
  const ProvinceSet& homes(PowerId power) const { return homes_[power]; }
  // The coast locations of a split-coast province; empty for every other province.
  std::span<const LocationId> coasts(ProvinceId p) const {
    return {provinces_[p].coasts.data(), provinces_[p].num_coasts};
  }
  bool has_coasts(ProvinceId p) const { return provinces_[p].num_coasts > 0; }

  // --- locations
  ProvinceId province_of(LocationId l) const { return loc_province_[l]; }
  Coast coast_of(LocationId l) const { return loc_coast_[l]; }
  // Province p with coast c (kNone: the province itself); kNoLocation when p lacks that coast.
  LocationId location(ProvinceId p, Coast c = Coast::kNone) const {
    return coast_loc_[p][static_cast<int>(c)];
  }
  std::string location_name(LocationId l) const;  // "spa/nc", "par"

  // --- adjacency
  bool army_adjacent(ProvinceId from, ProvinceId to) const { return army_[from].test(to); }
  bool fleet_adjacent(LocationId from, LocationId to) const { return fleet_[from].test(to); }
  // A fleet at `from` can move to some coast of province `to` (what supports and convoys ask).
  bool fleet_reaches(LocationId from, ProvinceId to) const { return fleet_reach_[from].test(to); }
  const ProvinceSet& army_neighbours(ProvinceId p) const { return army_[p]; }
  const LocationSet& fleet_neighbours(LocationId l) const { return fleet_[l]; }
  const ProvinceSet& fleet_reach(LocationId l) const { return fleet_reach_[l]; }

  // --- powers
  std::string_view power_name(PowerId p) const { return powers_[p].name; }  // "England"
  std::string_view power_abbr(PowerId p) const { return powers_[p].abbr; }  // "ENG"
  // By name or abbreviation, any case.
  std::optional<PowerId> find_power(std::string_view text) const;

  // --- names
  // A province by abbreviation, alias or full name, ignoring case, blanks, '-', '.' and '\''.
  std::optional<ProvinceId> find_province(std::string_view text) const;
  // A location: a province name, optionally with a coast ("stp/nc", "STP(NC)", "stp nc",
  // "St Petersburg (north coast)"). The error says what is wrong ("ber has no coast nc").
  Result<LocationId> parse_location(std::string_view text) const;
  std::optional<LocationId> find_location(std::string_view text) const {
    auto r = parse_location(text);
    return r ? std::optional<LocationId>(*r) : std::nullopt;
  }

  std::span<const StartUnit> start_units() const { return start_units_; }

 private:
  friend Result<Map> parse_map(std::string_view text, std::string_view source);

  struct Province {
    std::string abbr, name;
    ProvinceType type = ProvinceType::kLand;
    PowerId home = kNoPower;
    std::uint8_t num_coasts = 0;
    std::array<LocationId, 4> coasts{};
  };
  struct Power {
    std::string name, abbr;
  };

  std::string name_;
  int start_year_ = 1901;
  std::vector<Province> provinces_;
  std::vector<Power> powers_;
  std::vector<ProvinceId> loc_province_;
  std::vector<Coast> loc_coast_;
  std::array<std::array<LocationId, kNumCoasts>, kMaxProvinces> coast_loc_{};
  ProvinceSet centres_, coastal_;
  std::array<ProvinceSet, kMaxPowers> homes_{};
  std::array<ProvinceSet, kMaxProvinces> army_{};
  std::array<LocationSet, kMaxLocations> fleet_{};
  std::array<ProvinceSet, kMaxLocations> fleet_reach_{};
  std::unordered_map<std::string, ProvinceId> names_;  // name_key() of every name and alias
  std::vector<StartUnit> start_units_;
};

// The key names are matched by: lower case, letters and digits only ("Mid-Atlantic Ocean" ->
// "midatlanticocean").
std::string name_key(std::string_view text);

// Reads a map file; errors name the source and line ("standard.map.txt:12: unknown province
// 'xyz'").
Result<Map> parse_map(std::string_view text, std::string_view source = "map");
Result<Map> load_map_file(const std::string& path);

// The standard map, embedded at build time and parsed once.
const Map& standard_map();
// The embedded text of data/diplomacy/standard.map.txt.
std::string_view standard_map_text();

}  // namespace kibitz::diplomacy

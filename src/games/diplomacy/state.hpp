#pragma once
// A Diplomacy position: the phase, the units, the units dislodged in the last movement phase
// (with the province their attacker came from, where they may not retreat), the provinces
// left empty by a standoff (no retreats there either) and who owns each supply centre.
//
// State is a plain fixed-size value indexed by province id, so the adjudicator and the
// search copy it without allocating; it does not hold its Map, so functions that need
// names or adjacency take the Map too. JSON form: docs/diplomacy.md.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "games/diplomacy/map.hpp"

namespace kibitz::diplomacy {

enum class Season : std::uint8_t { kSpring, kFall, kWinter };
enum class PhaseType : std::uint8_t { kMovement, kRetreat, kAdjustment };

struct Phase {
  Season season = Season::kSpring;
  PhaseType type = PhaseType::kMovement;
  int year = 1901;
  bool operator==(const Phase&) const = default;
};

// "S1901M", "F1901R", "W1901A": the short form most tools use.
std::string phase_code(Phase p);
// "Spring 1901 movement" (lower-case type).
std::string phase_name(Phase p);
// The short form or the long one ("Fall 1901, Retreat", any case). Winter is always an
// adjustment phase and adjustments happen only in winter.
Result<Phase> parse_phase(std::string_view text);

struct Unit {
  UnitType type = UnitType::kNone;
  PowerId power = kNoPower;  // kNoPower: no unit
  LocationId location = kNoLocation;
  bool exists() const { return power != kNoPower; }
  bool operator==(const Unit&) const = default;
};

struct State {
  Phase phase;
  std::array<Unit, kMaxProvinces> units{};      // by the province the unit stands in
  std::array<Unit, kMaxProvinces> dislodged{};  // retreat phases: by the province it was in
  std::array<ProvinceId, kMaxProvinces> attacker_from{};  // of the unit dislodged there
  std::array<PowerId, kMaxProvinces> owner{};             // supply centres; kNoPower: unowned
  ProvinceSet contested;  // retreat phases: standoff provinces of the movement phase

  State() {
    attacker_from.fill(kNoProvince);
    owner.fill(kNoPower);
  }

  const Unit& unit_at(ProvinceId p) const { return units[p]; }
  bool occupied(ProvinceId p) const { return units[p].exists(); }
  void place(const Unit& u, const Map& map) { units[map.province_of(u.location)] = u; }
  void remove(ProvinceId p) { units[p] = Unit{}; }
  void dislodge(ProvinceId p, ProvinceId from) {
    dislodged[p] = units[p];
    attacker_from[p] = from;
    units[p] = Unit{};
  }
  void clear_dislodged(ProvinceId p) {
    dislodged[p] = Unit{};
    attacker_from[p] = kNoProvince;
  }

  bool operator==(const State&) const = default;
};

// Spring of the map's first year, its starting units, every home centre owned by its power.
State initial_state(const Map& map);

int count_units(const Map& map, const State& s, PowerId power);
int count_centres(const Map& map, const State& s, PowerId power);

// Reads a state; every error is one line naming the key and the problem
// ("state JSON: units.France[1]: fleet in land province bur").
Result<State> read_state_json(const Map& map, std::string_view text);
// Pretty-printed (2-space indent), powers in map order, provinces in id order.
std::string write_state_json(const Map& map, const State& s);

}  // namespace kibitz::diplomacy

#pragma once
// Diplomacy orders in standard notation: parsing (with the usual tolerance of case,
// spacing, words and abbreviations), printing, and the legality check that decides which
// orders the adjudicator sees (an illegal order is replaced by a hold, as the rules say).
//
//   A PAR H                 hold               A PAR - BUR            move
//   A LON - NWY VIA         move by convoy     F SPA/SC - WES         fleet on a split coast
//   A MUN S A BER - SIL     support a move     A BER S A MUN          support a hold
//   F NTH C A LON - NWY     convoy             A PAR R BUR            retreat
//   A PAR D                 disband            A PAR B / BUILD A PAR  build
//   WAIVE                   give up a build
//
// Also accepted: "ENGLAND: A LON H", "HOLD", "SUPPORT(S)", "CONVOY(S)", "MOVE", "->",
// "RETREAT", "DISBAND", "REMOVE", "BUILD", "F STP(SC)", "stp nc", "nth-nwy", full province
// names and the aliases in the map file. docs/diplomacy.md lists the grammar.
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "games/diplomacy/map.hpp"
#include "games/diplomacy/state.hpp"

namespace kibitz::diplomacy {

enum class OrderType : std::uint8_t {
  kHold,
  kMove,
  kSupport,  // target == kNoLocation: support to hold
  kConvoy,
  kRetreat,
  kDisband,
  kBuild,
  kWaive,
};

struct Order {
  OrderType type = OrderType::kHold;
  PowerId power = kNoPower;  // as written ("England: ..."); kNoPower when not written
  UnitType unit = UnitType::kNone;
  LocationId location = kNoLocation;  // the ordered unit (a build: where the unit appears)
  // Support and convoy: the unit supported or convoyed.
  UnitType aux_unit = UnitType::kNone;
  LocationId aux = kNoLocation;
  // Move and retreat: the destination; support of a move and convoy: the move's destination.
  LocationId target = kNoLocation;
  bool via_convoy = false;  // "VIA": the army moves by convoy even to a neighbouring province
  bool operator==(const Order&) const = default;
};

// One order. `phase` only decides what "A PAR - BUR" means: a retreat in a retreat phase, a
// move otherwise. Errors are one line ("unknown province 'xyz'", "expected a destination
// after '-'").
Result<Order> parse_order(const Map& map, std::string_view text,
                          PhaseType phase = PhaseType::kMovement);

// Standard notation, upper case: "A MUN S A BER - SIL", "F SPA/SC - WES", "WAIVE"; prefixed by
// "England: " when the order names its power.
std::string format_order(const Map& map, const Order& order);

// Whether `power` may give `order` in state `s`. Returns the order completed from the state
// (unit types not written, a fleet's own coast, the only reachable coast of a split-coast
// destination, a move in a retreat phase as a retreat) or the reason it is illegal ("no unit
// in par", "a Germany unit is in mun, not England's", "fleets cannot enter land province
// bur", "spa has two coasts a fleet from mao can reach: write spa/nc or spa/sc").
Result<Order> check_order(const Map& map, const State& s, PowerId power, const Order& order);

// What the adjudicator should resolve for an order given by `power`: the completed order
// when legal; when it is not and the power has a unit where the order says (movement
// phase), that unit holds, as the rules treat an illegal order; otherwise nothing (a
// retreat phase's unit without a legal order disbands; an illegal build is ignored).
std::optional<Order> effective_order(const Map& map, const State& s, PowerId power,
                                     const Order& order);

// Whether an army in `from` could be convoyed to `to` by the fleets now at sea (of any
// power): a chain of fleet-occupied sea provinces from one coast to the other.
bool convoy_path_exists(const Map& map, const State& s, ProvinceId from, ProvinceId to);

}  // namespace kibitz::diplomacy

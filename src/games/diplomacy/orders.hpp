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
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

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

// Calls visit(route, reached) for every minimal convoy route of the fleets now at sea that
// starts next to coastal province `from`: a chain of fleet-occupied seas none of which can be
// left out (DATC 6.G.19), `reached` being the coastal provinces (not `from`) its last sea reaches
// and no earlier sea does, the destinations to which the route is minimal. visit returns true
// to stop; the function returns whether it was stopped. Allocates nothing.
template <class Visit>
bool for_each_minimal_convoy_route(const Map& map, const State& s, ProvinceId from, Visit&& visit) {
  struct Search {
    const Map& map;
    ProvinceId from;
    Visit& visit;
    ProvinceSet fleets{}, in_route{};
    std::array<ProvinceId, kMaxProvinces> route{};

    // route[0..len) is minimal so far; `covered`: what its seas but the last reach.
    bool extend(int len, const ProvinceSet& covered) {
      const ProvinceSet& reach = map.fleet_reach(route[len - 1]);
      ProvinceSet reached = reach & map.coastal_provinces() & ~covered;
      reached.reset(from);
      if (reached.any() &&
          visit(std::span<const ProvinceId>(route.data(), static_cast<std::size_t>(len)),
                std::as_const(reached)))
        return true;
      // A next sea next to `from` or to an earlier sea would make some sea unnecessary.
      const ProvinceSet next = reach & fleets & ~covered & ~in_route;
      if (next.none()) return false;
      const ProvinceSet wider = covered | reach;
      for (std::size_t r = next._Find_first(); r < next.size(); r = next._Find_next(r)) {
        const auto sea = static_cast<ProvinceId>(r);
        if (map.fleet_reaches(sea, from)) continue;
        route[len] = sea;
        in_route.set(r);
        const bool stop = extend(len + 1, wider);
        in_route.reset(r);
        if (stop) return true;
      }
      return false;
    }
  };
  if (!map.is_coastal(from)) return false;
  Search search{map, from, visit};
  for (int q = 0; q < map.num_provinces(); ++q)
    if (map.is_sea(static_cast<ProvinceId>(q)) && s.units[q].exists() &&
        s.units[q].type == UnitType::kFleet)
      search.fleets.set(q);
  for (std::size_t q = search.fleets._Find_first(); q < search.fleets.size();
       q = search.fleets._Find_next(q)) {
    const auto sea = static_cast<ProvinceId>(q);
    if (!map.fleet_reaches(sea, from)) continue;
    search.route[0] = sea;
    search.in_route.set(q);
    const bool stop = search.extend(1, ProvinceSet{});
    search.in_route.reset(q);
    if (stop) return true;
  }
  return false;
}

// Whether the fleet at sea `fleet` may be ordered to convoy an army from `from` to `to`: it
// lies on a minimal convoy route of the fleets now at sea (DATC 6.G.19 and 6.D.32: an order
// that cannot be carried out in this position is illegal, so it is ignored).
bool convoy_order_possible(const Map& map, const State& s, ProvinceId fleet, ProvinceId from,
                           ProvinceId to);

}  // namespace kibitz::diplomacy

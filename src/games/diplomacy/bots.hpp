#pragma once
// Diplomacy bots and the legal-order enumeration they (and the RM+ candidate generator) share.
//
// A Bot gives one power's orders for whatever phase a state is in: one order per unit in a
// movement phase, a retreat or disband per dislodged unit in a retreat phase, builds (or
// waives) or disbands in an adjustment phase. Orders are completed the way check_order()
// completes them, so every order a bot gives passes check_order() unchanged.
//
//   random     each unit picks uniformly among its legal orders (OrderGenerator); builds and
//              disbands uniformly among the legal ones.
//   heuristic  values supply centres, moves units toward the nearest valuable ones (BFS
//              distances precomputed per map), supports its own attacks on contested centres,
//              holds and supports threatened home centres, retreats toward centres, builds
//              where the new unit is nearest to a centre to take, disbands the farthest units.
//
// Bots are deterministic given the Rng; they keep reusable buffers, so after the first calls
// they allocate nothing. One Bot object may play several powers (the game loop calls it once
// per power) but is not thread-safe.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "core/rng.hpp"
#include "games/diplomacy/map.hpp"
#include "games/diplomacy/orders.hpp"
#include "games/diplomacy/state.hpp"

namespace kibitz::diplomacy {

// Calls f(ProvinceId) for every province in a set, in id order.
template <class F>
void for_each_province(const ProvinceSet& set, F&& f) {
  for (std::size_t i = set._Find_first(); i < set.size(); i = set._Find_next(i))
    f(static_cast<ProvinceId>(i));
}

// Enumerates legal orders for one state. set_state() precomputes what every unit's orders
// share (which coastal provinces chains of fleets at sea connect, which units can move into
// each province); the per-unit calls then fill a caller's buffer.
//
// Movement orders of the unit at province p, in this order:
//   - hold;
//   - a move to every neighbouring location (each reachable coast of a split-coast province),
//     and for an army on a coast a move to every other coastal province a chain of fleets at
//     sea reaches (written without VIA; an adjacent province by convoy is not listed);
//   - support to hold for every unit (of any power) in a province the unit can reach;
//   - support of every move another unit could make (as listed above) into a province this
//     unit can reach, the destination written as the province;
//   - for a fleet at sea: a convoy of every army on a coast to every other coastal province
//     to which some minimal route of the fleets at sea passes through this fleet (DATC 6.G.19;
//     convoy_order_possible()).
// Supports and convoys of empty provinces, which check_order() also accepts, are not listed:
// they can never matter.
// Retreat orders of the unit dislodged from p: a retreat to every neighbouring location that
// is not occupied, not the attacker's origin and not left empty by a standoff; then disband.
// Adjustment orders of a power: with builds, every build (army; fleet on each coast) in a
// free owned home centre, then WAIVE; with disbands, a disband of each unit.
//
// Every listed order is exactly what check_order() returns for it (with power kNoPower).
class OrderGenerator {
 public:
  explicit OrderGenerator(const Map& map) : map_(map) {}

  // `s` must outlive the calls below. Cheap when only the units are unchanged since the last
  // call (the tables depend on nothing else), as for the seven powers of one phase.
  void set_state(const State& s);
  const State& state() const { return *s_; }

  // Appends the orders of the unit at province p (the dislodged unit in a retreat phase) to
  // `out`; nothing when there is none.
  void unit_orders(ProvinceId p, std::vector<Order>& out) const;
  // How many orders unit_orders(p) lists, and the k-th of them (k < the count), without
  // writing the list (what a uniform choice needs; movement phases cost no allocation).
  std::size_t count_unit_orders(ProvinceId p) const;
  Order unit_order(ProvinceId p, std::size_t k) const;
  // Appends the adjustment orders of `power` (a winter state) to `out`.
  void adjustment_orders(PowerId power, std::vector<Order>& out) const;

  // Where the unit at p could move this phase (the moves unit_orders() lists).
  const ProvinceSet& move_reach(ProvinceId p) const { return reach_[p]; }
  // Provinces whose unit could move into t.
  const ProvinceSet& movers_into(ProvinceId t) const { return movers_[t]; }
  // Whether a chain of fleets at sea connects coastal provinces a and b.
  bool convoy_connects(ProvinceId a, ProvinceId b) const {
    return a != b && (touch_[a] & touch_[b]) != 0;
  }

 private:
  void add_moves(const Unit& u, std::vector<Order>& out) const;
  // The convoy table below, worked out at the first convoy question after the units change
  // (evaluations, which only ask where units reach, never pay for it).
  void compute_convoys() const;
  // Where the fleet at sea p may convoy the a-th army of convoy_army_ (a minimal route of the
  // fleets at sea through p, DATC 6.G.19).
  const ProvinceSet& convoy_targets(ProvinceId p, int a) const {
    return convoy_to_[static_cast<std::size_t>(convoy_slot_[p] * num_convoy_armies_ + a)];
  }

  const Map& map_;
  const State* s_ = nullptr;
  // The units the tables below were computed for.
  bool have_units_ = false;
  std::array<Unit, kMaxProvinces> units_{};
  // Fleet-at-sea chains: the chain (component) of each sea province holding a fleet, and for
  // each coastal province the chains that touch it (bit i: chain i; at most 64 chains).
  std::array<std::int8_t, kMaxProvinces> chain_{};
  std::array<std::uint64_t, kMaxProvinces> touch_{};
  std::array<ProvinceSet, 64> chain_coasts_{};  // the coastal provinces each chain touches
  std::array<ProvinceSet, kMaxProvinces> reach_{}, movers_{};
  ProvinceSet occupied_;
  mutable std::vector<Order> scratch_;  // retreat phases' count_unit_orders / unit_order
  // Convoys: a slot per fleet at sea, the armies a chain touches (in id order), and per
  // (fleet, army) the destinations.
  mutable bool have_convoys_ = false;
  mutable int num_convoy_fleets_ = 0, num_convoy_armies_ = 0;
  mutable std::array<std::int8_t, kMaxProvinces> convoy_slot_{};
  mutable std::array<ProvinceId, kMaxProvinces> convoy_army_{};
  mutable std::vector<ProvinceSet> convoy_to_;
};

// All legal orders of the unit at `location` (see OrderGenerator), appended to `out`.
// Convenience for one unit; OrderGenerator is faster for many.
void legal_orders(const Map& map, const State& s, LocationId location, std::vector<Order>& out);

// Move distances from every location to every province, by breadth-first search: for an
// army over land and coastal provinces, for a fleet along fleet edges (a province counts as
// reached when any of its coasts is). kFar: unreachable.
class MapDistances {
 public:
  static constexpr std::uint8_t kFar = 0xff;
  explicit MapDistances(const Map& map);
  int army(ProvinceId from, ProvinceId to) const { return army_[from][to]; }
  int fleet(LocationId from, ProvinceId to) const { return fleet_[from][to]; }
  int unit(const Unit& u, const Map& map, ProvinceId to) const {
    return u.type == UnitType::kArmy ? army(map.province_of(u.location), to)
                                     : fleet(u.location, to);
  }

 private:
  std::vector<std::array<std::uint8_t, kMaxProvinces>> army_, fleet_;
};

class Bot {
 public:
  virtual ~Bot() = default;
  virtual std::string_view name() const = 0;
  // Appends `power`'s orders for the state's phase to `out` (nothing when the power has
  // nothing to order). Every order passes check_order(map, s, power, order).
  virtual void orders(const State& s, PowerId power, Rng& rng, std::vector<Order>& out) = 0;
};

class RandomBot final : public Bot {
 public:
  explicit RandomBot(const Map& map) : map_(map), gen_(map) {}
  std::string_view name() const override { return "random"; }
  void orders(const State& s, PowerId power, Rng& rng, std::vector<Order>& out) override;

 private:
  const Map& map_;
  OrderGenerator gen_;
  std::vector<Order> buf_;
};

class HeuristicBot final : public Bot {
 public:
  explicit HeuristicBot(const Map& map);
  std::string_view name() const override { return "heuristic"; }
  void orders(const State& s, PowerId power, Rng& rng, std::vector<Order>& out) override;
  // Perturbs each valuable centre's value by up to +-n (from the rng) before planning: the
  // RM+ candidate generator's source of varied but still coordinated plans. 0: none.
  void set_noise(int n) { noise_ = n; }

 private:
  void movement(const State& s, PowerId power, Rng& rng, std::vector<Order>& out);
  void retreats(const State& s, PowerId power, Rng& rng, std::vector<Order>& out);
  void adjustments(const State& s, PowerId power, std::vector<Order>& out);
  // What a supply centre is worth to `power` now (0: nothing to gain or defend).
  void value_centres(const State& s, PowerId power);
  // Distance from a unit of type `type` at `loc` to the nearest centre worth something.
  int nearest_target(UnitType type, LocationId loc) const;

  const Map& map_;
  MapDistances dist_;
  OrderGenerator gen_;
  std::array<int, kMaxProvinces> value_{};
  ProvinceSet threat_;  // provinces some other power's unit could move into this phase
  int noise_ = 0;
  std::vector<Order> buf_;
};

// The bots by name ("random", "heuristic"); nullptr for an unknown name.
std::unique_ptr<Bot> make_bot(std::string_view name, const Map& map);
std::span<const std::string_view> bot_names();

}  // namespace kibitz::diplomacy

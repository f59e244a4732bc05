#pragma once
// The movement-phase adjudicator: given a State in a movement phase and the orders of its
// units (as effective_order() returns them; a unit without an order holds), decides which
// orders succeed, which units are dislodged (and from where), which provinces are left empty
// by a standoff, and the next State.
//
// The method is Kruijswijk's ("The Math of Adjudication"): each order is resolved on demand by
// a recursive resolve() that guesses when it meets an order already being resolved, records
// the orders that depended on a guess, and re-tries with the opposite guess when the first
// guess came back to itself. A cycle with two consistent outcomes and no convoy in it is a
// circular movement (every move in it succeeds); a cycle with a convoy, or one with no
// consistent outcome, is a convoy paradox, settled by the Szykman rule (the convoyed armies
// of the paradox do not move and cut no support). docs/diplomacy.md lists the DATC
// preferences chosen.
//
// Hot path: an Adjudicator owns fixed arrays sized by kMaxProvinces and reuses them; resolving
// a phase allocates nothing. Keep one Adjudicator per thread.
#include <array>
#include <cstdint>
#include <span>

#include "games/diplomacy/map.hpp"
#include "games/diplomacy/orders.hpp"
#include "games/diplomacy/state.hpp"

namespace kibitz::diplomacy {

struct MovementResult {
  // The orders resolved: those given (in the order given; a second order for one unit and an
  // order for an empty province are kept but fail; beyond kMaxProvinces given orders the rest
  // are ignored) followed by a hold for every unit left without an order.
  int num_orders = 0;
  std::array<Order, 2 * kMaxProvinces> orders{};
  // Whether each order succeeded: a move moved, a support was given (not cut, not
  // dislodged), a convoy's fleet was not dislodged, a hold's unit was not dislodged.
  std::array<bool, 2 * kMaxProvinces> succeeded{};
  // Units dislodged, by the province they stood in, and where their attacker came from
  // (kNoProvince when it came by convoy: the unit may retreat there).
  ProvinceSet dislodged;
  std::array<ProvinceId, kMaxProvinces> attacker_from{};
  // Provinces some unit tried to enter, none did, and that are empty after the phase.
  ProvinceSet standoff;
  // The position after the phase: units moved, dislodged units in State::dislodged with
  // attacker_from and contested filled, and the phase advanced (docs/diplomacy.md).
  State next;
};

class Adjudicator {
 public:
  explicit Adjudicator(const Map& map) : map_(map) {}

  // `s` must be in a movement phase; orders should be the effective orders (an order that
  // check_order() would refuse is resolved as written but is not validated here).
  void resolve_movement(const State& s, std::span<const Order> orders, MovementResult& out);

 private:
  enum class Status : std::uint8_t { kUnresolved, kGuessing, kResolved };

  bool resolve(int i);
  // Lists order i among the orders that depend on a guess (once, searching from `from`).
  void add_dependency(int i, int from);
  // Whether some move into p succeeds (the unit in p, if any, is dislodged).
  bool dislodged(ProvinceId p);
  bool adjudicate(int i);
  bool backup_rule(int old_count);  // false when it changed nothing
  bool path(int i);
  bool head_to_head(int i) const;
  int opponent(int i) const { return order_at_[dst_[i]]; }
  int support_count(int i, PowerId exclude);
  int attack_strength(int i);
  int defend_strength(int i) { return 1 + support_count(i, kNoPower); }
  int prevent_strength(int i);
  int hold_strength(ProvinceId p);

  const Map& map_;
  // Per resolved order (index into the unit orders, one per unit).
  int n_ = 0;
  std::array<Order, kMaxProvinces> order_{};
  std::array<ProvinceId, kMaxProvinces> src_{}, dst_{}, aux_{};
  std::array<PowerId, kMaxProvinces> power_{};
  std::array<bool, kMaxProvinces> convoyed_{};   // a move by convoy
  std::array<bool, kMaxProvinces> no_convoy_{};  // Szykman: this convoyed move does not happen
  std::array<bool, kMaxProvinces> result_{};
  std::array<Status, kMaxProvinces> status_{};
  std::array<int, kMaxProvinces> order_at_{};  // by province: the unit order there, or -1
  // Linked lists in fixed arrays: moves into a province; valid supports of an order.
  std::array<int, kMaxProvinces> move_head_{}, move_next_{};
  std::array<int, kMaxProvinces> sup_head_{}, sup_next_{};
  std::array<int, kMaxProvinces> deps_{};
  int dep_count_ = 0;
  // The order given for each unit order (index into the caller's orders, -1: implicit hold).
  std::array<int, kMaxProvinces> given_{};
};

// Convenience: one call with a temporary Adjudicator.
void resolve_movement(const Map& map, const State& s, std::span<const Order> orders,
                      MovementResult& out);

}  // namespace kibitz::diplomacy

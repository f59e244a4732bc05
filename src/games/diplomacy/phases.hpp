#pragma once
// The retreat and adjustment phases, the winter ownership update and the end of the game.
//
// Together with the movement adjudicator (adjudicator.hpp) these make the whole game loop:
//   movement --(dislodgements)--> retreat --> next movement or the winter
//   fall movement/retreat --> ownership update --> victory check --> winter adjustment, or the
//   next spring directly when no power has a build or a disband to make.
// Like resolve_movement(), each function takes the effective orders (effective_order()) and
// fills a caller-owned result without allocating.
#include <array>
#include <optional>
#include <span>

#include "games/diplomacy/adjudicator.hpp"
#include "games/diplomacy/map.hpp"
#include "games/diplomacy/orders.hpp"
#include "games/diplomacy/state.hpp"

namespace kibitz::diplomacy {

struct RetreatResult {
  // The orders given, in the order given (beyond kMaxProvinces the rest are ignored).
  int num_orders = 0;
  std::array<Order, kMaxProvinces> orders{};
  // A retreat succeeded: the unit moved; a disband: the unit was removed. A retreat that
  // bounced with another retreat, a second order for a unit, or an order for no dislodged
  // unit fails.
  std::array<bool, kMaxProvinces> succeeded{};
  // Dislodged units removed (ordered to disband, bounced, or left without a legal retreat),
  // by the province they were dislodged from.
  ProvinceSet disbanded;
  State next;
};

// `s` must be in a retreat phase. Two or more retreats into one province: all those units
// are disbanded; a dislodged unit without a successful retreat is disbanded. After a fall
// retreat, the winter ownership update follows (finish_fall()).
void resolve_retreats(const Map& map, const State& s, std::span<const Order> orders,
                      RetreatResult& out);

struct AdjustmentResult {
  int num_orders = 0;
  std::array<Order, kMaxProvinces> orders{};
  // A build that placed a unit, a disband that removed one, a waive counted as a build given
  // up. Builds beyond the power's count, into an occupied, foreign or unowned centre, or a
  // second build in one province fail; so do disbands beyond the count (DATC 6.J.1: taken
  // one by one in the order given).
  std::array<bool, kMaxProvinces> succeeded{};
  ProvinceSet built;
  // Units removed by civil disorder, because their power ordered too few disbands.
  ProvinceSet civil_disorder;
  State next;  // the next year's spring movement
};

// `s` must be in the winter adjustment phase. Civil disorder follows the 2023 rules (DATC
// 6.J): the unit farthest from any supply centre its power owns goes first, distance counted
// in moves over every province (land and sea, either unit type); ties remove fleets before
// armies, then by the province's name in alphabetical order.
void resolve_adjustments(const Map& map, const State& s, std::span<const Order> orders,
                         AdjustmentResult& out);

// Centres owned minus units: > 0 builds allowed (limited in practice by the free owned home
// centres), < 0 units to disband.
int adjustment_count(const Map& map, const State& s, PowerId power);

// Whether some power has a build or a disband to make (a winter without any is skipped).
bool adjustments_needed(const Map& map, const State& s);

// End of a fall's movement (with no dislodgement) or retreat phase: every supply centre with a
// unit in it passes to that unit's power, then the phase becomes the winter adjustment when
// adjustments_needed(), otherwise the next spring movement.
void finish_fall(const Map& map, State& s);

// The power owning more than half of the supply centres (18 of 34), if any.
std::optional<PowerId> solo_winner(const Map& map, const State& s);

// Powers with at least one centre or unit.
int powers_alive(const Map& map, const State& s);
// Whether `power` is still in the game: a centre, a unit, or a unit waiting to retreat.
bool power_alive(const Map& map, const State& s, PowerId power);

// Resolves whatever phase a state is in. Owns an Adjudicator and the result buffers, so
// resolving allocates nothing: keep one per thread. The orders must be the effective orders
// for the phase (effective_order()); the last phase's full result stays readable.
class PhaseResolver {
 public:
  explicit PhaseResolver(const Map& map) : map_(map), adjudicator_(map) {}
  // The state after the phase.
  const State& resolve(const State& s, std::span<const Order> orders);

  const MovementResult& movement() const { return movement_; }
  const RetreatResult& retreat() const { return retreat_; }
  const AdjustmentResult& adjustment() const { return adjustment_; }

 private:
  const Map& map_;
  Adjudicator adjudicator_;
  MovementResult movement_;
  RetreatResult retreat_;
  AdjustmentResult adjustment_;
};

}  // namespace kibitz::diplomacy

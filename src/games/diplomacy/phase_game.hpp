#pragma once
// One Diplomacy phase as a simultaneous-move game (api/concepts.hpp: Simultaneous): every
// power picks one of its order sets at once, and the adjudicator resolves them into the next
// phase. The order sets are the caller's (the RM+ search's candidates, candidates.hpp); a
// power without any orders nothing (its units hold). The returns are each power's share of
// the supply centres after the phase. Light to copy (the searches copy it per sample): the
// sets, the phase and the resolver are shared through a PhaseContext.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "api/concepts.hpp"
#include "games/diplomacy/candidates.hpp"
#include "games/diplomacy/phases.hpp"

namespace kibitz::diplomacy {

struct PhaseContext {
  const Map* map = nullptr;
  const State* state = nullptr;                              // the phase to play
  const std::vector<std::vector<OrderSet>>* sets = nullptr;  // by power
  PhaseResolver* resolver = nullptr;
  std::vector<Order>* scratch = nullptr;  // the joint orders (kept to avoid allocation)
  std::uint64_t* resolved = nullptr;      // counts phases resolved (optional)
};

class PhaseGame {
 public:
  using Move = std::uint16_t;  // an index into the power's order sets
  static constexpr std::size_t kMaxMoves = 256;
  static constexpr int kMaxPlayers = static_cast<int>(kMaxPowers);

  explicit PhaseGame(const PhaseContext& ctx) : ctx_(&ctx) {}

  int current_player() const { return done_ ? kTerminalPlayer : kSimultaneousPlayer; }
  bool is_terminal() const { return done_; }
  // Each power's share of the supply centres after the phase (0 while it is being played).
  Returns<PhaseGame> returns() const;
  // The indices of power's order sets (at most kMaxMoves); none for a power without sets.
  std::size_t legal_actions(int power, MoveList<PhaseGame>& buf) const;
  // One action per power (the power's index in the map; ignored for a power without sets).
  void apply_joint(std::span<const Move> joint);
  // A key of the joint action played (0 before).
  std::uint64_t hash() const { return hash_; }

  const State& after() const { return after_; }  // the next phase (after apply_joint)
  Move chosen(int power) const { return chosen_[static_cast<std::size_t>(power)]; }
  const PhaseContext& context() const { return *ctx_; }

 private:
  const PhaseContext* ctx_;
  State after_;
  std::array<Move, kMaxPowers> chosen_{};
  std::uint64_t hash_ = 0;
  bool done_ = false;
};
static_assert(Simultaneous<PhaseGame>);
static_assert(!Game<PhaseGame>);

}  // namespace kibitz::diplomacy

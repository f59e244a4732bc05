#include "games/diplomacy/phase_game.hpp"

namespace kibitz::diplomacy {

Returns<PhaseGame> PhaseGame::returns() const {
  Returns<PhaseGame> r{};
  if (!done_) return r;
  const Map& map = *ctx_->map;
  const double centres = map.num_supply_centres();
  for (PowerId p = 0; p < map.num_powers(); ++p)
    r[p] = centres > 0 ? count_centres(map, after_, p) / centres : 0.0;
  return r;
}

std::size_t PhaseGame::legal_actions(int power, MoveList<PhaseGame>& buf) const {
  if (done_ || power < 0 || power >= ctx_->map->num_powers()) return buf.size();
  const auto& sets = (*ctx_->sets)[static_cast<std::size_t>(power)];
  for (std::size_t k = 0; k < sets.size() && k < kMaxMoves; ++k)
    buf.push_back(static_cast<Move>(k));
  return buf.size();
}

void PhaseGame::apply_joint(std::span<const Move> joint) {
  auto& given = *ctx_->scratch;
  given.clear();
  std::uint64_t h = 0xD1B54A32D192ED03ull;
  const auto& all = *ctx_->sets;
  for (std::size_t w = 0; w < joint.size() && w < all.size(); ++w) {
    const auto& sets = all[w];
    if (sets.empty()) continue;
    chosen_[w] = joint[w];
    const auto& set = sets[joint[w]];
    given.insert(given.end(), set.begin(), set.end());
    h = (h ^ (joint[w] + 1u + (w << 16))) * 0x9E3779B97F4A7C15ull;
  }
  after_ = ctx_->resolver->resolve(*ctx_->state, given);
  if (ctx_->resolved) ++*ctx_->resolved;
  hash_ = h;
  done_ = true;
}

}  // namespace kibitz::diplomacy

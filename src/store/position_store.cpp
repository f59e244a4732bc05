// Context selection and pruning (the seed's get_best_context and prune_contexts), as defined
// in position_store.hpp.
#include "store/position_store.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <numeric>

namespace kibitz::store {

namespace {

// 0.5 ^ (age / half_life); a non-positive half-life means no decay.
double store_recency_factor(std::int64_t timestamp, std::int64_t now, double half_life_s) {
  const double age = static_cast<double>(std::max<std::int64_t>(0, now - timestamp));
  if (!(half_life_s > 0)) return 1.0;
  return std::exp2(-age / half_life_s);
}

// "Newer" for tie-breaks: the later timestamp, then the later index (contexts are stored
// oldest first, so a later index was stored later).
bool store_newer(const std::vector<PositionContext>& contexts, std::size_t a, std::size_t b) {
  if (contexts[a].timestamp != contexts[b].timestamp)
    return contexts[a].timestamp > contexts[b].timestamp;
  return a > b;
}

}  // namespace

double context_score(const std::vector<PositionContext>& contexts, std::size_t i, int game_phase,
                     int board_points, std::int64_t now, const ContextPolicy& policy) {
  const PositionContext& c = contexts[i];
  const double points = board_points > 0 ? board_points : 1;
  const double phase_distance = std::abs(game_phase - c.game_phase) / points;
  const double phase = 1.0 - std::min(1.0, phase_distance);

  std::uint32_t best_visits = 0;
  for (const auto& other : contexts) best_visits = std::max(best_visits, other.deep_visits);
  const double quality =
      best_visits > 0 ? static_cast<double>(c.deep_visits) / static_cast<double>(best_visits) : 0;

  const double recency = store_recency_factor(c.timestamp, now, policy.recency_half_life_s);
  return policy.phase_weight * phase + policy.quality_weight * quality +
         policy.recency_weight * recency;
}

std::size_t select_context(const std::vector<PositionContext>& contexts, int game_phase,
                           int board_points, std::int64_t now, const ContextPolicy& policy) {
  std::size_t best = 0;
  double best_score = -1;
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    const double s = context_score(contexts, i, game_phase, board_points, now, policy);
    if (i == 0 || s > best_score || (s == best_score && store_newer(contexts, i, best))) {
      best = i;
      best_score = s;
    }
  }
  return best;
}

double prune_key(const PositionContext& c, std::int64_t now, const ContextPolicy& policy) {
  return static_cast<double>(c.deep_visits) *
         store_recency_factor(c.timestamp, now, policy.recency_half_life_s);
}

std::vector<std::size_t> contexts_to_keep(const std::vector<PositionContext>& contexts,
                                          std::int64_t now, const ContextPolicy& policy) {
  std::vector<std::size_t> order(contexts.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (policy.max_contexts <= 0 || contexts.size() <= static_cast<std::size_t>(policy.max_contexts))
    return order;
  std::vector<double> keys(contexts.size());
  for (std::size_t i = 0; i < contexts.size(); ++i) keys[i] = prune_key(contexts[i], now, policy);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (keys[a] != keys[b]) return keys[a] > keys[b];
    return store_newer(contexts, a, b);
  });
  order.resize(static_cast<std::size_t>(policy.max_contexts));
  std::sort(order.begin(), order.end());
  return order;
}

Result<void> check_position_key(const PositionKey& key) {
  constexpr int kMaxBoard = 25;
  if (key.board_size < 2 || key.board_size > kMaxBoard)
    return fail("board size {} out of range (2 to {})", key.board_size, kMaxBoard);
  if (!std::isfinite(key.komi)) return fail("komi is not a finite number");
  if (key.rules.empty()) return fail("rules are empty");
  return {};
}

Result<void> check_position_context(const PositionContext& c, int board_size) {
  const int points = board_size * board_size;
  if (c.move < -1 || c.move > points)
    return fail("move {} out of range (-1 to {}) for {}x{}", c.move, points, board_size,
                board_size);
  if (!c.policy.empty() && c.policy.size() != static_cast<std::size_t>(points + 1))
    return fail("policy has {} values, expected {} for {}x{}", c.policy.size(), points + 1,
                board_size, board_size);
  // Refused here rather than stored: SQLite would keep a NaN as NULL and fail its NOT NULL.
  const std::pair<const char*, double> reals[] = {
      {"uncertainty", c.uncertainty}, {"winrate", c.winrate}, {"score_lead", c.score_lead}};
  for (const auto& [name, v] : reals)
    if (!std::isfinite(v)) return fail("{} is not a finite number", name);
  return {};
}

std::string policy_to_bytes(const std::vector<float>& policy) {
  std::string out(policy.size() * 4, '\0');
  for (std::size_t i = 0; i < policy.size(); ++i) {
    const auto bits = std::bit_cast<std::uint32_t>(policy[i]);
    for (int b = 0; b < 4; ++b) out[i * 4 + b] = static_cast<char>((bits >> (8 * b)) & 0xffu);
  }
  return out;
}

std::vector<float> policy_from_bytes(const unsigned char* data, std::size_t count) {
  std::vector<float> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t bits = 0;
    for (int b = 0; b < 4; ++b) bits |= std::uint32_t{data[i * 4 + b]} << (8 * b);
    out[i] = std::bit_cast<float>(bits);
  }
  return out;
}

}  // namespace kibitz::store

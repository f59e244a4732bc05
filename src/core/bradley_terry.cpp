// Minorization-maximization for generalized Bradley-Terry (see bradley_terry.hpp).
#include "core/bradley_terry.hpp"

#include <cassert>
#include <cmath>

namespace kibitz {

namespace {

double team_strength(const TeamCompetitions& d, std::size_t t, std::span<const float> gammas) {
  double s = 1.0;
  const std::size_t base = t * static_cast<std::size_t>(d.slots);
  for (int k = 0; k < d.slots; ++k) {
    const std::uint32_t f = d.members[base + static_cast<std::size_t>(k)];
    if (f != TeamCompetitions::kNone) s *= gammas[f];
  }
  return s;
}

double log_likelihood(const TeamCompetitions& d, const std::vector<double>& strength) {
  double ll = 0.0;
  for (std::size_t c = 0; c < d.competitions(); ++c) {
    double e = 0.0;
    for (std::uint64_t t = d.start[c]; t < d.start[c + 1]; ++t) e += strength[t];
    ll += std::log(strength[d.winner[c]] / e);
  }
  return d.competitions() ? ll / static_cast<double>(d.competitions()) : 0.0;
}

}  // namespace

double bradley_terry_log_likelihood(const TeamCompetitions& d, std::span<const float> gammas) {
  std::vector<double> strength(d.teams());
  for (std::size_t t = 0; t < d.teams(); ++t) strength[t] = team_strength(d, t, gammas);
  return log_likelihood(d, strength);
}

double fit_bradley_terry(const TeamCompetitions& d, std::span<float> gammas,
                         const BradleyTerryOptions& options) {
  assert(d.start.size() == d.competitions() + 1);
  const std::size_t slots = static_cast<std::size_t>(d.slots);
  const std::size_t features = gammas.size();
  std::vector<double> strength(d.teams());
  for (std::size_t t = 0; t < d.teams(); ++t) strength[t] = team_strength(d, t, gammas);

  // Wins of each feature: the winners' members (constant over the iterations).
  std::vector<double> wins(features, 0.0);
  std::vector<std::uint8_t> in_slot(features, 0xff);
  for (std::size_t t = 0; t < d.teams(); ++t)
    for (std::size_t k = 0; k < slots; ++k)
      if (const std::uint32_t f = d.members[t * slots + k]; f != TeamCompetitions::kNone)
        in_slot[f] = static_cast<std::uint8_t>(k);
  for (std::size_t c = 0; c < d.competitions(); ++c)
    for (std::size_t k = 0; k < slots; ++k)
      if (const std::uint32_t f = d.members[d.winner[c] * slots + k]; f != TeamCompetitions::kNone)
        wins[f] += 1.0;

  std::vector<double> inv_e(d.competitions());
  std::vector<double> sum(features);
  std::vector<double> ratio(features);
  for (int it = 1; it <= options.iterations; ++it) {
    const double ll = log_likelihood(d, strength);
    for (std::size_t k = 0; k < slots; ++k) {
      // C_f: over every team holding f in slot k, the rest of the team's strength over the
      // competition's total strength.
      std::fill(sum.begin(), sum.end(), 0.0);
      for (std::size_t c = 0; c < d.competitions(); ++c) {
        double e = 0.0;
        for (std::uint64_t t = d.start[c]; t < d.start[c + 1]; ++t) e += strength[t];
        const double inv = 1.0 / e;
        for (std::uint64_t t = d.start[c]; t < d.start[c + 1]; ++t)
          if (const std::uint32_t f = d.members[t * slots + k]; f != TeamCompetitions::kNone)
            sum[f] += strength[t] / gammas[f] * inv;
      }
      for (std::size_t f = 0; f < features; ++f) {
        ratio[f] = 1.0;
        if (in_slot[f] != k) continue;
        const double g = gammas[f];
        const double updated =
            (wins[f] + options.prior) / (sum[f] + 2.0 * options.prior / (g + 1.0));
        gammas[f] = static_cast<float>(updated);
        ratio[f] = gammas[f] / g;
      }
      for (std::size_t t = 0; t < d.teams(); ++t)
        if (const std::uint32_t f = d.members[t * slots + k]; f != TeamCompetitions::kNone)
          strength[t] *= ratio[f];
    }
    if (options.on_iteration) options.on_iteration(it, ll);
  }
  return log_likelihood(d, strength);
}

}  // namespace kibitz

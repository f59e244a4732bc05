#include "engine/bench.hpp"

#include <algorithm>
#include <cmath>

namespace kibitz::engine {

double BenchReport::effective_branching_factor() const {
  double log_sum = 0;
  int n = 0;
  for (const auto& p : positions) {
    const auto& v = p.nodes_per_depth;
    if (v.size() < 2 || v[v.size() - 2] == 0) continue;
    log_sum += std::log(static_cast<double>(v.back()) / static_cast<double>(v[v.size() - 2]));
    ++n;
  }
  return n ? std::exp(log_sum / n) : 0.0;
}

int BenchReport::median_depth() const {
  if (positions.empty()) return 0;
  std::vector<int> depths;
  for (const auto& p : positions) depths.push_back(p.depth);
  std::nth_element(depths.begin(), depths.begin() + static_cast<std::ptrdiff_t>(depths.size() / 2),
                   depths.end());
  return depths[depths.size() / 2];
}

}  // namespace kibitz::engine

#include "engine/bench.hpp"

#include <algorithm>
#include <cmath>

#include "engine/any_engine.hpp"

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

BenchReport run_engine_bench(AnyEngine& engine, std::span<const std::string_view> positions,
                             const EngineLimits& limits,
                             const std::function<void(const BenchPosition&)>& progress) {
  BenchReport report;
  for (const std::string_view text : positions) {
    engine.new_game();
    if (!engine.set_position(text)) continue;  // the lists are fixed and valid; tests check it
    const auto r = engine.think(limits);
    if (!r) continue;
    report.add({.position = std::string(text),
                .nodes = r->nodes,
                .time_ms = r->time_ms,
                .depth = r->depth,
                .best = r->move,
                .nodes_per_depth = r->nodes_per_depth},
               r->stats);
    if (progress) progress(report.positions.back());
  }
  return report;
}

}  // namespace kibitz::engine

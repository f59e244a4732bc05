// The Go deep-search configuration (configs/go.yaml): any text either gives a configuration
// whose values are inside their ranges or a one-line error, with and without a preset.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/config.hpp"
#include "engine/go_deep.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto c = kibitz::Config::parse(std::string_view(reinterpret_cast<const char*>(data), size),
                                 "fuzz.yaml");
  if (!c) return 0;
  for (std::string_view preset : {"", "fast", "balanced", "high_quality"}) {
    auto g = kibitz::engine::load_go_config(*c, preset);
    kibitz::fuzz::require_one_line_error(g);
    if (!g) continue;
    const double t = g->deep.uncertainty_threshold;
    if (!(t >= 0 && t <= 1) || g->deep.deep_visits < 1 || g->deep.max_recursion_depth < 0 ||
        g->deep.max_recursion_depth > 8 || g->contexts.max_contexts < 0 || g->threads < 1)
      std::abort();
  }
  return 0;
}

// The Gomocup referee's games log as tuner records: any text gives samples from legal games
// (features of positions the tuner can fit, results in {0, 0.5, 1}) or a one-line error.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"
#include "games/gomoku/tune.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace g = kibitz::gomoku;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (g::Rule rule : {g::Rule::kFreestyle, g::Rule::kRenju}) {
    std::vector<g::TuneSample> samples;
    std::size_t games = 0;
    auto n = g::read_games_log(text, rule, 0, samples, games);
    kibitz::fuzz::require_one_line_error(n);
    if (!n) continue;
    if (*n != samples.size() || games > samples.size()) std::abort();
    for (const auto& s : samples)
      if (s.result != 0.0f && s.result != 0.5f && s.result != 1.0f) std::abort();
  }
  return 0;
}

// Gomoku evaluation weights files: any text gives weights inside the file's bounds (which a
// position then evaluates with) or a one-line error.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/gomoku/eval_weights.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace g = kibitz::gomoku;
  auto w = g::parse_eval_weights(std::string_view(reinterpret_cast<const char*>(data), size));
  kibitz::fuzz::require_one_line_error(w);
  if (!w) return 0;
  for (int i = 0; i < 10; ++i)
    if (w->pattern[i] < 0 || w->pattern[i] > g::kMaxPatternWeight ||
        w->combination[i] < -g::kMaxCombinationWeight ||
        w->combination[i] > g::kMaxCombinationWeight || w->to_move[i] < -g::kMaxCombinationWeight ||
        w->to_move[i] > g::kMaxCombinationWeight)
      std::abort();
  for (const int v : w->shape)
    if (v < -g::kMaxCombinationWeight || v > g::kMaxCombinationWeight) std::abort();
  if (w->tempo < -g::kMaxTempo || w->tempo > g::kMaxTempo) std::abort();
  // Text written back reads the same.
  auto back = g::parse_eval_weights(g::format_eval_weights(*w));
  if (!back || !(*back == *w)) std::abort();
  return 0;
}

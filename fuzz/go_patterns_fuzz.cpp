// Go move-prediction weights files: any text gives a model whose gammas are all in [1e-6, 1e6]
// and whose file written back reads the same, or a one-line error.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/go/pattern_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace g = kibitz::go;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto m = g::PatternModel::parse(text, "fuzz");
  kibitz::fuzz::require_one_line_error(m);
  if (!m) return 0;
  for (const float v : m->gammas())
    if (!(v >= 0.99e-6f && v <= 1e6f)) std::abort();
  const std::string json = m->to_json();
  auto back = g::PatternModel::parse(json, "fuzz");
  if (!back || back->to_json() != json) std::abort();
  return 0;
}

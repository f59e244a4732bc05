// Go playout weights files: any text gives a model whose codes are canonical and whose file
// written back reads the same, or a one-line error.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/go/playout_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace g = kibitz::go;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto m = g::PlayoutModel::parse(text, "fuzz");
  kibitz::fuzz::require_one_line_error(m);
  if (!m) return 0;
  for (const auto& e : m->patterns())
    if (e.code >= g::kNumLocalCodes || g::canonical_local_code(e.code) != e.code) std::abort();
  const std::string json = m->to_json();
  auto back = g::PlayoutModel::parse(json, "fuzz");
  if (!back || back->to_json() != json) std::abort();
  return 0;
}

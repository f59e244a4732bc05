// DATC case-file reader and runner: any input either fails with a one-line error or gives
// cases that run to a pass or a fail (never a crash), each difference one line.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/diplomacy/datc.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kibitz::diplomacy;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto file = read_datc(text, "fuzz");
  kibitz::fuzz::require_one_line_error(file);
  if (!file) return 0;
  // A few cases are enough: each one resolves a whole phase.
  int runs = 0;
  for (const DatcCase& c : file->cases) {
    if (++runs > 8) break;
    const DatcOutcome o = run_datc_case(standard_map(), file->format, c);
    if (o.passed != (o.differences.empty() && !o.skipped)) std::abort();
    for (const auto& d : o.differences)
      if (d.empty() || d.find('\n') != std::string::npos) std::abort();
  }
  return 0;
}

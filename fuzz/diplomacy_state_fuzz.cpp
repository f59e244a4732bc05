// Diplomacy state JSON reader: any input either fails with a one-line error or gives a state
// that writes and reads back to the same state.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/diplomacy/state.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kibitz::diplomacy;
  const Map& map = standard_map();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto s = read_state_json(map, text);
  kibitz::fuzz::require_one_line_error(s);
  if (!s) return 0;
  const auto again = read_state_json(map, write_state_json(map, *s));
  if (!again || !(*again == *s)) std::abort();
  return 0;
}

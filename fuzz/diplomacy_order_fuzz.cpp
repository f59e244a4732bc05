// Diplomacy order parser, in each phase: any input either fails with a one-line error or gives
// an order that prints and reads back to the same order; checking it against a position never
// crashes, and a legal (completed) order also prints and reads back unchanged.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/diplomacy/orders.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kibitz::diplomacy;
  const Map& map = standard_map();
  static const State states[] = {
      initial_state(map),
      *read_state_json(map, R"({"phase": "F1901R", "units": {"Germany": ["A bur"],
          "England": ["F nth", "F eng"]}, "dislodged": [{"power": "France", "unit": "A par",
          "attacker_from": "bur"}], "contested": ["pic"]})"),
      *read_state_json(map, R"({"phase": "W1901A", "units": {"France": ["A bur"],
          "Germany": ["A ber", "A mun", "F kie"]}, "centres": {"France": ["par", "bre", "mar"],
          "Germany": ["ber"], "Russia": ["stp"]}})")};
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const State& s : states) {
    const auto o = parse_order(map, text, s.phase.type);
    kibitz::fuzz::require_one_line_error(o);
    if (!o) continue;
    const auto again = parse_order(map, format_order(map, *o), s.phase.type);
    if (!again || !(*again == *o)) std::abort();
    for (int p = 0; p < map.num_powers(); ++p) {
      const auto power = static_cast<PowerId>(p);
      const auto c = check_order(map, s, power, *o);
      kibitz::fuzz::require_one_line_error(c);
      (void)effective_order(map, s, power, *o);
      if (!c) continue;
      const auto back = parse_order(map, format_order(map, *c), s.phase.type);
      if (!back || !(*back == *c)) std::abort();
      const auto rechecked = check_order(map, s, power, *c);
      if (!rechecked || !(*rechecked == *c)) std::abort();
    }
  }
  return 0;
}

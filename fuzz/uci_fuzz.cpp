// UCI long-algebraic move parser.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/chess/notation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kibitz::chess;
  static const Position positions[] = {
      Position(), *Position::from_fen("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1")};
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const Position& p : positions) {
    auto m = parse_uci(p, text);
    kibitz::fuzz::require_one_line_error(m);
    if (m && !p.is_legal(*m)) std::abort();
  }
  return 0;
}

// PGN reader (opening books for `kibitz match`): games parsed must export and re-import to
// the same moves.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/chess/pgn.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto games =
      kibitz::chess::parse_pgn(std::string_view(reinterpret_cast<const char*>(data), size));
  kibitz::fuzz::require_one_line_error(games);
  if (!games) return 0;
  for (auto& g : *games) {
    g.result = "*";
    auto again = kibitz::chess::parse_pgn(kibitz::chess::to_pgn(g));
    if (!again || again->size() != 1 || (*again)[0].moves != g.moves) std::abort();
  }
  return 0;
}

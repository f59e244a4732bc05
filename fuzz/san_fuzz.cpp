// SAN parser against a few positions with castling, promotions and en passant available; a
// parsed move must be legal and print back to SAN that parses to the same move.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/chess/notation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kibitz::chess;
  static const Position positions[] = {
      Position(),
      *Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
      *Position::from_fen("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"),
      *Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")};
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const Position& p : positions) {
    auto m = parse_san(p, text);
    kibitz::fuzz::require_one_line_error(m);
    if (!m) continue;
    if (!p.is_legal(*m)) std::abort();
    auto back = parse_san(p, to_san(p, *m));
    if (!back || *back != *m) std::abort();
  }
  return 0;
}

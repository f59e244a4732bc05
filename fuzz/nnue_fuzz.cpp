// Chess network files: any bytes give a network or a one-line error, never a crash.
#include <cstdint>
#include <span>

#include "fuzz_support.hpp"
#include "games/chess/nnue.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto net = kibitz::chess::nnue::Network::parse(std::span(data, size));
  kibitz::fuzz::require_one_line_error(net);
  if (net) (void)net->evaluate(kibitz::chess::Position());
  return 0;
}

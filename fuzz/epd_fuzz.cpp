// EPD line parser.
#include <cstdint>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/chess/epd.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto rec = kibitz::chess::parse_epd(std::string_view(reinterpret_cast<const char*>(data), size));
  kibitz::fuzz::require_one_line_error(rec);
  if (rec) (void)rec->op("bm");
  return 0;
}

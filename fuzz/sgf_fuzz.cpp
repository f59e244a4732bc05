// SGF reader (Go records): any input either fails with a one-line error or gives a record
// that writes and reads back to the same record; replaying it never crashes.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_support.hpp"
#include "games/go/sgf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  kibitz::fuzz::require_one_line_error(kibitz::go::parse_sgf(text));
  const auto rec = kibitz::go::read_sgf(text);
  kibitz::fuzz::require_one_line_error(rec);
  if (!rec) return 0;
  const auto again = kibitz::go::read_sgf(kibitz::go::write_sgf(*rec));
  if (!again || !(*again == *rec)) std::abort();
  kibitz::fuzz::require_one_line_error(kibitz::go::replay(*rec));
  return 0;
}

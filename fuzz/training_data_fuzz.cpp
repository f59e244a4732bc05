// Chess training-data files: any bytes give records or a one-line error, never a crash.
#include <cstdint>
#include <span>

#include "fuzz_support.hpp"
#include "games/chess/training_data.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto stats = kibitz::chess::read_training_data(
      std::span(data, size), [](const kibitz::chess::TrainingRecord& r, std::size_t) {
        const auto s = kibitz::chess::unpack_training_record(r);
        kibitz::fuzz::require_one_line_error(s);
        if (s) (void)s->fen();
      });
  kibitz::fuzz::require_one_line_error(stats);
  return 0;
}

// YAML config loader: any text either parses or yields a one-line error.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/config.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto c = kibitz::Config::parse(std::string_view(reinterpret_cast<const char*>(data), size),
                                 "fuzz.yaml");
  kibitz::fuzz::require_one_line_error(c);
  if (!c) return 0;
  for (const auto& k : c->keys()) {
    kibitz::fuzz::require_one_line_error(c->get_int(k, 0));
    kibitz::fuzz::require_one_line_error(c->get_string(k, ""));
    kibitz::fuzz::require_one_line_error(c->get_bool(k, false));
    kibitz::fuzz::require_one_line_error(c->get_double(k, 0.0));
  }
  (void)c->get_double("a.b.c", 1.0);
  return 0;
}

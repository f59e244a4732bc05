// YAML config loader: any text either parses or yields a one-line error.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto c = kibitz::Config::parse(std::string_view(reinterpret_cast<const char*>(data), size),
                                 "fuzz.yaml");
  if (!c) {
    if (c.error().message.find('\n') != std::string::npos) std::abort();
    return 0;
  }
  for (const auto& k : c->keys()) {
    (void)c->get_int(k, 0);
    (void)c->get_string(k, "");
    (void)c->get_bool(k, false);
  }
  (void)c->get_double("a.b.c", 1.0);
  return 0;
}

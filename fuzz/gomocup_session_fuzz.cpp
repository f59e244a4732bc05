// Gomocup command lines: a whole session of arbitrary lines must never crash or hang. Each
// move is thought about for 1 ms, so the fuzzer explores the protocol, not the search.
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_support.hpp"
#include "protocol/gomocup/gomocup.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kibitz::fuzz::silence_logs();
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::ostringstream out;
  kibitz::gomocup::SessionOptions o;
  o.movetime_ms = 1;
  o.hash_mb = 1;
  kibitz::gomocup::Session session(in, out, o);
  session.run();
  return 0;
}

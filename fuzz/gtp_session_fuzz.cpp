// GTP command lines: a whole session of arbitrary lines must never crash or hang. genmove is
// limited to a few visits and files are never opened, so the fuzzer explores the protocol.
#include <cstdint>
#include <sstream>
#include <string>

#include "fuzz_support.hpp"
#include "protocol/gtp/gtp.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kibitz::fuzz::silence_logs();
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::ostringstream out;
  kibitz::gtp::SessionOptions o;
  o.visits = 8;
  o.size = 9;
  o.allow_files = false;
  o.engine.max_nodes = 1 << 14;
  kibitz::gtp::Session session(in, out, o);
  session.run();
  return 0;
}

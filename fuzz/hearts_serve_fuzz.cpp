// Hearts JSON-lines sessions: any sequence of lines must be answered one JSON line each and
// never crash or hang. The rule bot answers pass and best, so each input stays fast.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "fuzz_support.hpp"
#include "protocol/jsonl/hearts_serve.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kibitz::fuzz::silence_logs();
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::ostringstream out;
  kibitz::jsonl::ServeOptions o;
  o.bot = "rule";
  kibitz::jsonl::ServeSession session(in, out, o);
  session.run();
  // Every reply is one line: the output ends with a newline or is empty.
  const std::string text = out.str();
  if (!text.empty() && text.back() != '\n') std::abort();
  return 0;
}

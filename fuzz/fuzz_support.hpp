#pragma once
// Shared checks for the fuzz targets: a failed parse must explain itself in one line.
#include <cstdlib>

#include "core/error.hpp"
#include "core/log.hpp"

namespace kibitz::fuzz {

template <class T>
void require_one_line_error(const Result<T>& r) {
  if (r) return;
  const std::string& m = r.error().message;
  if (m.empty() || m.find('\n') != std::string::npos || m.find('\r') != std::string::npos)
    std::abort();
}

// Protocol sessions log to stderr; a fuzzer's output must stay its own. Once per process.
inline void silence_logs() {
  static const bool done = [] {
    init_logging(spdlog::level::off);
    return true;
  }();
  (void)done;
}

}  // namespace kibitz::fuzz

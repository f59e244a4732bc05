#pragma once
// Shared checks for the fuzz targets: a failed parse must explain itself in one line.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <utility>

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

// An input naming its game on the first line ("hearts"), the rest its text.
inline std::pair<std::string_view, std::string_view> game_and_text(const std::uint8_t* data,
                                                                   std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto nl = input.find('\n');
  return {input.substr(0, nl), nl == std::string_view::npos ? "" : input.substr(nl + 1)};
}

}  // namespace kibitz::fuzz

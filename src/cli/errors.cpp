#include <fmt/format.h>

#include "cli/commands.hpp"

namespace kibitz::cli {

namespace {
thread_local std::string* g_error_sink = nullptr;
}  // namespace

int report_error(const std::string& message, int status) {
  if (g_error_sink) {
    if (!g_error_sink->empty()) *g_error_sink += "; ";
    *g_error_sink += message;
  } else {
    fmt::print(stderr, "kibitz: error: {}\n", message);
  }
  return status;
}

ErrorCapture::ErrorCapture(std::string& sink) : previous_(g_error_sink) { g_error_sink = &sink; }
ErrorCapture::~ErrorCapture() { g_error_sink = previous_; }

}  // namespace kibitz::cli

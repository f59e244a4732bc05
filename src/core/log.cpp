#include "core/log.hpp"

#include <spdlog/sinks/stdout_sinks.h>

#include <mutex>

namespace kibitz {

namespace {
std::shared_ptr<spdlog::logger> make_logger() {
  auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  auto l = std::make_shared<spdlog::logger>("kibitz", std::move(sink));
  l->set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
  return l;
}
}  // namespace

void init_logging(spdlog::level::level_enum level) {
  static std::once_flag once;
  std::call_once(once, [] { spdlog::set_default_logger(make_logger()); });
  spdlog::default_logger()->set_level(level);
}

spdlog::logger& logger() {
  init_logging(spdlog::default_logger()->level());
  return *spdlog::default_logger();
}

Result<spdlog::level::level_enum> parse_log_level(std::string_view name) {
  static constexpr std::string_view kNames[] = {"trace", "debug",    "info", "warn",
                                                "error", "critical", "off"};
  for (int i = 0; i < 7; ++i)
    if (name == kNames[i]) return static_cast<spdlog::level::level_enum>(i);
  return fail("unknown log level '{}' (expected trace, debug, info, warn, error, critical, off)",
              name);
}

}  // namespace kibitz

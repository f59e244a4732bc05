#pragma once
// Logging goes to stderr (stdout belongs to the protocols), through one spdlog logger.
#include <spdlog/spdlog.h>

#include <string_view>

#include "core/error.hpp"

namespace kibitz {

// Creates (once) the "kibitz" stderr logger and makes it the default; safe to call again to
// change the level.
void init_logging(spdlog::level::level_enum level = spdlog::level::info);
// Parses trace/debug/info/warn/error/critical/off.
Result<spdlog::level::level_enum> parse_log_level(std::string_view name);
spdlog::logger& logger();

}  // namespace kibitz

#pragma once
// Locating the external suites (../shared/data) through KIBITZ_SUITES; tests skip with a
// message naming the missing file when they are absent.
#include <cstdlib>
#include <filesystem>
#include <string>

namespace kibitz::testing {

inline std::string suites_dir() {
  if (const char* env = std::getenv("KIBITZ_SUITES"); env && *env) return env;
  return KIBITZ_DEFAULT_SUITES;
}

// Full path of a suite file, or "" when it is missing.
inline std::string suite_file(const std::string& relative) {
  const std::filesystem::path p = std::filesystem::path(suites_dir()) / relative;
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) ? p.string() : std::string();
}

}  // namespace kibitz::testing

#define KIBITZ_REQUIRE_SUITE(var, relative)                                            \
  const std::string var = ::kibitz::testing::suite_file(relative);                     \
  if (var.empty())                                                                     \
  GTEST_SKIP() << "suite file " << relative                                            \
               << " not found under KIBITZ_SUITES=" << ::kibitz::testing::suites_dir() \
               << " (set KIBITZ_SUITES to the shared data)"

#pragma once
// A progress line on stderr for long work (benchmarks, suites, matches). Redraws in place at
// most ten times a second when stderr is a terminal; silent otherwise, so logs and CI output
// stay clean.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace kibitz {

class Progress {
 public:
  // total == 0 means unknown (no percentage is shown).
  Progress(std::string label, std::uint64_t total, std::FILE* out = stderr);
  // Force the terminal decision (for tests and for --progress/--no-progress flags).
  Progress(std::string label, std::uint64_t total, std::FILE* out, bool enabled);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void update(std::uint64_t done, const std::string& detail = {});
  void finish(const std::string& detail = {});
  bool enabled() const { return enabled_; }
  // The text of the line as it would be drawn (exposed for tests).
  std::string render(std::uint64_t done, const std::string& detail) const;

 private:
  std::string label_;
  std::uint64_t total_;
  std::FILE* out_;
  bool enabled_;
  bool drawn_ = false;
  bool finished_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace kibitz

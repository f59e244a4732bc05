#include "core/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

namespace kibitz {

Progress::Progress(std::string label, std::uint64_t total, std::FILE* out)
    : Progress(std::move(label), total, out, out != nullptr && ::isatty(::fileno(out)) == 1) {}

Progress::Progress(std::string label, std::uint64_t total, std::FILE* out, bool enabled)
    : label_(std::move(label)),
      total_(total),
      out_(out),
      enabled_(enabled && out != nullptr),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_ - std::chrono::seconds(1)) {}

Progress::~Progress() {
  if (drawn_ && !finished_) finish();
}

std::string Progress::render(std::uint64_t done, const std::string& detail) const {
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string line;
  if (total_ > 0) {
    line = fmt::format("{}: {}/{} ({:.0f}%) {:.1f}s", label_, done, total_,
                       100.0 * static_cast<double>(done) / static_cast<double>(total_), secs);
  } else {
    line = fmt::format("{}: {} {:.1f}s", label_, done, secs);
  }
  if (!detail.empty()) line += " " + detail;
  return line;
}

void Progress::update(std::uint64_t done, const std::string& detail) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(100) && done != total_) return;
  last_draw_ = now;
  fmt::print(out_, "\r\x1b[2K{}", render(done, detail));
  std::fflush(out_);
  drawn_ = true;
}

void Progress::finish(const std::string& detail) {
  finished_ = true;
  if (!enabled_) return;
  fmt::print(out_, "\r\x1b[2K{}\n", render(total_, detail));
  std::fflush(out_);
}

}  // namespace kibitz

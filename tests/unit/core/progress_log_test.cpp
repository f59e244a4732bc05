// Progress lines (silent unless enabled on a terminal) and log-level parsing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "core/log.hpp"
#include "core/progress.hpp"

namespace kibitz {
namespace {

// A tmpfile that reads back everything written to it.
class Capture {
 public:
  Capture() : f_(std::tmpfile()) {}
  ~Capture() {
    if (f_ != nullptr) std::fclose(f_);
  }
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;
  std::FILE* file() const { return f_; }
  std::string text() const {
    std::fflush(f_);
    std::rewind(f_);
    std::string s;
    char buf[256];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f_)) > 0) s.append(buf, n);
    std::fseek(f_, 0, SEEK_END);
    return s;
  }

 private:
  std::FILE* f_;
};

TEST(Progress, DisabledWritesNothing) {
  Capture cap;
  ASSERT_NE(cap.file(), nullptr);
  {
    Progress p("games", 10, cap.file(), false);
    EXPECT_FALSE(p.enabled());
    for (std::uint64_t i = 0; i <= 10; ++i) p.update(i, "detail");
    p.finish("done");
  }
  {
    Progress p("unfinished", 10, cap.file(), false);
    p.update(3);
  }  // destructor must not draw either
  EXPECT_EQ(cap.text(), "");
}

TEST(Progress, NotATerminalMeansDisabled) {
  Capture cap;
  ASSERT_NE(cap.file(), nullptr);
  {
    Progress p("suite", 5, cap.file());  // a regular file is not a tty
    EXPECT_FALSE(p.enabled());
    p.update(1);
    p.update(5);
    p.finish();
  }
  EXPECT_EQ(cap.text(), "");
}

TEST(Progress, NullOutputIsDisabled) {
  Progress p("x", 3, nullptr, true);
  EXPECT_FALSE(p.enabled());
  p.update(1);
  p.finish();
}

TEST(Progress, EnabledWritesLabelAndCounts) {
  Capture cap;
  ASSERT_NE(cap.file(), nullptr);
  {
    Progress p("positions", 10, cap.file(), true);
    EXPECT_TRUE(p.enabled());
    p.update(3, "nps 1234");
    const std::string after_update = cap.text();
    EXPECT_NE(after_update.find("positions"), std::string::npos) << after_update;
    EXPECT_NE(after_update.find("3/10"), std::string::npos) << after_update;
    EXPECT_NE(after_update.find("nps 1234"), std::string::npos) << after_update;
    EXPECT_EQ(after_update.find('\n'), std::string::npos) << "redrawn in place";
    p.finish("ok");
  }
  const std::string all = cap.text();
  EXPECT_NE(all.find("10/10"), std::string::npos) << all;
  EXPECT_NE(all.find("ok"), std::string::npos) << all;
  EXPECT_EQ(all.back(), '\n');
  // finish() already ended the line; the destructor adds nothing more.
  EXPECT_EQ(all.find('\n'), all.size() - 1) << all;
}

TEST(Progress, DestructorFinishesADrawnLine) {
  Capture cap;
  ASSERT_NE(cap.file(), nullptr);
  {
    Progress p("work", 4, cap.file(), true);
    p.update(1);
  }
  const std::string all = cap.text();
  EXPECT_NE(all.find("1/4"), std::string::npos) << all;
  EXPECT_NE(all.find("4/4"), std::string::npos) << all;
  EXPECT_EQ(all.back(), '\n');
}

TEST(Progress, UpdatesAreThrottledButTheLastOneAlwaysDraws) {
  Capture cap;
  ASSERT_NE(cap.file(), nullptr);
  Progress p("t", 1000, cap.file(), true);
  for (std::uint64_t i = 1; i <= 999; ++i) p.update(i);
  const std::string mid = cap.text();
  EXPECT_NE(mid.find("t: 1/1000"), std::string::npos) << mid;  // the first draws at once
  // At most ten redraws a second: 999 quick updates draw a handful of times, not 999.
  EXPECT_LT(std::count(mid.begin(), mid.end(), '\r'), 50) << mid;
  p.update(1000);
  EXPECT_NE(cap.text().find("1000/1000"), std::string::npos);
  p.finish();
}

TEST(Progress, RenderShowsPercentage) {
  Progress p("bench", 200, nullptr, false);
  const std::string line = p.render(50, "");
  EXPECT_EQ(line.rfind("bench: 50/200 (25%) ", 0), 0u) << line;
  EXPECT_EQ(line.back(), 's') << line;
  EXPECT_NE(p.render(200, "").find("(100%)"), std::string::npos);
  EXPECT_NE(p.render(0, "").find("(0%)"), std::string::npos);
  const std::string with_detail = p.render(1, "eta 3s");
  EXPECT_EQ(with_detail.substr(with_detail.size() - 7), " eta 3s") << with_detail;
}

TEST(Progress, RenderWithUnknownTotalHasNoPercentage) {
  Progress p("nodes", 0, nullptr, false);
  const std::string line = p.render(42, "");
  EXPECT_EQ(line.rfind("nodes: 42 ", 0), 0u) << line;
  EXPECT_EQ(line.find('%'), std::string::npos) << line;
  EXPECT_EQ(line.find('/'), std::string::npos) << line;
}

TEST(Log, ParseLogLevelAcceptsTheSevenNames) {
  const std::pair<const char*, spdlog::level::level_enum> cases[] = {
      {"trace", spdlog::level::trace}, {"debug", spdlog::level::debug},
      {"info", spdlog::level::info},   {"warn", spdlog::level::warn},
      {"error", spdlog::level::err},   {"critical", spdlog::level::critical},
      {"off", spdlog::level::off},
  };
  for (const auto& [name, level] : cases) {
    auto r = parse_log_level(name);
    ASSERT_TRUE(r.has_value()) << name;
    EXPECT_EQ(*r, level) << name;
  }
}

TEST(Log, ParseLogLevelRejectsOthersNamingTheValue) {
  for (const char* bad : {"", "verbose", "INFO", "warning", "err", "info ", "7"}) {
    auto r = parse_log_level(bad);
    ASSERT_FALSE(r.has_value()) << "'" << bad << "'";
    const std::string& m = r.error().message;
    EXPECT_NE(m.find(std::string("'") + bad + "'"), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

TEST(Log, InitLoggingSetsTheLevelAndCanBeCalledAgain) {
  const auto saved = spdlog::default_logger()->level();
  init_logging(spdlog::level::warn);
  EXPECT_EQ(logger().level(), spdlog::level::warn);
  EXPECT_EQ(logger().name(), "kibitz");
  init_logging(spdlog::level::debug);
  EXPECT_EQ(logger().level(), spdlog::level::debug);
  EXPECT_EQ(&logger(), spdlog::default_logger_raw());
  init_logging(saved);
}

}  // namespace
}  // namespace kibitz

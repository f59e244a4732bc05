// Every registry entry's bench signature (GameEntry::bench_golden) against its committed
// golden file, through the real binary: `kibitz bench --game NAME ARGS` reports the number.
// A signature changes only when the search or evaluation does; then the golden file is
// updated in the same commit.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>

#include "games/registry.hpp"

namespace kibitz {
namespace {

std::string run(const std::string& command) {
  std::string out;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return out;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), pipe.get())) out += buf.data();
  return out;
}

TEST(BenchGolden, EveryEntrysSignatureMatchesItsGoldenFile) {
  int checked = 0;
  for (const auto& g : builtin_registry().games()) {
    if (!g.bench_golden) continue;
    SCOPED_TRACE(g.name);
    ASSERT_TRUE(g.bench) << "a golden signature without a bench";
    std::ifstream in(std::string(KIBITZ_TEST_DATA) + "/../golden/" + g.bench_golden->file);
    ASSERT_TRUE(in) << g.bench_golden->file;
    std::string golden;
    std::getline(in, golden);
    std::string command = std::string(KIBITZ_BINARY) + " bench --game " + g.name;
    for (const auto& a : g.bench_golden->args) command += " " + a;
    const std::string out = run(command + " 2>/dev/null");
    const std::string line = g.bench_golden->label;
    const auto at = out.find(line);
    ASSERT_NE(at, std::string::npos) << out;
    const auto colon = out.find(':', at);
    const auto end = out.find('\n', colon);
    std::string value = out.substr(colon + 1, end - colon - 1);
    value.erase(0, value.find_first_not_of(' '));
    EXPECT_EQ(value, golden) << command;
    ++checked;
  }
  EXPECT_GE(checked, 3);  // chess, gomoku, Go
}

}  // namespace
}  // namespace kibitz

// Config: YAML with dotted keys, defaults for missing keys, one-line errors naming the place.
#include "core/config.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace kibitz {
namespace {

constexpr const char* kNested = R"(search:
  depth: 12
  aspiration: 0.25
  ponder: true
  name: pvs
deep_mcts:
  max_visits: 800
  puct:
    c: 1.5
threads: 4
)";

Config parse_ok(std::string_view text, std::string_view source = "test.yaml") {
  auto c = Config::parse(text, source);
  EXPECT_TRUE(c.has_value()) << (c ? "" : c.error().message);
  return c ? *c : Config{};
}

void expect_one_line(const std::string& message) {
  EXPECT_FALSE(message.empty());
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_EQ(message.find('\r'), std::string::npos) << message;
}

TEST(Config, EmptyConfigReturnsDefaults) {
  const Config c;
  EXPECT_FALSE(c.has("anything"));
  EXPECT_EQ(c.get_int("a.b", 7).value(), 7);
  EXPECT_DOUBLE_EQ(c.get_double("x", 2.5).value(), 2.5);
  EXPECT_TRUE(c.get_bool("flag", true).value());
  EXPECT_EQ(c.get_string("s", "dflt").value(), "dflt");
  EXPECT_TRUE(c.keys().empty());
}

TEST(Config, ParsesNestedKeysWithDottedPaths) {
  const Config c = parse_ok(kNested);
  EXPECT_EQ(c.source(), "test.yaml");
  EXPECT_EQ(c.get_int("search.depth", 0).value(), 12);
  EXPECT_DOUBLE_EQ(c.get_double("search.aspiration", 0).value(), 0.25);
  EXPECT_TRUE(c.get_bool("search.ponder", false).value());
  EXPECT_EQ(c.get_string("search.name", "").value(), "pvs");
  EXPECT_EQ(c.get_int("deep_mcts.max_visits", 0).value(), 800);
  EXPECT_DOUBLE_EQ(c.get_double("deep_mcts.puct.c", 0).value(), 1.5);
  EXPECT_EQ(c.get_int("threads", 1).value(), 4);
  // An integer is also a valid number and a valid string.
  EXPECT_DOUBLE_EQ(c.get_double("threads", 0).value(), 4.0);
  EXPECT_EQ(c.get_string("threads", "").value(), "4");
  EXPECT_TRUE(c.has("search"));
  EXPECT_TRUE(c.has("search.depth"));
  EXPECT_TRUE(c.has("deep_mcts.puct.c"));
}

TEST(Config, RepeatedLookupsDoNotChangeTheConfig) {
  const Config c = parse_ok(kNested);
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(c.has("search.missing"));
    EXPECT_EQ(c.get_int("search.depth", 0).value(), 12);
    EXPECT_EQ(c.get_int("search.missing", 3).value(), 3);
  }
  EXPECT_EQ(c.keys("search"), (std::vector<std::string>{"depth", "aspiration", "ponder", "name"}));
}

TEST(Config, MissingKeysGiveDefaults) {
  const Config c = parse_ok(kNested);
  EXPECT_FALSE(c.has("search.nodes"));
  EXPECT_FALSE(c.has("nosuch"));
  EXPECT_FALSE(c.has("nosuch.deeper.still"));
  EXPECT_FALSE(c.has("threads.sub"));  // a path through a scalar
  EXPECT_EQ(c.get_int("search.nodes", 1000).value(), 1000);
  EXPECT_EQ(c.get_int("nosuch.deeper", -1).value(), -1);
  EXPECT_EQ(c.get_int("threads.sub", 9).value(), 9);
  EXPECT_DOUBLE_EQ(c.get_double("deep_mcts.puct.tau", 0.75).value(), 0.75);
  EXPECT_FALSE(c.get_bool("search.ponder_hit", false).value());
  EXPECT_EQ(c.get_string("search.engine", "ab").value(), "ab");
}

TEST(Config, NullValuesCountAsMissing) {
  const Config c = parse_ok("a:\nb: ~\nc: null\n");
  EXPECT_FALSE(c.has("a"));
  EXPECT_FALSE(c.has("b"));
  EXPECT_FALSE(c.has("c"));
  EXPECT_EQ(c.get_int("a", 5).value(), 5);
  EXPECT_EQ(c.get_string("b", "x").value(), "x");
  EXPECT_EQ(c.keys(), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(Config, BooleansAndNegativeNumbers) {
  const Config c = parse_ok("on: true\noff: false\nneg: -42\nbig: 9000000000\nexp: 1e-3\n");
  EXPECT_TRUE(c.get_bool("on", false).value());
  EXPECT_FALSE(c.get_bool("off", true).value());
  EXPECT_EQ(c.get_int("neg", 0).value(), -42);
  EXPECT_EQ(c.get_int("big", 0).value(), 9'000'000'000);
  EXPECT_DOUBLE_EQ(c.get_double("exp", 0).value(), 1e-3);
}

TEST(Config, WrongTypeNamesSourceLineAndKey) {
  const Config c = parse_ok("search:\n  depth: deep\n");
  auto r = c.get_int("search.depth", 0);
  ASSERT_FALSE(r.has_value());
  const std::string& m = r.error().message;
  expect_one_line(m);
  EXPECT_EQ(m.rfind("test.yaml:2:", 0), 0u) << m;  // starts with source:line
  EXPECT_NE(m.find("test.yaml:2:10"), std::string::npos) << m;
  EXPECT_NE(m.find("'search.depth'"), std::string::npos) << m;
  EXPECT_NE(m.find("integer"), std::string::npos) << m;
  EXPECT_NE(m.find("'deep'"), std::string::npos) << m;
}

TEST(Config, WrongTypeOnLaterLinesReportsThatLine) {
  const Config c =
      parse_ok("a: 1\nb: 2\n\nsearch:\n  x: 1\n  ratio: high\n  flag: maybe\n", "f.yml");
  auto d = c.get_double("search.ratio", 0);
  ASSERT_FALSE(d.has_value());
  expect_one_line(d.error().message);
  EXPECT_NE(d.error().message.find("f.yml:6:"), std::string::npos) << d.error().message;
  EXPECT_NE(d.error().message.find("'search.ratio'"), std::string::npos) << d.error().message;
  EXPECT_NE(d.error().message.find("'high'"), std::string::npos) << d.error().message;

  auto b = c.get_bool("search.flag", false);
  ASSERT_FALSE(b.has_value());
  expect_one_line(b.error().message);
  EXPECT_NE(b.error().message.find("f.yml:7:"), std::string::npos) << b.error().message;
  EXPECT_NE(b.error().message.find("'search.flag'"), std::string::npos) << b.error().message;
}

TEST(Config, NonScalarWhereScalarExpected) {
  const Config c = parse_ok(kNested);
  auto r = c.get_int("search", 0);
  ASSERT_FALSE(r.has_value());
  expect_one_line(r.error().message);
  EXPECT_NE(r.error().message.find("test.yaml:2:"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("'search'"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("mapping"), std::string::npos) << r.error().message;

  const Config l = parse_ok("xs: [1, 2, 3]\n");
  auto s = l.get_string("xs", "");
  ASSERT_FALSE(s.has_value());
  expect_one_line(s.error().message);
  EXPECT_NE(s.error().message.find("test.yaml:1:"), std::string::npos) << s.error().message;
  EXPECT_NE(s.error().message.find("list"), std::string::npos) << s.error().message;
}

TEST(Config, MultiLineValueStillGivesOneLineError) {
  const Config c = parse_ok("depth: |\n  twelve\n  or so\n");
  auto r = c.get_int("depth", 0);
  ASSERT_FALSE(r.has_value());
  expect_one_line(r.error().message);
  EXPECT_NE(r.error().message.find("test.yaml:1:"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("'depth'"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("twelve"), std::string::npos) << r.error().message;
}

TEST(Config, MalformedYamlIsAOneLineErrorWithFileAndLine) {
  auto r = Config::parse("a: 1\nb: [1, 2\nc: 3\n", "bad.yaml");
  ASSERT_FALSE(r.has_value());
  expect_one_line(r.error().message);
  EXPECT_EQ(r.error().message.rfind("bad.yaml:", 0), 0u) << r.error().message;

  auto r2 = Config::parse("a: 1\n  b: 2\n", "indent.yaml");
  ASSERT_FALSE(r2.has_value());
  expect_one_line(r2.error().message);
  EXPECT_EQ(r2.error().message.rfind("indent.yaml:2:", 0), 0u) << r2.error().message;
}

TEST(Config, TopLevelMustBeAMapping) {
  for (const char* text : {"- 1\n- 2\n", "just a string\n", "42\n"}) {
    auto r = Config::parse(text, "top.yaml");
    ASSERT_FALSE(r.has_value()) << text;
    expect_one_line(r.error().message);
    EXPECT_EQ(r.error().message.rfind("top.yaml", 0), 0u) << r.error().message;
    EXPECT_NE(r.error().message.find("mapping"), std::string::npos) << r.error().message;
  }
}

TEST(Config, EmptyDocumentIsAnEmptyConfig) {
  for (const char* text : {"", "\n", "# only a comment\n"}) {
    const Config c = parse_ok(text);
    EXPECT_TRUE(c.keys().empty()) << text;
    EXPECT_EQ(c.get_int("x", 3).value(), 3);
  }
}

TEST(Config, KeysInFileOrder) {
  const Config c = parse_ok("zeta: 1\nalpha: 2\nmid:\n  b: 1\n  a: 2\n  c:\n    x: 1\nbeta: 3\n");
  EXPECT_EQ(c.keys(), (std::vector<std::string>{"zeta", "alpha", "mid", "beta"}));
  EXPECT_EQ(c.keys("mid"), (std::vector<std::string>{"b", "a", "c"}));
  EXPECT_EQ(c.keys("mid.c"), (std::vector<std::string>{"x"}));
  EXPECT_TRUE(c.keys("zeta").empty());     // a scalar has no keys
  EXPECT_TRUE(c.keys("missing").empty());  // nor does a missing key
}

TEST(Config, LoadFileMissingPath) {
  const std::string path = "/nonexistent/dir/kibitz_no_such_config.yaml";
  auto r = Config::load_file(path);
  ASSERT_FALSE(r.has_value());
  expect_one_line(r.error().message);
  EXPECT_EQ(r.error().message, "cannot open config file '" + path + "'");
}

class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    char name[] = "/tmp/kibitz_config_test_XXXXXX";
    const int fd = ::mkstemp(name);
    EXPECT_GE(fd, 0);
    if (fd >= 0) ::close(fd);
    path_ = name;
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(Config, LoadFileReadsARealFile) {
  TempFile f(kNested);
  auto r = Config::load_file(f.path());
  ASSERT_TRUE(r.has_value()) << r.error().message;
  EXPECT_EQ(r->source(), f.path());
  EXPECT_EQ(r->get_int("search.depth", 0).value(), 12);
  EXPECT_DOUBLE_EQ(r->get_double("deep_mcts.puct.c", 0).value(), 1.5);
  EXPECT_EQ(r->keys(), (std::vector<std::string>{"search", "deep_mcts", "threads"}));
}

TEST(Config, LoadFileErrorsNameThePath) {
  TempFile f("threads: many\n");
  auto r = Config::load_file(f.path());
  ASSERT_TRUE(r.has_value()) << r.error().message;
  auto t = r->get_int("threads", 1);
  ASSERT_FALSE(t.has_value());
  expect_one_line(t.error().message);
  EXPECT_EQ(t.error().message.rfind(f.path() + ":1:", 0), 0u) << t.error().message;

  TempFile bad("a: [\n");
  auto b = Config::load_file(bad.path());
  ASSERT_FALSE(b.has_value());
  expect_one_line(b.error().message);
  EXPECT_EQ(b.error().message.rfind(bad.path() + ":", 0), 0u) << b.error().message;
}

TEST(Config, LoadFileOnADirectoryFails) {
  auto r = Config::load_file(std::filesystem::temp_directory_path().string());
  ASSERT_FALSE(r.has_value());
  expect_one_line(r.error().message);
  EXPECT_NE(r.error().message.find("config file"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace kibitz

namespace kibitz {
namespace {

TEST(Config, NonScalarKeysAreRejected) {
  auto c = Config::parse("search:\n  ? [a, b]\n  : 3\n", "keys.yaml");
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().message.find("keys.yaml:2:"), std::string::npos) << c.error().message;
  EXPECT_NE(c.error().message.find("a key must be a plain name, not a list"), std::string::npos)
      << c.error().message;
}

}  // namespace
}  // namespace kibitz

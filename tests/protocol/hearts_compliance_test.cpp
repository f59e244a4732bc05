// Hearts JSON-lines compliance (the protocol of docs/hearts.md): every non-blank line before
// `quit` gets exactly one JSON reply line, in order, `{"ok":false,"error":...}` for anything
// wrong, and the session goes on.
#include <gtest/gtest.h>

#include <string>

#include "protocol/compliance.hpp"
#include "protocol/jsonl/hearts_serve.hpp"

namespace kibitz::jsonl {
namespace {

using compliance::Case;

std::vector<std::string> hearts_output(const std::string& input) {
  ServeOptions o;
  o.bot = "rule";
  return compliance::run_session<ServeSession>(input, o);
}

int hearts_requests(const std::string& input) {
  int n = 0;
  for (const auto& line : compliance::lines_of(input)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    ++n;
    if (line.find("\"quit\"") != std::string::npos) break;
  }
  return n;
}

// All thirteen clubs: seat 0 holds the 2C and leads the first trick (no passing).
const std::string kClubs =
    R"({"cmd":"new_deal","seat":0,"hand":"2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"})";
const std::string kHeartsLongJunk(100000, 'z');

const std::vector<Case>& hearts_cases() {
  static const std::vector<Case> list = {
      {"a deal, the bot's card, the play, the state",
       kClubs + "\n{\"cmd\":\"best\"}\n{\"cmd\":\"play\",\"seat\":0,\"card\":\"2C\"}\n"
                "{\"cmd\":\"state\"}\n{\"cmd\":\"quit\"}\n",
       {"^\\{\"ok\":true\\}$", "^\\{\"ok\":true,\"card\":\"2C\"", "^\\{\"ok\":true\\}$",
        "^\\{\"ok\":true,.*\"seat\":0", "^\\{\"ok\":true\\}$"},
       {"\"ok\":false"}},
      {"errors are answered and the session goes on",
       "not json\n{\"cmd\":\"best\"}\n" + kClubs +
           "\n{\"cmd\":\"play\",\"seat\":0,\"card\":\"AS\"}\n{\"cmd\":\"best\"}\n",
       {"^\\{\"ok\":false,\"error\":\".*not JSON", "^\\{\"ok\":false,\"error\":\"no hand dealt",
        "^\\{\"ok\":true\\}$", "^\\{\"ok\":false,\"error\":\"", "^\\{\"ok\":true,\"card\":\"2C\""},
       {}},
      {"repro 11: an over-long command name is not echoed back whole",
       "{\"cmd\":\"" + kHeartsLongJunk + "\"}\n",
       {"^\\{\"ok\":false,\"error\":\"unknown command 'z{80}\\.\\.\\. \\(100000 bytes\\)'"},
       {}},
      {"blank lines are skipped; quit ends the session",
       "\n  \n{\"cmd\":\"quit\"}\n{\"cmd\":\"state\"}\n",
       {"^\\{\"ok\":true\\}$"},
       {"no hand dealt"}},
  };
  return list;
}

TEST(HeartsCompliance, EveryCaseTranscript) {
  for (const Case& c : hearts_cases()) {
    SCOPED_TRACE(c.name);
    const auto out = hearts_output(c.input);
    EXPECT_TRUE(compliance::transcript_matches(c, out));
    EXPECT_EQ(static_cast<int>(out.size()), hearts_requests(c.input)) << c.name;
  }
}

}  // namespace
}  // namespace kibitz::jsonl

#pragma once
// The protocol compliance checkers' shared part: a case is an input script and the lines its
// transcript must show, in order (POSIX extended regular expressions, each matched by a later
// line than the one before), plus lines it must not show. Modelled on fastchess's
// `--compliance`: handshake, options, each documented command with edge values, ordering,
// stop / ponder / quit, malformed lines.
#include <gtest/gtest.h>

#include <regex.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace kibitz::compliance {

// `\d` is accepted as a shorthand for [0-9] (std::regex trips a GCC 12 false warning under
// the sanitizers, hence POSIX).
class Regex {
 public:
  explicit Regex(std::string pattern) {
    for (std::size_t i; (i = pattern.find("\\d")) != std::string::npos;)
      pattern.replace(i, 2, "[0-9]");
    ok_ = regcomp(&re_, pattern.c_str(), REG_EXTENDED | REG_NOSUB) == 0;
  }
  ~Regex() {
    if (ok_) regfree(&re_);
  }
  Regex(const Regex&) = delete;
  Regex& operator=(const Regex&) = delete;
  bool valid() const { return ok_; }
  bool matches(const std::string& s) const {
    return ok_ && regexec(&re_, s.c_str(), 0, nullptr, 0) == 0;
  }

 private:
  regex_t re_{};
  bool ok_ = false;
};

struct Case {
  std::string name;
  std::string input;
  std::vector<std::string> expect;  // in this order
  std::vector<std::string> forbid;  // anywhere
};

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream read(text);
  for (std::string line; std::getline(read, line);) lines.push_back(line);
  return lines;
}

// A whole session of `Session` (constructed from an input stream, an output stream and any
// `options`) run over `input`: the lines it wrote.
template <class Session, class... Options>
std::vector<std::string> run_session(const std::string& input, Options&&... options) {
  std::istringstream in(input);
  std::ostringstream out;
  Session session(in, out, std::forward<Options>(options)...);
  session.run();
  return lines_of(out.str());
}

inline int count_matching(const std::vector<std::string>& lines, const std::string& pattern) {
  const Regex re(pattern);
  int n = 0;
  for (const auto& l : lines) n += re.matches(l);
  return n;
}

inline ::testing::AssertionResult transcript_matches(const Case& c,
                                                     const std::vector<std::string>& out) {
  std::size_t at = 0;
  for (const auto& pattern : c.expect) {
    const Regex re(pattern);
    if (!re.valid()) return ::testing::AssertionFailure() << "bad pattern " << pattern;
    while (at < out.size() && !re.matches(out[at])) ++at;
    if (at == out.size()) {
      std::string shown;
      for (const auto& l : out) shown += "  | " + l.substr(0, 200) + "\n";
      return ::testing::AssertionFailure()
             << c.name << ": no line matching '" << pattern << "' (in order) in:\n"
             << shown;
    }
    ++at;
  }
  for (const auto& pattern : c.forbid) {
    const Regex re(pattern);
    for (const auto& l : out)
      if (re.matches(l))
        return ::testing::AssertionFailure()
               << c.name << ": a line matches the forbidden '" << pattern << "': " << l;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace kibitz::compliance

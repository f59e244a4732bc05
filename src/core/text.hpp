#pragma once
// Small text helpers the line-based parsers and protocols share.
#include <algorithm>
#include <cctype>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace kibitz {

// Without leading and trailing spaces, tabs, CR and LF.
inline std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// Words separated by spaces and tabs (views into `s`).
inline std::vector<std::string_view> split_blanks(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const std::size_t j = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > j) out.push_back(s.substr(j, i - j));
  }
  return out;
}

inline std::string to_lower(std::string_view s) {
  std::string r(s);
  std::transform(r.begin(), r.end(), r.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return r;
}

inline std::string to_upper(std::string_view s) {
  std::string r(s);
  std::transform(r.begin(), r.end(), r.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return r;
}

// The data lines of a text file: each line trimmed, blank lines and '#' comments skipped.
// f(text, line_number) returns Result<void>; its first error ends the walk and is returned.
template <class F>
Result<void> for_each_data_line(std::istream& in, F&& f) {
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#') continue;
    if (auto ok = f(text, n); !ok) return ok;
  }
  return {};
}

}  // namespace kibitz

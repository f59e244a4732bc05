#pragma once
// Expected-or-error results: every parser and loader returns Result<T>, whose error is a
// single line naming the problem and where it is.
#include <fmt/format.h>

#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <utility>

namespace kibitz {

struct Error {
  std::string message;  // one line, no trailing newline
};

template <class T>
using Result = tl::expected<T, Error>;

// Escapes control characters (\n, \t, \xNN) so text quoted from bad input cannot break an
// error message over several lines.
inline std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (u < 0x20 || u == 0x7f)
      out += fmt::format("\\x{:02x}", u);
    else
      out += c;
  }
  return out;
}

// `text` quoted from input in a message: one line, and at most `max` characters of it (a
// 10 MB line is not echoed back whole).
inline std::string excerpt(std::string_view text, std::size_t max = 80) {
  if (text.size() <= max) return one_line(text);
  return fmt::format("{}... ({} bytes)", one_line(text.substr(0, max)), text.size());
}

// Builds the unexpected value of a Result: `return fail("bad rank '{}'", c);`. The message is
// always a single line, whatever the arguments quote.
template <class... Args>
[[nodiscard]] tl::unexpected<Error> fail(fmt::format_string<Args...> f, Args&&... args) {
  return tl::unexpected<Error>(Error{one_line(fmt::format(f, std::forward<Args>(args)...))});
}

// Prefixes an error with context: `return with_context(r, "line 12")` -> "line 12: ...".
inline tl::unexpected<Error> with_context(const Error& e, std::string_view where) {
  return tl::unexpected<Error>(Error{one_line(fmt::format("{}: {}", where, e.message))});
}

}  // namespace kibitz

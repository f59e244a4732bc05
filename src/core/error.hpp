#pragma once
// Expected-or-error results: every parser and loader returns Result<T>, whose error is a
// single line naming the problem and where it is.
#include <fmt/format.h>

#include <string>
#include <tl/expected.hpp>
#include <utility>

namespace kibitz {

struct Error {
  std::string message;  // one line, no trailing newline
};

template <class T>
using Result = tl::expected<T, Error>;

// Builds the unexpected value of a Result: `return fail("bad rank '{}'", c);`
template <class... Args>
[[nodiscard]] tl::unexpected<Error> fail(fmt::format_string<Args...> f, Args&&... args) {
  return tl::unexpected<Error>(Error{fmt::format(f, std::forward<Args>(args)...)});
}

// Prefixes an error with context: `return with_context(r, "line 12")` -> "line 12: ...".
inline tl::unexpected<Error> with_context(const Error& e, std::string_view where) {
  return tl::unexpected<Error>(Error{fmt::format("{}: {}", where, e.message)});
}

}  // namespace kibitz

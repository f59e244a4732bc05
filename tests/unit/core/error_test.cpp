// Errors are single lines whatever the input they quote.
#include "core/error.hpp"

#include <gtest/gtest.h>

namespace kibitz {
namespace {

Result<int> parse_digit(char c) {
  if (c < '0' || c > '9') return fail("'{}' is not a digit", c);
  return c - '0';
}

TEST(Error, FailFormatsTheMessage) {
  auto r = parse_digit('x');
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "'x' is not a digit");
  EXPECT_EQ(*parse_digit('7'), 7);
}

TEST(Error, ControlCharactersAreEscaped) {
  EXPECT_EQ(parse_digit('\n').error().message, "'\\n' is not a digit");
  EXPECT_EQ(parse_digit('\t').error().message, "'\\t' is not a digit");
  EXPECT_EQ(parse_digit('\x01').error().message, "'\\x01' is not a digit");
  EXPECT_EQ(one_line("a\r\nb\x7f"), "a\\r\\nb\\x7f");
  EXPECT_EQ(one_line("plain text, \xc3\xa9"), "plain text, \xc3\xa9");  // UTF-8 kept
}

TEST(Error, WithContextPrefixes) {
  const auto e = with_context(Error{"bad move"}, "games.pgn:12");
  EXPECT_EQ(e.value().message, "games.pgn:12: bad move");
  EXPECT_EQ(with_context(Error{"x"}, "a\nb").value().message, "a\\nb: x");
}

}  // namespace
}  // namespace kibitz

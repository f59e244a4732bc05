#pragma once
// The web pages of `kibitz serve`, compiled in from web/ (CMake generates the table: edit the
// files under web/, not the generated source).
#include <span>
#include <string_view>

namespace kibitz::serve {

struct Asset {
  std::string_view path;  // "/assets/chess.js"; the pages are "/" and "/play"
  std::string_view type;  // its Content-Type
  std::string_view body;
};

std::span<const Asset> assets();

}  // namespace kibitz::serve

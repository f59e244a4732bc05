#pragma once
// Shared checks for the fuzz targets: a failed parse must explain itself in one line.
#include <cstdlib>

#include "core/error.hpp"

namespace kibitz::fuzz {

template <class T>
void require_one_line_error(const Result<T>& r) {
  if (r) return;
  const std::string& m = r.error().message;
  if (m.empty() || m.find('\n') != std::string::npos || m.find('\r') != std::string::npos)
    std::abort();
}

}  // namespace kibitz::fuzz

#include <fmt/format.h>

#include "cli/commands.hpp"

namespace kibitz::cli {

int report_error(const std::string& message, int status) {
  fmt::print(stderr, "kibitz: error: {}\n", message);
  return status;
}

}  // namespace kibitz::cli

#pragma once
// EPD: the four position fields of FEN (optionally followed by the halfmove and fullmove
// numbers, as perft suites write them), then operations "opcode operand...;" such as
// `bm Qg6; id "WAC.001";` or the perft suites' `;D1 20 ;D2 400`.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "games/chess/position.hpp"

namespace kibitz::chess {

struct EpdRecord {
  Position position;
  std::vector<std::pair<std::string, std::string>> ops;  // opcode, operand (quotes removed)

  // The operand of the first operation named opcode, if any.
  std::optional<std::string> op(std::string_view opcode) const;
};

Result<EpdRecord> parse_epd(std::string_view line);

// Reads a whole EPD file; blank lines and lines starting with '#' are skipped. An error names
// the file and line.
Result<std::vector<EpdRecord>> load_epd_file(const std::string& path);

}  // namespace kibitz::chess

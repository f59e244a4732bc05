#include "games/chess/epd.hpp"
#include "core/text.hpp"

#include <cctype>
#include <fstream>

namespace kibitz::chess {

namespace {
bool is_number(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}
}  // namespace

std::optional<std::string> EpdRecord::op(std::string_view opcode) const {
  for (const auto& [k, v] : ops)
    if (k == opcode) return v;
  return std::nullopt;
}

Result<EpdRecord> parse_epd(std::string_view line) {
  // Split off the first four whitespace-separated fields.
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  line = trim(line);
  while (fields.size() < 6 && i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size() || line[i] == ';') break;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != ';') ++j;
    const std::string_view tok = line.substr(i, j - i);
    // After four FEN fields, only numbers (halfmove, fullmove) still belong to the position.
    if (fields.size() >= 4 && !is_number(tok)) break;
    fields.push_back(tok);
    i = j;
  }
  if (fields.size() < 4) return fail("EPD: expected 4 position fields, got {}", fields.size());
  std::string fen;
  for (std::size_t k = 0; k < fields.size(); ++k) {
    if (k) fen += ' ';
    fen += fields[k];
  }
  auto pos = Position::from_fen(fen);
  if (!pos) return tl::unexpected(pos.error());

  EpdRecord rec{*pos, {}};
  // Operations: split on ';' outside double quotes.
  std::string_view rest = line.substr(std::min(i, line.size()));
  std::string current;
  bool quoted = false;
  auto flush = [&]() -> Result<void> {
    std::string_view op = trim(current);
    if (!op.empty()) {
      const std::size_t sp = op.find_first_of(" \t");
      std::string opcode(op.substr(0, sp));
      std::string operand(sp == std::string_view::npos ? "" : trim(op.substr(sp)));
      if (operand.size() >= 2 && operand.front() == '"' && operand.back() == '"')
        operand = operand.substr(1, operand.size() - 2);
      for (char c : opcode)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
          return fail("EPD: bad opcode '{}'", opcode);
      rec.ops.emplace_back(std::move(opcode), std::move(operand));
    }
    current.clear();
    return {};
  };
  for (char c : rest) {
    if (c == '"') quoted = !quoted;
    if (c == ';' && !quoted) {
      if (auto r = flush(); !r) return tl::unexpected(r.error());
    } else {
      current += c;
    }
  }
  if (quoted) return fail("EPD: unterminated string in operations");
  if (auto r = flush(); !r) return tl::unexpected(r.error());
  return rec;
}

Result<std::vector<EpdRecord>> load_epd_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return fail("cannot open EPD file '{}'", path);
  std::vector<EpdRecord> out;
  auto read = for_each_data_line(in, [&](std::string_view t, int n) -> Result<void> {
    auto rec = parse_epd(t);
    if (!rec) return with_context(rec.error(), fmt::format("{}:{}", path, n));
    out.push_back(std::move(*rec));
    return {};
  });
  if (!read) return tl::unexpected(read.error());
  return out;
}

}  // namespace kibitz::chess

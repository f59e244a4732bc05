#include "games/chess/pgn.hpp"

#include <fmt/format.h>

#include "games/chess/notation.hpp"

namespace kibitz::chess {

std::string result_string(const Position& p) {
  switch (p.outcome()) {
    case Outcome::kOngoing:
      return "*";
    case Outcome::kCheckmate:
      return p.side_to_move() == kWhite ? "0-1" : "1-0";
    default:
      return "1/2-1/2";
  }
}

std::string to_pgn(const PgnGame& game) {
  Position pos = game.start;
  std::vector<std::string> sans;
  sans.reserve(game.moves.size());
  for (Move m : game.moves) {
    sans.push_back(to_san(pos, m));
    pos.apply(m);
  }
  const std::string result = game.result.empty() ? result_string(pos) : game.result;

  std::vector<std::pair<std::string, std::string>> tags = {
      {"Event", "?"}, {"Site", "?"},  {"Date", "????.??.??"}, {"Round", "?"},
      {"White", "?"}, {"Black", "?"}, {"Result", result}};
  const bool custom_start = game.start.fen() != kStartFen;
  if (custom_start) {
    tags.emplace_back("SetUp", "1");
    tags.emplace_back("FEN", game.start.fen());
  }
  if (pos.outcome() != Outcome::kOngoing)
    tags.emplace_back("Termination", std::string(outcome_name(pos.outcome())));
  for (const auto& [k, v] : game.tags) {
    bool replaced = false;
    for (auto& t : tags)
      if (t.first == k) t.second = v, replaced = true;
    if (!replaced) tags.emplace_back(k, v);
  }

  std::string out;
  for (const auto& [k, v] : tags) {
    std::string escaped;
    for (char c : v) {
      if (c == '"' || c == '\\') escaped += '\\';
      escaped += c;
    }
    out += fmt::format("[{} \"{}\"]\n", k, escaped);
  }
  out += '\n';

  // Movetext, wrapped at 80 columns.
  std::string line;
  auto add = [&](const std::string& token) {
    if (!line.empty() && line.size() + 1 + token.size() > 80) {
      out += line + '\n';
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += token;
  };
  int number = game.start.fullmove_number();
  Color side = game.start.side_to_move();
  for (std::size_t i = 0; i < sans.size(); ++i) {
    if (side == kWhite)
      add(fmt::format("{}. {}", number, sans[i]));
    else if (i == 0)
      add(fmt::format("{}... {}", number, sans[i]));
    else
      add(sans[i]);
    if (side == kBlack) ++number;
    side = ~side;
  }
  add(result);
  out += line + '\n';
  return out;
}

}  // namespace kibitz::chess

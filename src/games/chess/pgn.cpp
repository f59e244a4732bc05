#include "games/chess/pgn.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

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

std::string to_pgn(const PgnGame& game) { return to_pgn(game, {}); }

std::string to_pgn(const PgnGame& game, const std::vector<std::string>& comments) {
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
    if (i < comments.size() && !comments[i].empty()) {
      std::string text = comments[i];
      for (char& c : text)
        if (c == '}' || c == '{' || c == '\n') c = ' ';
      add("{" + text + "}");
    }
    if (side == kBlack) ++number;
    side = ~side;
  }
  add(result);
  out += line + '\n';
  return out;
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

bool is_result_token(std::string_view t) {
  return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*";
}

// A parser over the whole text that keeps a line number for error messages.
class PgnReader {
 public:
  explicit PgnReader(std::string_view text) : text_(text) {}

  Result<std::vector<PgnGame>> run() {
    std::vector<PgnGame> games;
    skip_space();
    while (i_ < text_.size()) {
      auto game = read_game(games.size() + 1);
      if (!game) return tl::unexpected(game.error());
      games.push_back(std::move(*game));
      skip_space();
    }
    return games;
  }

 private:
  void skip_space() {
    while (i_ < text_.size()) {
      const char c = text_[i_];
      if (c == '\n') {
        ++line_;
        ++i_;
      } else if (is_space(c)) {
        ++i_;
      } else if (c == '%' && (i_ == 0 || text_[i_ - 1] == '\n')) {
        skip_to_eol();  // escape line
      } else if (c == ';') {
        skip_to_eol();  // rest-of-line comment
      } else {
        break;
      }
    }
  }
  void skip_to_eol() {
    while (i_ < text_.size() && text_[i_] != '\n') ++i_;
  }

  Result<std::pair<std::string, std::string>> read_tag() {
    ++i_;  // '['
    std::string name, value;
    while (i_ < text_.size() && !is_space(text_[i_]) && text_[i_] != '"' && text_[i_] != ']')
      name += text_[i_++];
    while (i_ < text_.size() && is_space(text_[i_]) && text_[i_] != '\n') ++i_;
    if (i_ >= text_.size() || text_[i_] != '"')
      return fail("line {}: tag [{}] has no quoted value", line_, name);
    ++i_;
    while (i_ < text_.size() && text_[i_] != '"') {
      if (text_[i_] == '\n') return fail("line {}: tag [{}] value runs past the line", line_, name);
      if (text_[i_] == '\\' && i_ + 1 < text_.size()) ++i_;
      value += text_[i_++];
    }
    if (i_ >= text_.size()) return fail("line {}: tag [{}] value is not closed", line_, name);
    ++i_;
    while (i_ < text_.size() && is_space(text_[i_]) && text_[i_] != '\n') ++i_;
    if (i_ >= text_.size() || text_[i_] != ']')
      return fail("line {}: tag [{}] is missing its ']'", line_, name);
    ++i_;
    if (name.empty()) return fail("line {}: tag without a name", line_);
    return std::make_pair(name, value);
  }

  Result<PgnGame> read_game(std::size_t number) {
    PgnGame game;
    const std::string where = fmt::format("game {}", number);
    while (i_ < text_.size() && text_[i_] == '[') {
      auto tag = read_tag();
      if (!tag) return with_context(tag.error(), where);
      if (tag->first == "FEN") {
        auto start = Position::from_fen(tag->second);
        if (!start) return with_context(start.error(), fmt::format("{}: [FEN]", where));
        game.start = *start;
      } else if (tag->first == "Result") {
        game.result = tag->second;
      } else if (tag->first != "SetUp") {
        game.tags.push_back(std::move(*tag));
      }
      skip_space();
    }
    // Movetext: the main line only. Stops at the result token, or at the next game's tags.
    Position pos = game.start;
    int depth = 0;  // variation nesting
    while (i_ < text_.size()) {
      skip_space();
      if (i_ >= text_.size()) break;
      const char c = text_[i_];
      if (c == '[' && depth == 0) break;  // a game without a result token
      if (c == '{') {
        const std::size_t close = text_.find('}', i_);
        if (close == std::string_view::npos)
          return fail("{}: line {}: comment is not closed", where, line_);
        for (std::size_t k = i_; k < close; ++k) line_ += text_[k] == '\n';
        i_ = close + 1;
        continue;
      }
      if (c == '(') {
        ++depth, ++i_;
        continue;
      }
      if (c == ')') {
        if (depth == 0) return fail("{}: line {}: ')' without '('", where, line_);
        --depth, ++i_;
        continue;
      }
      std::size_t end = i_;
      while (end < text_.size() && !is_space(text_[end]) && text_[end] != '{' &&
             text_[end] != '(' && text_[end] != ')' && text_[end] != ';')
        ++end;
      std::string_view token = text_.substr(i_, end - i_);
      i_ = end;
      if (depth > 0 || token.empty() || token[0] == '$') continue;
      if (is_result_token(token)) {
        if (game.result.empty()) game.result = std::string(token);
        break;
      }
      // Move numbers ("12." "12..." or "12.e4" glued to the move).
      std::size_t k = 0;
      while (k < token.size() && token[k] >= '0' && token[k] <= '9') ++k;
      if (k > 0 && k < token.size() && token[k] == '.') {
        while (k < token.size() && token[k] == '.') ++k;
        token.remove_prefix(k);
      } else if (k == token.size()) {
        continue;  // a bare number
      }
      if (token.empty() || token.find_first_not_of('.') == std::string_view::npos) continue;
      // Annotation glyphs glued to the move (e4!?) are not part of SAN.
      while (!token.empty() && (token.back() == '!' || token.back() == '?')) token.remove_suffix(1);
      auto move = parse_san(pos, token);
      if (!move)
        return fail("{}: line {}: move {} '{}': {}", where, line_, game.moves.size() + 1, token,
                    move.error().message);
      game.moves.push_back(*move);
      pos.apply(*move);
    }
    if (game.result.empty()) game.result.push_back('*');  // (= "*" trips GCC 12's -Wrestrict)
    return game;
  }

  std::string_view text_;
  std::size_t i_ = 0;
  std::size_t line_ = 1;
};

}  // namespace

Result<std::vector<PgnGame>> parse_pgn(std::string_view text) { return PgnReader(text).run(); }

Result<std::vector<PgnGame>> load_pgn_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot read '{}'", path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  auto games = parse_pgn(buffer.str());
  if (!games) return with_context(games.error(), path);
  return games;
}

}  // namespace kibitz::chess

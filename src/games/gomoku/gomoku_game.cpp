#include "games/gomoku/gomoku_game.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "api/game_state.hpp"
#include "games/gomoku/position.hpp"

namespace kibitz::gomoku {

namespace {

class GomokuState final : public GameState<GomokuState, Position> {
 public:
  using GameState::GameState;
  std::string move_text(Move m) const { return to_text(m); }
  Result<Move> parse(std::string_view text) const {
    if (pos_.is_terminal()) return fail("move '{}': the game is over", text);
    auto m = parse_move(pos_, text);
    if (!m) return tl::unexpected(m.error());
    if (!pos_.is_legal(*m))
      return fail("move '{}' is not legal (forbidden under {})", text, rule_name(pos_.rule()));
    return *m;
  }
  void play(Move m) {
    pos_.apply(m);
    moves_.push_back(m);
  }
  // x + size y: a1 is 0, b1 is 1, a2 is the size.
  int num_actions() const { return pos_.size() * pos_.size(); }
  int action_of(Move m) const { return x_of(m.sq) + pos_.size() * y_of(m.sq); }
  std::string action_text(int a) const {
    return to_text(Move{static_cast<std::uint16_t>(square_of(a % pos_.size(), a / pos_.size()))});
  }
  // Planes [3][size][size] indexed by [plane][y][x] (a1 at [0][0]): the player's stones, the
  // other player's, and ones where the player is to move.
  std::vector<int> observation_layout() const { return {3, pos_.size(), pos_.size()}; }
  void observe(int player, std::span<float> out) const {
    observe_board(
        pos_.size(), 3, player, pos_.current_player() == player,
        [&](int x, int y) { return static_cast<int>(pos_.stone(square_of(x, y))); }, out);
  }
  // A ply places a stone and the board holds size² of them. Under the capture rule each side
  // also loses at most 8 captured stones before the other's winning capture (10 win).
  int max_game_length() const override {
    const int points = pos_.size() * pos_.size();
    return pos_.rule() == Rule::kCapture ? points + 2 * (Position::kCaptureWin - 2) : points;
  }
  std::string to_string() const override {
    std::string out;
    if (pos_.variant() != Variant{})
      out = fmt::format("{} {}", rule_name(pos_.rule()), pos_.size());
    const auto word = [&out](std::string_view w) {
      if (!out.empty()) out += ' ';
      out += w;
    };
    for (std::size_t i = 0; i < setup_.size(); ++i)
      word(fmt::format("{}:{}", setup_colour_[i] ? 'w' : 'b', to_text(setup_[i])));
    for (Move m : moves_) word(to_text(m));
    return out;
  }
  // The stones placed before the moves (the text's colour-prefixed words).
  void set_setup(std::vector<Move> stones, std::vector<bool> white) {
    setup_ = std::move(stones);
    setup_colour_ = std::move(white);
  }

 private:
  std::vector<Move> setup_;
  std::vector<bool> setup_colour_;
  std::vector<Move> moves_;
};

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

Result<std::unique_ptr<GomokuState>> parse_state(std::string_view text) {
  std::vector<std::string_view> tokens;
  for (std::size_t i = 0; i < text.size();) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) ++i;
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != '\n') ++j;
    if (j > i) tokens.push_back(text.substr(i, j - i));
    i = j;
  }
  Variant v;
  bool have_rule = false, have_size = false;
  std::size_t first_move = 0;
  for (; first_move < tokens.size(); ++first_move) {
    const std::string_view t = tokens[first_move];
    if (!have_rule && !have_size) {
      if (auto r = parse_rule(t)) {
        v.rule = *r;
        have_rule = true;
        continue;
      }
    }
    if (!have_size && all_digits(t) && t.size() <= 2) {
      v.size = (t[0] - '0') * (t.size() == 2 ? 10 : 1) + (t.size() == 2 ? t[1] - '0' : 0);
      if (v.size < 15 || v.size > kMaxSize)
        return fail("gomoku board size {} is not supported (15 to {})", v.size, kMaxSize);
      have_size = true;
      continue;
    }
    break;
  }
  if (!have_size && v.rule == Rule::kCapture) v.size = 19;
  // Stones placed without an order ("b:h8 w:h9": a position from a board, as Gomocup's BOARD
  // gives it), with no rule checked while placing; black to move when the colours are even.
  std::vector<std::pair<int, int>> black, white;
  std::vector<Move> setup;
  std::vector<bool> setup_white;
  const Position empty(v);
  for (; first_move < tokens.size(); ++first_move) {
    const std::string_view t = tokens[first_move];
    if (t.size() < 3 || t[1] != ':') break;
    const char c = static_cast<char>(t[0] | 0x20);
    if (c != 'b' && c != 'w') break;
    auto m = parse_move(empty, t.substr(2));
    if (!m) return with_context(m.error(), fmt::format("gomoku position, stone '{}'", t));
    (c == 'b' ? black : white).emplace_back(x_of(m->sq), y_of(m->sq));
    setup.push_back(*m);
    setup_white.push_back(c == 'w');
  }
  std::unique_ptr<GomokuState> state;
  if (setup.empty()) {
    state = std::make_unique<GomokuState>(empty);
  } else {
    if (black.size() != white.size() && black.size() != white.size() + 1)
      return fail("gomoku position: {} black and {} white stones cannot be a position",
                  black.size(), white.size());
    auto p = Position::from_setup(v, black, white, black.size() == white.size() ? 0 : 1);
    if (!p) return with_context(p.error(), "gomoku position");
    state = std::make_unique<GomokuState>(*p);
    state->set_setup(std::move(setup), std::move(setup_white));
  }
  if (auto r = apply_move_words(*state, std::span(tokens).subspan(first_move), "gomoku"); !r)
    return tl::unexpected(r.error());
  return state;
}

}  // namespace

Result<std::unique_ptr<AnyState>> new_any_state(std::string_view text) {
  return as_any_state(parse_state(text));
}

Result<Position> parse_position_text(std::string_view text) {
  return as_position(parse_state(text));
}

}  // namespace kibitz::gomoku

#include "games/go/go_game.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <memory>
#include <optional>
#include <vector>

#include "api/game_state.hpp"
#include "core/text.hpp"
#include "games/go/board.hpp"

namespace kibitz::go {

namespace {

class GoState final : public GameState<GoState, Position> {
 public:
  using GameState::GameState;
  std::string move_text(Move m) const { return to_vertex(m, pos_.size()); }
  // A move of the side to move.
  Result<Move> parse(std::string_view text) const {
    if (pos_.is_terminal()) return fail("move '{}': the game is over", text);
    auto m = parse_vertex(text, pos_.size());
    if (!m) return tl::unexpected(m.error());
    if (m->is_resign()) return fail("move '{}': resigning is not a move here", text);
    if (!pos_.is_legal(*m)) return fail("move '{}' is not legal here", text);
    return *m;
  }
  void play(Move m) {
    pos_.apply(m);
    moves_.push_back({m, std::nullopt});
  }
  // x + size y (a1 is 0, the columns skipping i as on the board), pass the last.
  int num_actions() const { return pos_.size() * pos_.size() + 1; }
  int action_of(Move m) const {
    return m.is_pass() ? pos_.size() * pos_.size() : x_of(m.sq) + pos_.size() * y_of(m.sq);
  }
  std::string action_text(int a) const {
    const int n = pos_.size();
    return to_vertex(a == n * n ? Move::pass() : Move::at(a % n, a / n), n);
  }
  // Planes [4][size][size] indexed by [plane][y][x] (A1 at [0][0]): the player's stones, the
  // other player's, the ko point the side to move may not retake, and ones where the player
  // is to move.
  std::vector<int> observation_layout() const { return {4, pos_.size(), pos_.size()}; }
  void observe(int player, std::span<float> out) const {
    const int n = pos_.size();
    observe_board(
        n, 4, player, pos_.current_player() == player,
        [&](int x, int y) { return static_cast<int>(pos_.at(point_of(x, y))); }, out);
    if (const int ko = pos_.ko_point())
      out[static_cast<std::size_t>(2 * n * n + x_of(ko) + n * y_of(ko))] = 1;
  }
  // A move, or "B:d4" / "W:pass": that colour plays, whoever was to move (two moves of one
  // colour in a row: handicap stones played as moves, an SGF main line).
  Result<void> apply(std::string_view text) override {
    if (pos_.is_terminal()) return fail("move '{}': the game is over", text);
    std::string_view vertex = text;
    Color colour = pos_.to_move();
    if (text.size() > 2 && text[1] == ':') {
      const char c = static_cast<char>(text[0] | 0x20);
      if (c != 'b' && c != 'w') return fail("move '{}': the colour is B or W", text);
      colour = c == 'b' ? kBlack : kWhite;
      vertex = text.substr(2);
    }
    auto m = parse_vertex(vertex, pos_.size());
    if (!m) return tl::unexpected(m.error());
    const bool out_of_turn = colour != pos_.to_move();
    const Color before = pos_.to_move();
    if (out_of_turn) pos_.set_to_move(colour);
    if (auto r = pos_.play(*m); !r) {
      if (out_of_turn) pos_.set_to_move(before);
      return r;
    }
    moves_.push_back({*m, out_of_turn ? std::optional<Color>(colour) : std::nullopt});
    record_action(*m);
    return {};
  }
  // The rules' move cap (passes count): 3 × size², at most 1,023, unless the rules set one.
  int max_game_length() const override { return pos_.max_moves(); }
  std::string to_string() const override {
    std::string out = fmt::format("{} komi {}", pos_.size(), pos_.komi());
    for (const auto& [m, colour] : moves_) {
      out += ' ';
      if (colour) out += *colour == kBlack ? "B:" : "W:";
      out += to_vertex(m, pos_.size());
    }
    return out;
  }
  // The moves with their colours: a move without one was played by the side to move, which
  // is black at the start and the other colour after each move.
  GameRecord record() const {
    GameRecord r;
    r.size = pos_.size();
    r.komi = pos_.komi();
    Color next = kBlack;
    for (const auto& [m, colour] : moves_) {
      const Color c = colour ? *colour : next;
      r.moves.emplace_back(c, m);
      next = c == kBlack ? kWhite : kBlack;
    }
    return r;
  }

 private:
  std::vector<std::pair<Move, std::optional<Color>>> moves_;  // the colour when out of turn
};

Result<std::unique_ptr<GoState>> parse_state(std::string_view text) {
  const auto tokens = split_blanks(text);
  Rules rules;
  std::size_t i = 0;
  if (i < tokens.size() && !tokens[i].empty() && tokens[i][0] >= '0' && tokens[i][0] <= '9') {
    const std::string_view t = tokens[i];
    int size = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), size);
    if (ec != std::errc{} || end != t.data() + t.size() || size < kMinSize || size > kMaxSize)
      return fail("go board size '{}' is not supported ({} to {})", t, kMinSize, kMaxSize);
    rules.size = size;
    ++i;
  }
  if (i < tokens.size() && tokens[i] == "komi") {
    if (i + 1 >= tokens.size()) return fail("go position: 'komi' needs a value");
    const std::string_view t = tokens[i + 1];
    double komi = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), komi);
    if (ec != std::errc{} || end != t.data() + t.size() || komi < -1000 || komi > 1000)
      return fail("go position: komi '{}' is not a number", t);
    rules.komi = komi;
    i += 2;
  }
  auto state = std::make_unique<GoState>(Position(rules));
  if (auto r = apply_move_words(*state, std::span(tokens).subspan(i), "go"); !r)
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

Result<GameRecord> parse_record_text(std::string_view text) {
  auto s = parse_state(text);
  if (!s) return tl::unexpected(s.error());
  return (*s)->record();
}

}  // namespace kibitz::go

#include "games/chess/chess_game.hpp"

#include "api/game_state.hpp"
#include "core/text.hpp"
#include "games/chess/notation.hpp"
#include "games/chess/position.hpp"

namespace kibitz::chess {

namespace {

class ChessState final : public GameState<ChessState, Position> {
 public:
  using GameState::GameState;
  std::string move_text(Move m) const { return to_uci(m); }
  Result<void> apply(std::string_view text) override {
    // UCI first ("e2e4"), then SAN ("e4"); report the error of the notation it looks like.
    auto m = parse_uci(pos_, text);
    if (!m) {
      const bool looks_uci = text.size() >= 4 && parse_square(text.substr(0, 2)).has_value();
      if (!looks_uci) m = parse_san(pos_, text);
    }
    if (!m) return tl::unexpected(m.error());
    pos_.apply(*m);
    return {};
  }
  std::string to_string() const override { return pos_.fen(); }
};

Result<std::unique_ptr<ChessState>> parse_state(std::string_view text) {
  const auto at = text.find("moves");
  std::string_view fen = trim(text.substr(0, at));
  if (fen == "startpos") fen = "";
  auto p = fen.empty() ? Result<Position>(Position()) : Position::from_fen(fen);
  if (!p) return tl::unexpected(p.error());
  auto state = std::make_unique<ChessState>(*p);
  if (at != std::string_view::npos)
    if (auto r = apply_move_words(*state, split_blanks(text.substr(at + 5)), "chess"); !r)
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

}  // namespace kibitz::chess

#include "games/chess/chess_game.hpp"

#include "api/game_state.hpp"
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

}  // namespace

Result<std::unique_ptr<AnyState>> new_any_state(std::string_view fen) {
  auto p = fen.empty() ? Result<Position>(Position()) : Position::from_fen(fen);
  if (!p) return tl::unexpected(p.error());
  return std::unique_ptr<AnyState>(std::make_unique<ChessState>(*p));
}

}  // namespace kibitz::chess

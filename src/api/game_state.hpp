#pragma once
// What every AnyState over a Game-concept position shares. A game's state class derives from
// GameState<Self, Position> and adds apply(), to_string() and move_text(move) (the notation
// legal_moves() writes).
#include <fmt/format.h>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "api/any_state.hpp"
#include "api/concepts.hpp"

namespace kibitz {

template <class Derived, Game G>
class GameState : public AnyState {
 public:
  explicit GameState(G pos) : pos_(std::move(pos)) {}
  std::unique_ptr<AnyState> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
  int current_player() const override { return pos_.current_player(); }
  bool is_terminal() const override { return pos_.is_terminal(); }
  std::vector<double> returns() const override {
    const auto r = pos_.returns();
    return {r.begin(), r.end()};
  }
  std::vector<std::string> legal_moves() const override {
    MoveList<G> moves;
    pos_.legal_moves(moves);
    std::vector<std::string> out;
    out.reserve(moves.size());
    for (const auto m : moves) out.push_back(static_cast<const Derived&>(*this).move_text(m));
    return out;
  }
  std::uint64_t hash() const override { return pos_.hash(); }
  const G& position() const { return pos_; }

 protected:
  G pos_;
};

// Plays a position text's move words on `state` (its apply()), an error naming the game and
// the word's number ("go position, move 3: ...").
template <class S>
Result<void> apply_move_words(S& state, std::span<const std::string_view> words,
                              std::string_view game) {
  for (std::size_t i = 0; i < words.size(); ++i)
    if (auto r = state.apply(words[i]); !r)
      return with_context(r.error(), fmt::format("{} position, move {}", game, i + 1));
  return {};
}

// The two public faces of a parsed position text: as an AnyState, and as the game's own
// position (what its engine searches).
template <class S>
Result<std::unique_ptr<AnyState>> as_any_state(Result<std::unique_ptr<S>> s) {
  if (!s) return tl::unexpected(s.error());
  return std::unique_ptr<AnyState>(std::move(*s));
}
template <class S>
auto as_position(Result<std::unique_ptr<S>> s)
    -> Result<std::remove_cvref_t<decltype((*s)->position())>> {
  if (!s) return tl::unexpected(s.error());
  return (*s)->position();
}

}  // namespace kibitz

#pragma once
// What every AnyState over a Game-concept position shares. A game's state class derives from
// GameState<Self, Position> and adds to_string() and:
//   std::string move_text(Move) const            the notation legal_moves() writes
//   Result<Move> parse(std::string_view) const   a move text to a legal move, or why not
//   void play(Move)                              plays a legal move (and records it)
//   int num_actions() const                      how many numbered actions the game has
//   int action_of(Move) const                    a move's number, position-independent
//   std::string action_text(int) const           an action's move text, any position
// apply(text) is parse() then play(); a game that takes more (Go's "B:d4") overrides it.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "api/any_state.hpp"
#include "api/concepts.hpp"
#include "core/rng.hpp"

namespace kibitz {

template <class Derived, Game G>
class GameState : public AnyState {
 public:
  explicit GameState(G pos) : pos_(std::move(pos)) {}
  std::unique_ptr<AnyState> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }
  // kTerminalPlayer once the game is over, whatever the position says (chess keeps its side).
  int current_player() const override {
    return pos_.is_terminal() ? kTerminalPlayer : pos_.current_player();
  }
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

  Result<void> apply(std::string_view text) override {
    auto m = self().parse(text);
    if (!m) return tl::unexpected(m.error());
    play_recorded(*m);
    return {};
  }
  std::vector<int> history() const override { return history_; }
  int num_distinct_actions() const override { return self().num_actions(); }
  std::vector<int> legal_actions() const override {
    MoveList<G> moves;
    if (!pos_.is_terminal()) pos_.legal_moves(moves);
    std::vector<int> out;
    out.reserve(moves.size());
    for (const auto m : moves) out.push_back(self().action_of(m));
    return out;
  }
  Result<void> apply_action(int action) override {
    if (action < 0 || action >= self().num_actions())
      return fail("action {} is outside 0..{}", action, self().num_actions() - 1);
    if (pos_.is_terminal()) return fail("action {}: the game is over", action);
    MoveList<G> moves;
    pos_.legal_moves(moves);
    for (const auto m : moves)
      if (self().action_of(m) == action) {
        play_recorded(m);
        return {};
      }
    return fail("action {} ({}) is not legal here", action, self().action_text(action));
  }
  Result<std::string> action_to_string(int action) const override {
    if (action < 0 || action >= self().num_actions())
      return fail("action {} is outside 0..{}", action, self().num_actions() - 1);
    return self().action_text(action);
  }
  Result<int> string_to_action(std::string_view text) const override {
    auto m = self().parse(text);
    if (!m) return tl::unexpected(m.error());
    return self().action_of(*m);
  }
  // A game's observation, where its state class has one: observation_layout() (the shape)
  // and observe(player, out); information(player) where a player does not see everything.
  std::vector<int> observation_shape() const override {
    if constexpr (requires(const Derived& d) { d.observation_layout(); })
      return self().observation_layout();
    else
      return {};
  }
  void observation_tensor(int player, std::span<float> out) const override {
    if constexpr (requires(const Derived& d) { d.observe(player, out); })
      self().observe(player, out);
  }
  std::string information_state_string(int player) const override {
    if constexpr (requires(const Derived& d) { d.information(player); })
      return self().information(player);
    else
      return this->serialize();
  }
  int play_random(std::uint64_t seed, int max_plies) override {
    Rng rng(seed);
    MoveList<G> moves;
    int plies = 0;
    while (plies < max_plies && !pos_.is_terminal()) {
      moves.clear();
      pos_.legal_moves(moves);
      if (moves.size() == 0) break;
      play_recorded(moves[static_cast<std::size_t>(rng.below(moves.size()))]);
      ++plies;
    }
    return plies;
  }

 protected:
  // A move played by a game's own apply() (Go's "B:d4"), kept in the history.
  void record_action(typename G::Move m) { history_.push_back(self().action_of(m)); }
  // Plays a legal move through the game's play() and keeps its action in the history.
  void play_recorded(typename G::Move m) {
    self().play(m);
    history_.push_back(self().action_of(m));
  }

  G pos_;

 private:
  std::vector<int> history_;
  Derived& self() { return static_cast<Derived&>(*this); }
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

// The planes a board game's observation starts from, [planes][n][n] indexed by [plane][y][x]:
// the player's stones (plane 0), the other player's (1) and, in the last plane, ones where
// the player is to move; the planes between are left 0. colour_at(x, y) is the colour there
// (0 or 1; anything else: empty).
template <class ColourAt>
void observe_board(int n, int planes, int player, bool to_move, ColourAt colour_at,
                   std::span<float> out) {
  const int area = n * n;
  std::fill(out.begin(), out.end(), 0.0f);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      const int i = x + n * y;
      const int c = colour_at(x, y);
      if (c == 0 || c == 1) out[static_cast<std::size_t>((c == player ? 0 : 1) * area + i)] = 1;
      if (to_move) out[static_cast<std::size_t>((planes - 1) * area + i)] = 1;
    }
}

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

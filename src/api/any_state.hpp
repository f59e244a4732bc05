#pragma once
// A game state behind a virtual interface for the coarse boundaries (CLI, match, bindings): one
// virtual call per command, never inside a search. Each game's entry in the registry
// (games/registry.hpp) makes them.
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace kibitz {

// A game state behind a virtual interface; moves travel as their standard notation.
class AnyState {
 public:
  virtual ~AnyState() = default;
  virtual std::unique_ptr<AnyState> clone() const = 0;
  virtual int current_player() const = 0;
  virtual bool is_terminal() const = 0;
  virtual std::vector<double> returns() const = 0;
  virtual std::vector<std::string> legal_moves() const = 0;
  // Applies a move written in the game's notation; an error names the move and why.
  virtual Result<void> apply(std::string_view move) = 0;
  virtual std::uint64_t hash() const = 0;
  virtual std::string to_string() const = 0;  // the game's standard position text
  // A text that reads back (through the game's StateFactory) to this state with its history:
  // to_string() where that keeps the moves; chess adds them to the FEN it started from.
  virtual std::string serialize() const { return to_string(); }
  // The actions of the moves played, those of the position text's move list included (not
  // setup stones); numbered as below, empty where the game has no numbered actions.
  virtual std::vector<int> history() const { return {}; }
  // An upper bound on the plies of a game under these rules, chance outcomes not counted
  // (OpenSpiel's MaxGameLength); 0: the game knows none.
  virtual int max_game_length() const { return 0; }

  // Moves as numbers (the Python bindings' actions): each move of the game has one in
  // [0, num_distinct_actions()), the same in every position (docs/python.md lists them per
  // game). 0: the game has none, and the calls below fail.
  virtual int num_distinct_actions() const { return 0; }
  virtual std::vector<int> legal_actions() const { return {}; }
  virtual Result<void> apply_action(int action) {
    return fail("action {}: this game has no numbered actions", action);
  }
  // The move's text for any action in range, legal here or not; the action of a move text.
  virtual Result<std::string> action_to_string(int action) const {
    return fail("action {}: this game has no numbered actions", action);
  }
  virtual Result<int> string_to_action(std::string_view move) const {
    return fail("move '{}': this game has no numbered actions", move);
  }
  // What `player` observes, as floats in the game's fixed layout (docs/python.md gives each):
  // the shape, and the values written into `out`, whose size is the shape's product. An
  // empty shape: the game has none.
  virtual std::vector<int> observation_shape() const { return {}; }
  virtual void observation_tensor(int /*player*/, std::span<float> /*out*/) const {}
  // What `player` knows, as text: serialize() where every player sees everything.
  virtual std::string information_state_string(int /*player*/) const { return serialize(); }
  // Plays uniformly random legal moves (seeded) until the game ends or max_plies have been
  // played; returns the plies played. Stops early where no move is left.
  virtual int play_random(std::uint64_t seed, int max_plies) = 0;
};

// Makes a game's starting position from its position text ("" = the standard start); the
// error is one line naming what is wrong with the text.
using StateFactory = std::function<Result<std::unique_ptr<AnyState>>(std::string_view)>;

}  // namespace kibitz

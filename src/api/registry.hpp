#pragma once
// Type-erased games for the coarse boundaries (CLI, match, bindings): one virtual call per
// command, never inside a search. Games are registered explicitly by register_builtin_games().
#include <cstdint>
#include <functional>
#include <memory>
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
};

struct GameEntry {
  std::string name;
  std::string summary;
  int num_players;
  // Starting position from the game's position text; empty text = the standard start.
  std::function<Result<std::unique_ptr<AnyState>>(std::string_view)> new_state;
};

class Registry {
 public:
  void add(GameEntry entry);
  const GameEntry* find(std::string_view name) const;
  const std::vector<GameEntry>& games() const { return games_; }

 private:
  std::vector<GameEntry> games_;
};

// Defined in games/register_builtin.cpp: adds every game this build has.
void register_builtin_games(Registry& registry);

}  // namespace kibitz

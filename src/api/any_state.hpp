#pragma once
// A game state behind a virtual interface for the coarse boundaries (CLI, match, bindings): one
// virtual call per command, never inside a search. Each game's entry in the registry
// (games/registry.hpp) makes them.
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

// Makes a game's starting position from its position text ("" = the standard start); the
// error is one line naming what is wrong with the text.
using StateFactory = std::function<Result<std::unique_ptr<AnyState>>(std::string_view)>;

}  // namespace kibitz

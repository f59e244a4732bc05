#pragma once
// A generic MCTS search of a position text (the Python module's kibitz.mcts()): what is asked,
// what comes back, and the games that offer it (GameEntry::mcts). The search is
// engine/generic_mcts.hpp, instantiated in each game's engine file beside its other searches,
// where the game's search hooks are in view (an instantiation without them would be another
// Mcts<G>, and the linker could keep either).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"

namespace kibitz::engine {

struct MctsRequest {
  std::uint64_t playouts = 1000;  // 0: none (then movetime_ms must be given)
  std::int64_t movetime_ms = 0;   // 0: none
  bool puct = true;               // PUCT with the game's priors; false: UCT
  double c = 1.0;                 // c_puct, or c_uct for UCT
  bool rave = true;
  std::uint64_t seed = 1;
};

struct MctsAnswer {
  struct Child {
    std::string move;
    std::uint64_t visits = 0;
    double value = 0.5;  // mean result for the player at the root, 0..1
    double prior = 0;
  };
  std::string move;  // most visited
  double value = 0.5;
  std::vector<std::string> pv;
  std::vector<Child> moves;  // every root child, most visited first
  std::uint64_t playouts = 0;
  std::int64_t time_ms = 0;
  double uncertainty = 1;
};

Result<MctsAnswer> chess_mcts(std::string_view text, const MctsRequest& r);
Result<MctsAnswer> gomoku_mcts(std::string_view text, const MctsRequest& r);
Result<MctsAnswer> go_mcts(std::string_view text, const MctsRequest& r);

}  // namespace kibitz::engine

#pragma once
// A player of `kibitz match`, from one --engine string of KEY=VALUE words:
//   name=NAME  cmd=PROGRAM ARGS...  bot=NAME  proto=uci|gtp|gomocup  dir=DIR  stderr=show
//   option.NAME=VALUE  option-file=FILE  tc=40/60+0.5  movetime=MS  nodes=N  depth=D
// (option-file: a YAML file's options: map, as if each were an option.NAME=VALUE there)
// Words are split like a shell does (quotes, backslash); the words after cmd= that are not
// KEY=VALUE with a known key are the program's arguments (arg=WORD adds one verbatim).
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "match/time_control.hpp"

namespace kibitz::engine {
class AnyEngine;
}

namespace kibitz::match {

// An engine the program that embeds the library supplies (kibitz.run_match: a Python
// callable), made once for each seat that plays it.
using EngineMaker = std::function<std::unique_ptr<engine::AnyEngine>()>;

struct PlayerSpec {
  std::string name;
  std::vector<std::string> command;  // an external engine (argv)
  std::string bot;                   // or an in-process Kibitz bot
  std::string protocol;              // empty: the game's own (uci, gtp, gomocup)
  std::string workdir;
  bool show_stderr = false;
  std::vector<std::pair<std::string, std::string>> options;  // option.NAME=VALUE, in order
  MoveLimits limits;                                         // empty: the match's limits
  // Or an embedded player (chess, gomoku and Go only): the game's bot seat drives the engine
  // it makes with the game's position text, as it drives Kibitz's own bots.
  EngineMaker embedded;
  bool external() const { return !command.empty(); }
  bool is_embedded() const { return static_cast<bool>(embedded); }
  std::string describe() const;  // "sf (cmd=stockfish option.Hash=16)"
};

// Shell-like word splitting: spaces separate, '...' and "..." quote, backslash escapes.
Result<std::vector<std::string>> split_words(std::string_view text);

Result<PlayerSpec> parse_player_spec(std::string_view text);

}  // namespace kibitz::match

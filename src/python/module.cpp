// The Python module `kibitz` (its compiled part, `kibitz._kibitz`): the games of the registry
// behind an OpenSpiel-like interface. One call crosses into C++ per command; the loops that
// need speed (random games) run in C++ with the GIL released. Errors are KibitzError (a
// ValueError) carrying the one-line message. See docs/python.md.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "engine/any_engine.hpp"
#include "games/registry.hpp"

namespace py = pybind11;

namespace kibitz::python {
namespace {

// Thrown here, raised in Python as kibitz.KibitzError.
class KibitzError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class T>
T value_or_raise(Result<T> r) {
  if (!r) throw KibitzError(r.error().message);
  return std::move(*r);
}
void ok_or_raise(const Result<void>& r) {
  if (!r) throw KibitzError(r.error().message);
}

// A game with its parameters: the head of every position text it makes.
class Game {
 public:
  // words: per position parameter of the entry, its text ("" where not given); seed_param:
  // the index of a parameter named "seed" that was not given (-1: none), which
  // random_games() draws anew for each game (Hearts' deal).
  Game(const GameEntry& entry, std::vector<std::string> words, int seed_param, py::dict params)
      : entry_(&entry),
        words_(std::move(words)),
        seed_param_(seed_param),
        params_(std::move(params)) {
    num_actions_ = value_or_raise(entry_->new_state(head()))->num_distinct_actions();
  }
  const GameEntry& entry() const { return *entry_; }
  // The head of the start's text; with a seed, that seed for the unfixed seed parameter.
  std::string head(std::optional<std::uint64_t> seed = std::nullopt) const {
    std::string out;
    for (std::size_t i = 0; i < words_.size(); ++i) {
      std::string word = words_[i];
      if (seed && static_cast<int>(i) == seed_param_) {
        word = entry_->position_params[i].format;
        word.replace(word.find("{}"), 2, std::to_string(*seed));
      }
      if (!word.empty()) out += (out.empty() ? "" : " ") + word;
    }
    return out;
  }
  bool draws_seed() const { return seed_param_ >= 0; }
  py::dict params() const { return params_; }
  int num_actions() const { return num_actions_; }
  std::unique_ptr<AnyState> make(const std::string& text) const {
    return value_or_raise(entry_->new_state(text));
  }

 private:
  const GameEntry* entry_;
  std::vector<std::string> words_;
  int seed_param_ = -1;
  py::dict params_;
  int num_actions_ = 0;
};

class State {
 public:
  State(std::shared_ptr<Game> game, std::unique_ptr<AnyState> s)
      : game_(std::move(game)), s_(std::move(s)) {}
  const std::shared_ptr<Game>& game() const { return game_; }
  AnyState& state() { return *s_; }
  const AnyState& state() const { return *s_; }
  State clone() const { return State(game_, s_->clone()); }

 private:
  std::shared_ptr<Game> game_;
  std::unique_ptr<AnyState> s_;
};

// A game's engine (the one contract, engine/any_engine.hpp) for Python: the search of each
// game (chess's and gomoku's alpha-beta, Go's MCTS, Hearts' sampled-world search) with its
// options, run on the engine's thread while the GIL is released.
class Engine {
 public:
  explicit Engine(std::shared_ptr<Game> game) : game_(std::move(game)) {
    if (!game_->entry().engine) throw KibitzError(game_->entry().name + " has no engine");
    engine_ = game_->entry().engine();
  }
  engine::AnyEngine& get() { return *engine_; }
  const std::shared_ptr<Game>& game() const { return game_; }

 private:
  std::shared_ptr<Game> game_;
  std::unique_ptr<engine::AnyEngine> engine_;
};

py::dict report_dict(const engine::EngineReport& r, const AnyState& state) {
  py::dict out;
  out["move"] = r.move;
  const auto action = state.string_to_action(r.move);
  out["action"] = action ? py::object(py::int_(*action)) : py::object(py::none());
  out["score"] = r.score;
  out["decided"] = r.decided;
  out["pv"] = r.pv;
  out["depth"] = r.depth;
  out["seldepth"] = r.seldepth;
  out["nodes"] = r.nodes;
  out["time_ms"] = r.time_ms;
  out["how"] = r.how;
  py::list lines;
  for (const auto& l : r.lines) {
    py::dict d;
    d["move"] = l.move;
    d["visits"] = l.visits;
    d["value"] = l.value;
    d["prior"] = l.prior;
    d["pv"] = l.pv;
    d["expected"] = l.expected;
    d["variance"] = l.variance;
    d["marks"] = l.marks;
    d["note"] = l.note;
    lines.append(d);
  }
  out["lines"] = lines;
  py::dict stats;
  stats["playouts"] = r.playouts;
  stats["uncertainty"] = r.uncertainty;
  stats["worlds"] = r.worlds;
  stats["over_budget"] = r.over_budget;
  stats["nodes_per_depth"] = r.nodes_per_depth;
  out["stats"] = stats;
  return out;
}

py::dict engine_search(Engine& e, const State& s, std::int64_t movetime_ms, std::uint64_t nodes,
                       int depth, const std::vector<std::string>& searchmoves) {
  if (s.game()->entry().name != e.game()->entry().name)
    throw KibitzError("a " + s.game()->entry().name + " state given to the " +
                      e.game()->entry().name + " engine");
  if (s.state().is_terminal()) throw KibitzError("search: the game is over");
  if (movetime_ms < 0) throw KibitzError("search: movetime_ms must be 0 or more");
  engine::EngineLimits limits;
  limits.movetime_ms = movetime_ms;
  limits.nodes = nodes;
  limits.depth = depth;
  limits.searchmoves = searchmoves;
  const std::string text = s.state().serialize();
  Result<engine::EngineReport> r = fail("search: no answer");
  {
    py::gil_scoped_release release;
    if (auto set = e.get().set_position(text); !set) {
      r = tl::unexpected(set.error());
    } else {
      r = e.get().think(limits);
    }
  }
  return report_dict(value_or_raise(std::move(r)), s.state());
}

// A Python value as the position text writes it (True / False as the words).
std::string param_text(const py::handle& v);

// A new engine of the game with options given as keywords.
std::unique_ptr<Engine> make_engine(const std::shared_ptr<Game>& g, const py::kwargs& options) {
  auto e = std::make_unique<Engine>(g);
  for (const auto& [k, v] : options)
    ok_or_raise(e->get().set_option(k.cast<std::string>(), param_text(v)));
  return e;
}

// A Python value as the position text writes it (True / False as the words).
std::string param_text(const py::handle& v) {
  if (py::isinstance<py::bool_>(v)) return v.cast<bool>() ? "true" : "false";
  return py::str(v).cast<std::string>();
}

std::shared_ptr<Game> load_game(const std::string& name, const py::kwargs& kwargs) {
  const GameEntry* entry = builtin_registry().find(name);
  if (!entry) throw KibitzError("unknown game '" + name + "' (kibitz.games() lists them)");
  if (!entry->new_state)
    throw KibitzError(name +
                      ": its moves are simultaneous; the bindings do not have its state yet");
  std::string takes;
  std::vector<std::string> words;
  int seed_param = -1;
  py::dict params;
  for (const auto& p : entry->position_params) {
    takes += (takes.empty() ? "" : ", ") + p.name;
    words.emplace_back();
    if (!kwargs.contains(p.name.c_str())) {
      if (p.name == "seed") seed_param = static_cast<int>(words.size()) - 1;
      continue;
    }
    const py::handle v = kwargs[p.name.c_str()];
    params[p.name.c_str()] = v;
    words.back() = p.format;
    words.back().replace(words.back().find("{}"), 2, param_text(v));
  }
  for (const auto& [key, value] : kwargs) {
    const auto k = key.cast<std::string>();
    if (!params.contains(k.c_str()))
      throw KibitzError(name + ": unknown parameter '" + k + "' (it takes " +
                        (takes.empty() ? std::string("none") : takes) + ")");
  }
  return std::make_shared<Game>(*entry, std::move(words), seed_param, params);
}

// Plays `n` random games from the game's start, seeds seed, seed + 1, ...: their count, the
// plies played and the seconds taken (wall clock), without the GIL. A start that failed to
// parse cannot happen (load_game made one), so the loop only guards against it.
py::dict random_games(const Game& game, int n, std::uint64_t seed, int max_plies) {
  if (n < 0) throw KibitzError("random_games: n must be 0 or more");
  if (max_plies <= 0) throw KibitzError("random_games: max_plies must be positive");
  std::int64_t plies = 0;
  double seconds = 0;
  {
    py::gil_scoped_release release;
    const auto start = std::chrono::steady_clock::now();
    // A game whose start is drawn from a seed it was not given (Hearts' deal) draws it anew
    // for each game; the others all start from the one position.
    const auto first = game.entry().new_state(game.head());
    for (int i = 0; i < n; ++i) {
      const std::uint64_t game_seed = seed + static_cast<std::uint64_t>(i);
      std::unique_ptr<AnyState> s;
      if (game.draws_seed()) {
        auto made = game.entry().new_state(game.head(game_seed));
        if (!made) break;
        s = std::move(*made);
      } else {
        if (!first) break;
        s = (*first)->clone();
      }
      plies += s->play_random(game_seed, max_plies);
    }
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  py::dict out;
  out["games"] = n;
  out["plies"] = plies;
  out["seconds"] = seconds;
  return out;
}

}  // namespace
}  // namespace kibitz::python

PYBIND11_MODULE(_kibitz, m) {
  using namespace kibitz::python;
  using kibitz::AnyState;
  m.doc() = "Kibitz's games from Python (docs/python.md)";
  py::register_exception<KibitzError>(m, "KibitzError", PyExc_ValueError);

  m.def(
      "games",
      [] {
        std::vector<std::string> out;
        for (const auto& g : kibitz::builtin_registry().games())
          if (g.new_state) out.push_back(g.name);
        return out;
      },
      "The names of the games load_game() takes.");
  m.def("load_game", &load_game, py::arg("name"),
        "A game by name, with its parameters as keywords: load_game('go', size=9, komi=7.5).");
  m.def(
      "game_parameters",
      [](const std::string& name) {
        const auto* entry = kibitz::builtin_registry().find(name);
        if (!entry) throw KibitzError("unknown game '" + name + "' (kibitz.games() lists them)");
        py::dict out;
        for (const auto& p : entry->position_params) out[p.name.c_str()] = p.help;
        return out;
      },
      py::arg("name"), "The parameters load_game(name, ...) takes, each with what it means.");

  py::class_<Game, std::shared_ptr<Game>>(m, "Game", "A game with its parameters.")
      .def_property_readonly("name", [](const Game& g) { return g.entry().name; })
      .def_property_readonly("title", [](const Game& g) { return g.entry().title; })
      .def_property_readonly("parameters", &Game::params)
      .def("num_players", [](const Game& g) { return g.entry().num_players; })
      .def("num_distinct_actions", &Game::num_actions,
           "Actions are numbered 0 .. num_distinct_actions() - 1 (docs/python.md).")
      .def(
          "new_initial_state",
          [](const std::shared_ptr<Game>& g) { return State(g, g->make(g->head())); },
          "The start of a game, with this game's parameters.")
      .def(
          "new_state",
          [](const std::shared_ptr<Game>& g, const std::string& text) {
            return State(g, g->make(text));
          },
          py::arg("text"),
          "A state from a position text in the game's own form (what State.serialize() "
          "writes, or `kibitz games` describes).")
      .def(
          "deserialize_state",
          [](const std::shared_ptr<Game>& g, const std::string& text) {
            return State(g, g->make(text));
          },
          py::arg("text"), "The inverse of State.serialize().")
      .def("engine", &make_engine,
           "A new engine of this game, with options as keywords (Engine.options() lists them).")
      .def("__repr__", [](const Game& g) {
        std::string out = "kibitz.load_game('" + g.entry().name + "'";
        for (const auto& [k, v] : g.params())
          out += ", " + k.cast<std::string>() + "=" + py::repr(v).cast<std::string>();
        return out + ")";
      });

  py::class_<State>(m, "State", "A position of a game, with the moves that reached it.")
      .def(
          "current_player", [](const State& s) { return s.state().current_player(); },
          "The player to move, 0 .. num_players - 1; negative once the game is over.")
      .def("is_terminal", [](const State& s) { return s.state().is_terminal(); })
      .def(
          "returns", [](const State& s) { return s.state().returns(); },
          "One value per player (a win +1, a loss -1; Hearts: minus the points taken).")
      .def(
          "is_chance_node", [](const State&) { return false; },
          "Always False: a Hearts deal is part of the state's text (its seed).")
      .def("legal_actions", [](const State& s) { return s.state().legal_actions(); })
      .def(
          "legal_moves", [](const State& s) { return s.state().legal_moves(); },
          "The legal moves in the game's notation, in the order of legal_actions().")
      .def(
          "apply_action", [](State& s, int action) { ok_or_raise(s.state().apply_action(action)); },
          py::arg("action"))
      .def(
          "apply_move",
          [](State& s, const std::string& move) { ok_or_raise(s.state().apply(move)); },
          py::arg("move"), "Plays a move written in the game's notation.")
      .def(
          "action_to_string",
          [](const State& s, int action) {
            return value_or_raise(s.state().action_to_string(action));
          },
          py::arg("action"))
      .def(
          "string_to_action",
          [](const State& s, const std::string& move) {
            return value_or_raise(s.state().string_to_action(move));
          },
          py::arg("move"))
      .def("clone", &State::clone)
      .def("__copy__", &State::clone)
      .def("__deepcopy__", [](const State& s, py::dict) { return s.clone(); })
      .def(
          "serialize", [](const State& s) { return s.state().serialize(); },
          "A position text that reads back to this state with its history "
          "(Game.deserialize_state).")
      .def(
          "history", [](const State& s) { return s.state().history(); },
          "The actions played, those of the position text included.")
      .def("num_distinct_actions", [](const State& s) { return s.state().num_distinct_actions(); })
      .def(
          "__str__", [](const State& s) { return s.state().to_string(); },
          "The game's usual text of the position: a FEN, a move list, a deal and its cards.")
      .def("__repr__",
           [](const State& s) {
             return "<kibitz.State " + s.game()->entry().name + ": '" + s.state().to_string() +
                    "'>";
           })
      .def("hash", [](const State& s) { return s.state().hash(); })
      .def_property_readonly("game", [](const State& s) { return s.game(); })
      .def(
          "play_random",
          [](State& s, std::uint64_t seed, int max_plies) {
            if (max_plies <= 0) throw KibitzError("play_random: max_plies must be positive");
            py::gil_scoped_release release;
            return s.state().play_random(seed, max_plies);
          },
          py::arg("seed"), py::arg("max_plies") = 100000,
          "Plays random legal moves to the end (or max_plies) in C++; the plies played.");

  py::class_<Engine>(m, "Engine",
                     "A game's engine with its search; Engine(game, **options) or game.engine().")
      .def(py::init(&make_engine), py::arg("game"))
      .def_property_readonly("game", &Engine::game)
      .def(
          "options",
          [](Engine& e) {
            py::list out;
            for (const auto& o : e.get().options()) {
              py::dict d;
              d["name"] = o.name;
              const char* types[] = {"int", "bool", "button", "real"};
              d["type"] = types[static_cast<int>(o.type)];
              if (o.type == kibitz::engine::EngineOption::Type::kReal) {
                d["default"] = o.real, d["min"] = o.real_min, d["max"] = o.real_max;
              } else {
                d["default"] = o.value, d["min"] = o.min, d["max"] = o.max;
              }
              d["help"] = o.help;
              out.append(d);
            }
            return out;
          },
          "The options the engine takes: name, type, default, range and what it does.")
      .def(
          "set_option",
          [](Engine& e, const std::string& name, const py::handle& value) {
            ok_or_raise(e.get().set_option(name, param_text(value)));
          },
          py::arg("name"), py::arg("value"))
      .def(
          "new_game", [](Engine& e) { e.get().new_game(); },
          "Forgets what the engine learned (its tables, its tree).")
      .def("search", &engine_search, py::arg("state"), py::arg("movetime_ms") = 0,
           py::arg("nodes") = 0, py::arg("depth") = 0,
           py::arg("searchmoves") = std::vector<std::string>{},
           "Searches the state (the first limit reached ends it; none: the engine's default "
           "time) without the GIL: {'move', 'action', 'score', 'decided', 'pv', 'depth', "
           "'nodes', 'time_ms', 'how', 'lines', 'stats'}.");

  m.def("random_games", &random_games, py::arg("game"), py::arg("n"), py::arg("seed") = 1,
        py::arg("max_plies") = 100000,
        "Plays n random games in C++ without the GIL: {'games', 'plies', 'seconds'}.");
}

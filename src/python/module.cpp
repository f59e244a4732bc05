// The Python module `kibitz` (its compiled part, `kibitz._kibitz`): the games of the registry
// behind an OpenSpiel-like interface. One call crosses into C++ per command; the loops that
// need speed (random games) run in C++ with the GIL released. Errors are KibitzError (a
// ValueError) carrying the one-line message. See docs/python.md.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <future>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "engine/any_engine.hpp"
#include "engine/mcts_request.hpp"
#include "games/diplomacy/datc.hpp"
#include "games/diplomacy/map.hpp"
#include "games/diplomacy/state.hpp"
#include "games/registry.hpp"
#include "match/match.hpp"

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
    if (entry_->new_state)
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
  // Its start is dealt by chance nodes (the seed that would draw it was not given).
  bool deals_by_chance() const { return draws_seed() && entry_->chance_start.has_value(); }
  py::dict params() const { return params_; }
  int num_actions() const { return num_actions_; }
  std::unique_ptr<AnyState> make(const std::string& text) const {
    if (!entry_->new_state)
      throw KibitzError(entry_->name +
                        ": its moves are simultaneous, so it has no State; "
                        "kibitz.diplomacy_initial_state(), adjudicate() and the engine "
                        "(search a position text) serve it");
    return value_or_raise(entry_->new_state(text));
  }

 private:
  const GameEntry* entry_;
  std::vector<std::string> words_;
  int seed_param_ = -1;
  py::dict params_;
  int num_actions_ = 0;
};

// A state of a game: the game's AnyState, or, while a start is dealt by chance (the game's
// ChanceStart, when loaded without its seed), the outcomes drawn so far.
class State {
 public:
  static constexpr int kChancePlayer = -1;  // OpenSpiel's number for chance

  State(std::shared_ptr<Game> game, std::unique_ptr<AnyState> s)
      : game_(std::move(game)), s_(std::move(s)) {}
  // A start dealt by chance.
  explicit State(std::shared_ptr<Game> game) : game_(std::move(game)), dealing_(true) {}

  const std::shared_ptr<Game>& game() const { return game_; }
  bool is_chance_node() const { return dealing_; }
  // The game's state; an error while the start is being dealt.
  const AnyState& state() const {
    if (dealing_)
      throw KibitzError("a chance node: the start is being dealt (" +
                        std::to_string(drawn_.size()) + " of " + std::to_string(chance().outcomes) +
                        " outcomes drawn)");
    return *s_;
  }
  State clone() const {
    State out(game_, s_ ? s_->clone() : nullptr);
    out.dealing_ = dealing_;
    out.drawn_ = drawn_;
    return out;
  }

  int current_player() const { return dealing_ ? kChancePlayer : s_->current_player(); }
  bool is_terminal() const { return !dealing_ && s_->is_terminal(); }
  std::vector<double> returns() const {
    return dealing_ ? std::vector<double>(static_cast<std::size_t>(game_->entry().num_players), 0.0)
                    : s_->returns();
  }
  std::vector<int> legal_actions() const {
    if (!dealing_) return s_->legal_actions();
    std::vector<int> out;
    for (int a = 0; a < chance().outcomes; ++a)
      if (!drawn(a)) out.push_back(a);
    return out;
  }
  std::vector<std::pair<int, double>> chance_outcomes() const {
    std::vector<std::pair<int, double>> out;
    if (!dealing_) return out;
    const auto left = legal_actions();
    for (const int a : left) out.emplace_back(a, 1.0 / static_cast<double>(left.size()));
    return out;
  }
  std::vector<std::string> legal_moves() const {
    if (!dealing_) return s_->legal_moves();
    std::vector<std::string> out;
    for (const int a : legal_actions()) out.push_back(chance().name(a));
    return out;
  }
  void apply_action(int a) {
    if (!dealing_) return ok_or_raise(s_->apply_action(a));
    if (a < 0 || a >= chance().outcomes)
      throw KibitzError("chance action " + std::to_string(a) + " is outside 0.." +
                        std::to_string(chance().outcomes - 1));
    if (drawn(a))
      throw KibitzError("chance action " + std::to_string(a) + " (" + chance().name(a) +
                        ") was drawn already");
    drawn_.push_back(a);
    if (static_cast<int>(drawn_.size()) == chance().outcomes) {
      s_ = game_->make(chance().text(game_->head(), drawn_));
      dealing_ = false;
    }
  }
  void apply_move(const std::string& move) {
    if (!dealing_) return ok_or_raise(s_->apply(move));
    apply_action(string_to_action(move));
  }
  std::string action_to_string(int a) const {
    if (!dealing_) return value_or_raise(s_->action_to_string(a));
    if (a < 0 || a >= chance().outcomes)
      throw KibitzError("chance action " + std::to_string(a) + " is outside 0.." +
                        std::to_string(chance().outcomes - 1));
    return chance().name(a);
  }
  int string_to_action(const std::string& move) const {
    if (!dealing_) return value_or_raise(s_->string_to_action(move));
    for (int a = 0; a < chance().outcomes; ++a)
      if (chance().name(a) == move) return a;
    throw KibitzError("'" + move + "' is not an outcome of this chance node");
  }
  // The chance actions drawn, then the game's own.
  std::vector<int> history() const {
    std::vector<int> out = drawn_;
    if (s_) {
      const auto h = s_->history();
      out.insert(out.end(), h.begin(), h.end());
    }
    return out;
  }
  std::string text() const {
    if (!dealing_) return s_->to_string();
    std::string out = "dealing:";
    for (const int a : drawn_) out += " " + chance().name(a);
    return out;
  }
  // The rest of the deal drawn with the seed's stream, then random moves to the end.
  int play_random(std::uint64_t seed, int max_plies) {
    Rng rng(seed);
    while (dealing_) {
      const auto left = legal_actions();
      apply_action(left[static_cast<std::size_t>(rng.below(left.size()))]);
    }
    return s_->play_random(rng.next(), max_plies);
  }

 private:
  const GameEntry::ChanceStart& chance() const { return *game_->entry().chance_start; }
  bool drawn(int a) const { return std::find(drawn_.begin(), drawn_.end(), a) != drawn_.end(); }

  std::shared_ptr<Game> game_;
  std::unique_ptr<AnyState> s_;
  bool dealing_ = false;
  std::vector<int> drawn_;  // the chance outcomes drawn, in order
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

// The answer as a dict; `state` (when searched from one) gives the move's action.
py::dict report_dict(const engine::EngineReport& r, const AnyState* state) {
  py::dict out;
  out["move"] = r.move;
  const auto action = state ? state->string_to_action(r.move) : Result<int>(fail("no state"));
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

// The engine's answer on a position: a State of its game, or a position text in the game's
// own form (Diplomacy's "France {state JSON}").
py::dict engine_search(Engine& e, const py::object& position, std::int64_t movetime_ms,
                       std::uint64_t nodes, int depth,
                       const std::vector<std::string>& searchmoves) {
  const State* s = nullptr;
  std::string text;
  if (py::isinstance<py::str>(position)) {
    text = position.cast<std::string>();
  } else if (py::isinstance<State>(position)) {
    s = &position.cast<const State&>();
    if (s->game()->entry().name != e.game()->entry().name)
      throw KibitzError("a " + s->game()->entry().name + " state given to the " +
                        e.game()->entry().name + " engine");
    if (s->state().is_terminal()) throw KibitzError("search: the game is over");
    text = s->state().serialize();
  } else {
    throw KibitzError("search: the position is a kibitz.State or a position text");
  }
  if (movetime_ms < 0) throw KibitzError("search: movetime_ms must be 0 or more");
  engine::EngineLimits limits;
  limits.movetime_ms = movetime_ms;
  limits.nodes = nodes;
  limits.depth = depth;
  limits.searchmoves = searchmoves;
  Result<engine::EngineReport> r = fail("search: no answer");
  {
    py::gil_scoped_release release;
    if (auto set = e.get().set_position(text); !set) {
      r = tl::unexpected(set.error());
    } else {
      r = e.get().think(limits);
    }
  }
  return report_dict(value_or_raise(std::move(r)), s ? &s->state() : nullptr);
}

// The player a call names: given, or the one to move; an error outside the game's players.
int player_of(const State& s, const std::optional<int>& player) {
  s.state();  // not at a chance node
  const int p = player ? *player : s.current_player();
  const int n = s.game()->entry().num_players;
  if (p < 0 || p >= n)
    throw KibitzError(player ? "player " + std::to_string(p) + " is outside 0.." +
                                   std::to_string(n - 1)
                             : std::string("the game is over: name the player"));
  return p;
}

// The observation as a NumPy array, written in place (no copy).
py::array_t<float> observation(const State& s, const std::optional<int>& player) {
  const int p = player_of(s, player);
  const auto shape = s.state().observation_shape();
  if (shape.empty()) throw KibitzError(s.game()->entry().name + " has no observation tensor");
  std::vector<py::ssize_t> dims(shape.begin(), shape.end());
  py::array_t<float> out(dims);
  s.state().observation_tensor(
      p, std::span<float>(out.mutable_data(), static_cast<std::size_t>(out.size())));
  return out;
}

// Diplomacy on the standard map: the starting state, and one phase adjudicated (as `kibitz
// diplomacy adjudicate` does), states as JSON text (the Python wrapper takes dicts too).
std::string diplomacy_initial_state() {
  const auto& map = diplomacy::standard_map();
  return diplomacy::write_state_json(map, diplomacy::initial_state(map));
}

py::tuple diplomacy_adjudicate(const std::string& state_json,
                               const std::vector<std::string>& orders) {
  const auto& map = diplomacy::standard_map();
  const auto state = value_or_raise(diplomacy::read_state_json(map, state_json));
  std::vector<diplomacy::OrderLine> lines;
  for (const auto& o : orders) {
    auto line = diplomacy::parse_order_line(map, state, o);
    if (!line) throw KibitzError("order '" + o + "': " + line.error().message);
    lines.push_back(*line);
  }
  diplomacy::PhaseReport report;
  {
    py::gil_scoped_release release;
    report = diplomacy::adjudicate_phase(map, state, lines);
  }
  std::vector<bool> succeeded(report.succeeded.begin(), report.succeeded.end());
  return py::make_tuple(report.lines, succeeded, diplomacy::write_state_json(map, report.next));
}

// The generic MCTS (GameEntry::mcts) on a state, without the GIL.
py::dict generic_mcts(const State& s, std::uint64_t playouts, std::int64_t movetime_ms, bool puct,
                      double c, bool rave, std::uint64_t seed) {
  const auto& entry = s.game()->entry();
  if (!entry.mcts)
    throw KibitzError("mcts: not offered for " + entry.name +
                      " (its position shows every hand: use its engine, a search over sampled "
                      "deals)");
  if (s.is_terminal()) throw KibitzError("mcts: the game is over");
  const std::string text = s.state().serialize();
  engine::MctsRequest r{.playouts = playouts,
                        .movetime_ms = movetime_ms,
                        .puct = puct,
                        .c = c,
                        .rave = rave,
                        .seed = seed};
  Result<engine::MctsAnswer> a = fail("mcts: no answer");
  {
    py::gil_scoped_release release;
    a = entry.mcts(text, r);
  }
  const auto answer = value_or_raise(std::move(a));
  py::dict out;
  out["move"] = answer.move;
  const auto action = s.state().string_to_action(answer.move);
  out["action"] = action ? py::object(py::int_(*action)) : py::object(py::none());
  out["value"] = answer.value;
  out["pv"] = answer.pv;
  py::list moves;
  for (const auto& child : answer.moves) {
    py::dict d;
    d["move"] = child.move;
    d["visits"] = child.visits;
    d["value"] = child.value;
    d["prior"] = child.prior;
    moves.append(d);
  }
  out["moves"] = moves;
  out["playouts"] = answer.playouts;
  out["time_ms"] = answer.time_ms;
  out["uncertainty"] = answer.uncertainty;
  return out;
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

// ---------------------------------------------------------------------------------------
// kibitz.run_match: the C++ match runner (`kibitz match`) with Python callables as players.

// A Python callable that plays: the GIL is taken to call it and to let go of it, since the
// match's worker threads make and drop its engines.
struct PyPlayer {
  PyPlayer(py::object f, std::shared_ptr<Game> g) : callable(std::move(f)), game(std::move(g)) {}
  PyPlayer(const PyPlayer&) = delete;
  PyPlayer& operator=(const PyPlayer&) = delete;
  ~PyPlayer() {
    py::gil_scoped_acquire gil;
    callable = py::object();
    game.reset();
  }
  py::object callable;
  std::shared_ptr<Game> game;  // plain: the position text says the size, rule and komi
};

// The player behind the engine contract, as the match's bot seats drive Kibitz's own engines:
// the position text becomes a kibitz.State, the callable's answer (an action or a move text)
// the move. It answers at once on the calling thread; a callable cannot be stopped.
class PyEngine final : public engine::AnyEngine {
 public:
  explicit PyEngine(std::shared_ptr<const PyPlayer> player) : player_(std::move(player)) {}
  std::string_view game() const override { return player_->game->entry().name; }
  const std::vector<engine::EngineOption>& options() const override { return options_; }
  Result<void> set_option(std::string_view name, std::string_view) override {
    return fail("a Python player has no option '{}'", name);
  }
  void new_game() override {}
  Result<void> set_position(std::string_view text) override {
    text_ = text;
    return {};
  }
  Result<void> go(const engine::EngineLimits&, ReportFn, ReportFn done) override {
    const auto t0 = std::chrono::steady_clock::now();
    engine::EngineReport report;
    {
      py::gil_scoped_acquire gil;
      try {
        State state(player_->game, player_->game->make(text_));
        const State own = state.clone();  // the callable may play on its copy
        const py::object answer = player_->callable(std::move(state));
        if (py::isinstance<py::str>(answer)) {
          report.move = answer.cast<std::string>();
        } else if (PyIndex_Check(answer.ptr()) && !py::isinstance<py::bool_>(answer)) {
          report.move = own.action_to_string(py::int_(answer).cast<int>());
        } else {
          return fail("answered {}, not an action (int) or a move (str)",
                      py::repr(answer).cast<std::string>());
        }
      } catch (py::error_already_set& e) {
        return fail("raised {}: {}", e.type().attr("__name__").cast<std::string>(),
                    py::str(e.value()).cast<std::string>());
      } catch (const KibitzError& e) {
        return fail("answered badly: {}", e.what());
      } catch (const py::cast_error& e) {
        return fail("answered an action outside int: {}", e.what());
      }
    }
    report.time_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    if (done) done(report);
    return {};
  }
  void stop() override {}
  void ponderhit() override {}
  void wait() override {}
  bool thinking() const override { return false; }

 private:
  std::shared_ptr<const PyPlayer> player_;
  std::vector<engine::EngineOption> options_;
  std::string text_;
};

// A value of the settings dict, or its default.
template <class T>
T setting(const py::dict& d, const char* key, T fallback) {
  if (!d.contains(key) || d[key].is_none()) return fallback;
  try {
    return d[key].cast<T>();
  } catch (const py::cast_error&) {
    throw KibitzError(std::string("run_match: ") + key + " has the wrong type (" +
                      py::repr(d[key]).cast<std::string>() + ")");
  }
}

// The match (see run_match in kibitz/match.py for the settings): its report as JSON and as
// `kibitz match` prints it. The match runs on a thread of its own without the GIL; this
// thread wakes every 50 ms to take Ctrl-C, which stops the match as `kibitz match` stops
// (the games finished are reported, "interrupted" is true).
struct MatchSetup {
  match::MatchConfig config;
  std::unique_ptr<match::GameKind> kind;
};

// The config and game of a match from run_match's settings (errors raise KibitzError).
MatchSetup match_setup(const std::string& game_name, const py::list& players, const py::dict& d) {
  const Registry& registry = builtin_registry();
  const GameEntry* entry = registry.find(game_name);
  if (!entry) throw KibitzError("unknown game '" + game_name + "' (kibitz.games() lists them)");
  match::MatchConfig c;
  auto& st = c.settings;
  st.board_size = setting(d, "board_size", 0);
  st.rule = setting<std::string>(d, "rule", "");
  if (d.contains("komi") && !d["komi"].is_none()) {
    if (!(entry->match_settings & kKomiSetting))
      throw KibitzError("komi: " + game_name + " has no komi (only " +
                        registry.titles_taking(kKomiSetting) + " has)");
    st.komi = setting(d, "komi", st.komi);
  }
  st.max_year = setting(d, "max_year", 0);
  st.grace_ms = setting<std::int64_t>(d, "grace_ms", st.grace_ms);
  st.move_timeout_ms = setting<std::int64_t>(d, "move_timeout_ms", st.move_timeout_ms);
  st.start_timeout_ms = setting<std::int64_t>(d, "start_timeout_ms", st.start_timeout_ms);
  st.event = setting<std::string>(d, "event", "kibitz.run_match");
  st.verbose = setting(d, "verbose", false);
  auto& adj = st.adjudication;
  adj.resign_moves = setting(d, "resign_moves", adj.resign_moves);
  adj.resign_score = setting(d, "resign_score", adj.resign_score);
  adj.draw_moves = setting(d, "draw_moves", adj.draw_moves);
  adj.draw_score = setting(d, "draw_score", adj.draw_score);
  adj.draw_after = setting(d, "draw_after", adj.draw_after);
  adj.max_moves = setting(d, "max_moves", adj.max_moves);
  if (const auto tc = setting<std::string>(d, "tc", ""); !tc.empty())
    st.limits.clock = value_or_raise(match::TimeControl::parse(tc));
  st.limits.movetime_ms = setting<std::int64_t>(d, "movetime_ms", 0);
  st.limits.nodes = setting<std::uint64_t>(d, "nodes", 0);
  st.limits.depth = setting(d, "depth", 0);
  c.games = setting(d, "games", c.games);
  c.gauntlet = setting(d, "gauntlet", false);
  c.concurrency = setting(d, "concurrency", 1);
  c.seed = setting<std::uint64_t>(d, "seed", 1);
  c.openings.file = setting<std::string>(d, "openings", "");
  c.openings.format = setting<std::string>(d, "openings_format", "auto");
  c.openings.plies = setting(d, "plies", 0);
  c.openings.random_order = setting(d, "random_openings", false);
  c.records_file = setting<std::string>(d, "records", "");
  c.report_every = setting(d, "report_every", 0);
  c.pair_begin = setting(d, "pair_begin", 0);
  c.pair_end = setting(d, "pair_end", -1);
  if (c.pair_begin < 0) throw KibitzError("pair_begin: must be at least 0");
  c.progress = setting(d, "progress", false);
  if (d.contains("sprt") && !d["sprt"].is_none()) {
    const auto [elo0, elo1] = setting(d, "sprt", std::pair<double, double>{});
    const double alpha = setting(d, "alpha", 0.05), beta = setting(d, "beta", 0.05);
    if (!(elo0 < elo1)) throw KibitzError("sprt: expected (elo0, elo1) with elo0 < elo1");
    if (!(alpha > 0 && alpha < 0.5 && beta > 0 && beta < 0.5))
      throw KibitzError("sprt: alpha and beta must lie between 0 and 0.5");
    c.sprt = match::SprtParams{elo0, elo1, alpha, beta};
  }

  auto kind = registry.game_kind(game_name, st);
  if (!kind) throw KibitzError(kind.error().message);
  const auto plain = load_game(game_name, py::kwargs());
  for (const auto& p : players) {
    if (py::isinstance<py::str>(p)) {
      c.players.push_back(value_or_raise(match::parse_player_spec(p.cast<std::string>())));
      continue;
    }
    // (name, callable): the wrapper names every callable.
    const auto pair = p.cast<py::tuple>();
    match::PlayerSpec spec;
    spec.name = pair[0].cast<std::string>();
    auto player =
        std::make_shared<const PyPlayer>(py::reinterpret_borrow<py::object>(pair[1]), plain);
    spec.embedded = [player] { return std::make_unique<PyEngine>(player); };
    c.players.push_back(std::move(spec));
  }
  if (st.limits.empty() && (*kind)->needs_limits())
    for (const auto& p : c.players)
      if (p.limits.empty() && !p.is_embedded())
        throw KibitzError("no limit for '" + p.name +
                          "': give tc, movetime_ms, nodes or depth (or its own in its spec)");

  return {std::move(c), std::move(*kind)};
}

py::tuple run_match(const std::string& game_name, const py::list& players, const py::dict& d) {
  MatchSetup setup = match_setup(game_name, players, d);
  const match::MatchConfig& c = setup.config;
  std::atomic<bool> stop{false};
  match::Match m(c, std::move(setup.kind));
  Result<match::MatchReport> report = fail("run_match: no report");
  {
    py::gil_scoped_release release;
    auto running = std::async(std::launch::async, [&] { return m.run(stop); });
    while (running.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      py::gil_scoped_acquire gil;
      if (PyErr_CheckSignals() != 0) {
        PyErr_Clear();  // KeyboardInterrupt: the match stops, the report says so
        stop.store(true);
      }
    }
    report = running.get();
  }
  const auto r = value_or_raise(std::move(report));
  return py::make_tuple(match::report_json(r, c), match::format_report(r, c));
}

// The report of games played apart (kibitz.cluster's shards): `games_json` is the list of
// the shards' game entries (run_match's report["games"]); the match's settings as
// run_match's, so the report counts them as `kibitz match` would have.
// kibitz.cluster's running count: the match's settings as run_match's; add() takes each
// shard's game entries (a JSON array) as they arrive, so each game is read once.
class MatchCount {
 public:
  MatchCount(const std::string& game_name, const py::list& players, const py::dict& d)
      : setup_(match_setup(game_name, players, d)) {
    match::OpeningOptions openings = setup_.config.openings;
    openings.seed = setup_.config.seed;  // as Match::run sets it: the schedule's opening order
    ok_or_raise(setup_.kind->load_openings(openings));
    counter_.emplace(setup_.config, *setup_.kind);
  }
  void add(const std::string& games_json) { ok_or_raise(counter_->add(games_json)); }
  // Why the match should stop (an SPRT decision), empty while it goes on.
  std::string stop_reason() { return counter_->report().stop_reason; }
  // The report so far as JSON and as `kibitz match` prints it; `seconds` the wall time.
  py::tuple report(double seconds) {
    auto& r = counter_->report();
    r.seconds = seconds;
    return py::make_tuple(match::report_json(r, setup_.config),
                          match::format_report(r, setup_.config));
  }

 private:
  MatchSetup setup_;
  std::optional<match::GameCounter> counter_;
};

py::tuple match_report(const std::string& game_name, const py::list& players, const py::dict& d,
                       const std::string& games_json, double seconds) {
  MatchCount count(game_name, players, d);
  count.add(games_json);
  return count.report(seconds);
}

// `kibitz selfplay ARGS...` in this process (kibitz.cluster's self-play tasks): the same
// options and files as the command, without the GIL. A bad option or a failure raises
// KibitzError with the command's one-line message.
void selfplay(const std::vector<std::string>& args) {
  CLI::App app{"kibitz"};
  const cli::Runner run = cli::add_selfplay(app, builtin_registry());
  std::vector<std::string> words = {"kibitz", "selfplay"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    throw KibitzError(std::string("selfplay: ") + e.what());
  }
  std::string error;
  int status = 0;
  {
    py::gil_scoped_release release;
    cli::ErrorCapture capture(error);
    status = run();
  }
  if (status != 0) throw KibitzError(error.empty() ? "selfplay failed" : error);
}

// The hot calls of a Python loop over a state (is_terminal, current_player, is_chance_node,
// legal_actions, apply_action) as plain CPython methods: pybind11's general dispatcher costs
// about as much again as the call itself (BENCHMARKS.md, "Python: the cost of a call").
PyObject* g_kibitz_error = nullptr;  // kibitz.KibitzError

// The State inside a kibitz.State: the method descriptor has checked self's type, and a
// State exists only as made in C++ (it has no __init__), so its value is always there.
State& self_state(PyObject* self) {
  auto* inst = reinterpret_cast<py::detail::instance*>(self);
  return *static_cast<State*>(inst->get_value_and_holder().value_ptr());
}

template <class F>
PyObject* raising(F&& f) {
  try {
    return f();
  } catch (const KibitzError& e) {
    PyErr_SetString(g_kibitz_error, e.what());
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

PyObject* fast_is_terminal(PyObject* self, PyObject*) {
  return PyBool_FromLong(self_state(self).is_terminal());
}
PyObject* fast_is_chance_node(PyObject* self, PyObject*) {
  return PyBool_FromLong(self_state(self).is_chance_node());
}
PyObject* fast_current_player(PyObject* self, PyObject*) {
  return PyLong_FromLong(self_state(self).current_player());
}
PyObject* fast_legal_actions(PyObject* self, PyObject*) {
  return raising([&]() -> PyObject* {
    const auto actions = self_state(self).legal_actions();
    PyObject* list = PyList_New(static_cast<Py_ssize_t>(actions.size()));
    if (!list) return nullptr;
    for (std::size_t i = 0; i < actions.size(); ++i) {
      PyObject* a = PyLong_FromLong(actions[i]);
      if (!a) {
        Py_DECREF(list);
        return nullptr;
      }
      PyList_SET_ITEM(list, static_cast<Py_ssize_t>(i), a);
    }
    return list;
  });
}
PyObject* fast_apply_action(PyObject* self, PyObject* arg) {
  if (PyBool_Check(arg)) {
    PyErr_SetString(PyExc_TypeError, "apply_action: the action is an int, not a bool");
    return nullptr;
  }
  const long a = PyLong_AsLong(arg);  // an int, or anything with __index__ (NumPy's)
  if (a == -1 && PyErr_Occurred()) return nullptr;
  if (a < std::numeric_limits<int>::min() || a > std::numeric_limits<int>::max()) {
    PyErr_Format(g_kibitz_error, "action %ld is outside the game's actions", a);
    return nullptr;
  }
  return raising([&]() -> PyObject* {
    self_state(self).apply_action(static_cast<int>(a));
    Py_RETURN_NONE;
  });
}

PyMethodDef g_fast_state_methods[] = {
    {"is_terminal", fast_is_terminal, METH_NOARGS, "Whether the game is over."},
    {"is_chance_node", fast_is_chance_node, METH_NOARGS,
     "True while a start is dealt by chance (Hearts loaded without a seed)."},
    {"current_player", fast_current_player, METH_NOARGS,
     "The player to move, 0 .. num_players - 1; -1 at a chance node; -4 once the game is "
     "over."},
    {"legal_actions", fast_legal_actions, METH_NOARGS,
     "The legal actions; at a chance node, the outcomes left."},
    {"apply_action", fast_apply_action, METH_O,
     "apply_action(action): plays an action (an int, or a NumPy integer); KibitzError when it "
     "is not legal, and the state is left as it was."},
    {nullptr, nullptr, 0, nullptr}};

// Replaces the class's pybind11 bindings of those methods.
void bind_fast_state_methods(py::handle state_class) {
  for (PyMethodDef* def = g_fast_state_methods; def->ml_name; ++def) {
    PyObject* descr = PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(state_class.ptr()), def);
    if (!descr) throw py::error_already_set();
    state_class.attr(def->ml_name) = py::reinterpret_steal<py::object>(descr);
  }
}

}  // namespace
}  // namespace kibitz::python

PYBIND11_MODULE(_kibitz, m) {
  using namespace kibitz::python;
  using kibitz::AnyState;
  m.doc() = "Kibitz's games from Python (docs/python.md)";
  g_kibitz_error = py::register_exception<KibitzError>(m, "KibitzError", PyExc_ValueError).ptr();

  m.def(
      "games",
      [] {
        std::vector<std::string> out;
        for (const auto& g : kibitz::builtin_registry().games()) out.push_back(g.name);
        return out;
      },
      "The names of the games load_game() takes (Diplomacy has no State: docs/python.md).");
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
      .def(
          "max_game_length",
          [](const std::shared_ptr<Game>& g) -> std::optional<int> {
            const int n = g->make(g->head())->max_game_length();
            return n > 0 ? std::optional<int>(n) : std::nullopt;
          },
          "An upper bound on the moves of a game, chance outcomes not counted (chess: 12,826 "
          "plies by the fifty-move rule; Go: its move cap, 3 x size² and at most 1,023; gomoku: "
          "size², plus 16 "
          "under the capture rule; Hearts: 64, or 52 without passing).")
      .def("num_distinct_actions", &Game::num_actions,
           "Actions are numbered 0 .. num_distinct_actions() - 1 (docs/python.md).")
      .def(
          "observation_tensor_shape",
          [](const std::shared_ptr<Game>& g) { return g->make(g->head())->observation_shape(); },
          "The shape of State.observation_tensor().")
      .def(
          "new_initial_state",
          [](const std::shared_ptr<Game>& g) {
            return g->deals_by_chance() ? State(g) : State(g, g->make(g->head()));
          },
          "The start of a game, with this game's parameters (Hearts without a seed: a chance "
          "node dealing the cards).")
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

  py::class_<State> state_class(m, "State",
                                "A position of a game, with the moves that reached it.");
  state_class
      .def("returns", &State::returns,
           "One value per player (a win +1, a loss -1; Hearts: minus the points taken).")
      .def("chance_outcomes", &State::chance_outcomes,
           "At a chance node, (action, probability) for each outcome; else empty.")
      .def("legal_moves", &State::legal_moves,
           "The legal moves in the game's notation, in the order of legal_actions().")
      .def("apply_move", &State::apply_move, py::arg("move"),
           "Plays a move written in the game's notation.")
      .def("action_to_string", &State::action_to_string, py::arg("action"))
      .def("string_to_action", &State::string_to_action, py::arg("move"))
      .def("clone", &State::clone)
      .def("__copy__", &State::clone)
      .def("__deepcopy__", [](const State& s, py::dict) { return s.clone(); })
      .def(
          "serialize", [](const State& s) { return s.state().serialize(); },
          "A position text that reads back to this state with its history "
          "(Game.deserialize_state); not at a chance node.")
      .def("history", &State::history,
           "The actions played: chance outcomes first, then the moves, those of the position "
           "text included.")
      .def("num_distinct_actions",
           [](const State& s) {
             return s.is_chance_node() ? s.game()->entry().chance_start->outcomes
                                       : s.state().num_distinct_actions();
           })
      .def("observation_tensor", &observation, py::arg("player") = py::none(),
           "What the player (default: the one to move) observes, as a float32 NumPy array in "
           "the game's layout (docs/python.md).")
      .def(
          "information_state_string",
          [](const State& s, const std::optional<int>& player) {
            return s.state().information_state_string(player_of(s, player));
          },
          py::arg("player") = py::none(),
          "What the player knows, as text: the position text, or Hearts' seat view.")
      .def("__str__", &State::text,
           "The game's usual text of the position: a FEN, a move list, a deal and its cards.")
      .def("__repr__",
           [](const State& s) {
             return "<kibitz.State " + s.game()->entry().name + ": '" + s.text() + "'>";
           })
      .def("hash", [](const State& s) { return s.state().hash(); })
      .def_property_readonly("game", [](const State& s) { return s.game(); })
      .def(
          "play_random",
          [](State& s, std::uint64_t seed, int max_plies) {
            if (max_plies <= 0) throw KibitzError("play_random: max_plies must be positive");
            py::gil_scoped_release release;
            return s.play_random(seed, max_plies);
          },
          py::arg("seed"), py::arg("max_plies") = 100000,
          "Plays random legal moves to the end (or max_plies) in C++, the rest of a chance "
          "deal first; the plies played.");
  // is_terminal, is_chance_node, current_player, legal_actions, apply_action.
  bind_fast_state_methods(state_class);

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
              const char* types[] = {"int", "bool", "button", "real", "string"};
              d["type"] = types[static_cast<int>(o.type)];
              if (o.type == kibitz::engine::EngineOption::Type::kReal) {
                d["default"] = o.real, d["min"] = o.real_min, d["max"] = o.real_max;
              } else if (o.type == kibitz::engine::EngineOption::Type::kString) {
                d["default"] = o.text;
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
      .def("search", &engine_search, py::arg("position"), py::arg("movetime_ms") = 0,
           py::arg("nodes") = 0, py::arg("depth") = 0,
           py::arg("searchmoves") = std::vector<std::string>{},
           "Searches the state (the first limit reached ends it; none: the engine's default "
           "time) without the GIL: {'move', 'action', 'score', 'decided', 'pv', 'depth', "
           "'nodes', 'time_ms', 'how', 'lines', 'stats'}.");

  m.def("_diplomacy_initial_state", &diplomacy_initial_state);
  m.def("_diplomacy_adjudicate", &diplomacy_adjudicate, py::arg("state_json"), py::arg("orders"));

  m.def("mcts", &generic_mcts, py::arg("state"), py::arg("playouts") = 1000,
        py::arg("movetime_ms") = 0, py::arg("puct") = true, py::arg("c") = 1.0,
        py::arg("rave") = true, py::arg("seed") = 1,
        "The generic MCTS (written once for every game; random playouts, or the game's "
        "playout policy and priors) on a state, without the GIL: {'move', 'action', 'value', "
        "'pv', 'moves', 'playouts', 'time_ms', 'uncertainty'}; value is for the player to "
        "move, 0..1.");

  m.def("_selfplay", &selfplay, py::arg("args"));
  m.def("_run_match", &run_match, py::arg("game"), py::arg("players"), py::arg("settings"));
  py::class_<MatchCount>(m, "_MatchCount")
      .def(py::init<const std::string&, const py::list&, const py::dict&>(), py::arg("game"),
           py::arg("players"), py::arg("settings"))
      .def("add", &MatchCount::add, py::arg("games_json"))
      .def("stop_reason", &MatchCount::stop_reason)
      .def("report", &MatchCount::report, py::arg("seconds") = 0.0);
  m.def("_match_report", &match_report, py::arg("game"), py::arg("players"), py::arg("settings"),
        py::arg("games_json"), py::arg("seconds") = 0.0);

  m.def("random_games", &random_games, py::arg("game"), py::arg("n"), py::arg("seed") = 1,
        py::arg("max_plies") = 100000,
        "Plays n random games in C++ without the GIL: {'games', 'plies', 'seconds'}.");
}

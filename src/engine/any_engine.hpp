#pragma once
// The one engine contract: what a protocol, a match seat, the bench or a Python script asks of
// any game's engine, with positions and moves in the game's own text (the registry's
// position text and move notation). EngineRunner<A> is the one place that owns the thinking
// thread: a game gives it an adapter (how to read a position, how to search it synchronously,
// how to stop), and the runner makes it an AnyEngine. The engines of chess (the alpha-beta),
// gomoku (the threat pipeline), Go (MCTS) and Hearts (the search bot) are behind it
// (any_engines.cpp); the registry entry makes them (GameEntry::engine).
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/time_manager.hpp"
#include "search/common/limits.hpp"

namespace kibitz::engine {

struct GomokuOptions;

// How long to think: a fixed time, a node (playout) or depth limit, a game clock, or until
// stop(). Limits combine: the first reached ends the search. None at all: the engine's
// default time for a move.
struct EngineLimits {
  std::int64_t movetime_ms = 0;
  std::uint64_t nodes = 0;     // alpha-beta nodes; MCTS playouts
  int depth = 0;               // alpha-beta iterations
  std::int64_t clock_ms = -1;  // the mover's clock (-1: none)
  std::int64_t increment_ms = 0;
  int moves_to_go = 0;  // moves to the next time control (0: sudden death)
  // The control the clock runs under, where it has periods (Go's Canadian byo-yomi:
  // period_moves moves in period_ms after main_ms of main time); all 0: none given.
  std::int64_t main_ms = 0;
  std::int64_t period_ms = 0;
  int period_moves = 0;
  std::int64_t move_cap_ms = -1;  // the most one move may take (Gomocup's turn; -1: none)
  int mate = 0;                   // alpha-beta: stop at a mate in this many moves
  // Think only about these moves (the game's notation; empty: all). A word that is not a
  // legal move is left out.
  std::vector<std::string> searchmoves{};
  // Until stop() (the answer waits for it even when the search ends on its own).
  bool infinite = false;
  // Thinking on the opponent's time: as infinite until ponderhit() starts the clock above
  // (then as those limits say), or stop().
  bool ponder = false;
  // Reports while thinking every this many ms (analysis; 0: the engine's own cadence).
  std::int64_t interval_ms = 0;
};
// The limits' clock, as the time manager (core/time_manager.hpp) reads it.
MoverClock mover_clock(const EngineLimits& limits);

// What the engine says while it thinks, and its answer (the last report).
struct EngineReport {
  std::string move;             // best so far, in the game's notation ("" : none)
  std::vector<std::string> pv;  // from the position searched
  double score = 0;             // the game's unit: centipawns, gomoku score, Go win rate (0..1)
  bool decided = false;         // the score is a proven result (a mate, a forced win or loss)
  int depth = 0;                // alpha-beta iterations; MCTS: the principal variation's length
  std::uint64_t nodes = 0;      // nodes or playouts
  std::int64_t time_ms = 0;
  std::string how;  // how the move was found, where the engine says (gomoku: "vcf", ...)
  // Where the answer's time went, stage by stage (ms), where the engine runs stages (gomoku).
  std::vector<std::pair<std::string, double>> stage_ms;
  // Alpha-beta detail (UCI's info line): the selective depth, which of the Multi-PV lines
  // (1-based), a bound while an aspiration window fails, the table's fill (per mille), and
  // with the answer the reply expected (for pondering).
  enum class Bound { kExact, kLower, kUpper };
  int seldepth = 0;
  int multipv = 1;
  Bound bound = Bound::kExact;
  int hashfull = 0;
  std::string ponder;
  // With the answer (what `kibitz bench` prints): the nodes after each completed iteration,
  // cumulative, and the search's counters (cut-offs, table hits, null moves, reductions).
  std::vector<std::uint64_t> nodes_per_depth;
  search::SearchStats stats;
  // MCTS detail (GTP's analysis): the root's candidates, most visited first, each with its
  // visits, value (0..1 for the side to move), prior and line; the playouts this search ran
  // (nodes are the root's visits, a reused tree's included) and how unsettled the root is
  // (0..1).
  // A sampled-world search's candidates (Hearts) are lines too: value is the move's utility,
  // expected the result it expects in the game's unit (points) and variance its spread over
  // the worlds; marks say more ("forced": the same in every world, "moon", "prior": the
  // policy's own choice) and note in words.
  struct Line {
    std::string move;
    std::uint64_t visits = 0;
    double value = 0;
    double prior = 0;
    std::vector<std::string> pv;
    double expected = 0;
    double variance = 0;
    std::vector<std::string> marks;
    std::string note;
  };
  std::vector<Line> lines;
  std::uint64_t playouts = 0;
  double uncertainty = 0;
  // Sampled-world detail: the worlds evaluated, and whether the time budget ran out first.
  int worlds = 0;
  bool over_budget = false;
};

// An option the engine takes, declared once: `kibitz` reads it from the command line, match
// player specs (option.NAME=VALUE) and protocols' setoption alike.
struct EngineOption {
  // A button does something when set (any value); a real is a number with a fraction; a
  // string is any text (a file name).
  enum class Type { kInt, kBool, kButton, kReal, kString };
  EngineOption() = default;
  EngineOption(std::string name_, Type type_, std::int64_t value_, std::int64_t min_,
               std::int64_t max_, std::string help_)
      : name(std::move(name_)),
        type(type_),
        value(value_),
        min(min_),
        max(max_),
        help(std::move(help_)) {}
  static EngineOption real_option(std::string name, double value, double min, double max,
                                  std::string help);
  static EngineOption text_option(std::string name, std::string value, std::string help);

  std::string name;
  Type type = Type::kInt;
  std::int64_t value = 0;  // the default; booleans 0 / 1
  std::int64_t min = 0, max = 0;
  std::string help;
  double real = 0, real_min = 0, real_max = 0;  // kReal's value and range
  std::string text;                             // kString's value
};
// "name=value" checked against the declarations: the option's new value, or a one-line error.
Result<std::int64_t> parse_option_value(const EngineOption& o, std::string_view value);
// The same for a kReal option.
Result<double> parse_real_option_value(const EngineOption& o, std::string_view value);

// Option settings as a user gives them, in order: NAME=VALUE words on the command line,
// option.NAME=VALUE in a match player spec, or the `options:` map of a YAML file.
using OptionSettings = std::vector<std::pair<std::string, std::string>>;
// The `options:` map of a YAML file (NAME: VALUE), in file order; an error names the file.
Result<OptionSettings> read_option_file(const std::string& path);
// "NAME=VALUE" (the command line's form); an error for a word without '='.
Result<std::pair<std::string, std::string>> parse_option_word(std::string_view word);

class AnyEngine {
 public:
  using ReportFn = std::function<void(const EngineReport&)>;
  virtual ~AnyEngine() = default;

  virtual std::string_view game() const = 0;
  virtual const std::vector<EngineOption>& options() const = 0;
  virtual Result<void> set_option(std::string_view name, std::string_view value) = 0;
  virtual void new_game() = 0;  // forgets what the engine learned (tables, trees)
  // The position to think about, as the game's position text; an error names what is wrong.
  virtual Result<void> set_position(std::string_view text) = 0;
  // Starts thinking about the position on the engine's thread and returns at once: `info`
  // (optional) gets reports while it thinks, `done` the answer, once; both run on the engine's
  // thread. An error (no position, a finished game, already thinking, a call from the
  // engine's own callback) calls neither.
  virtual Result<void> go(const EngineLimits& limits, ReportFn info, ReportFn done) = 0;
  virtual void stop() = 0;  // any thread: answer now with the best so far
  // Any thread: the pondered move was played; the clock of the limits runs from now.
  virtual void ponderhit() = 0;
  virtual void wait() = 0;  // until the answer has been given
  // From go() until the answer is given (an infinite or pondering search that has ended
  // still thinks until stop() or ponderhit()).
  virtual bool thinking() const = 0;

  // go() and wait(): the answer, or the error of go().
  Result<EngineReport> think(const EngineLimits& limits, ReportFn info = {});
  // Sets each option in order; the first error (naming the option) stops.
  Result<void> set_options(const OptionSettings& settings);
};

// For adapters: a stop that comes before the engine has started its search (which clears its
// own stop flag) would be lost, so the adapters remember it and repeat it at the engine's
// next report.
class StopLatch {
 public:
  void arm() { stop_.store(false); }
  void set() { stop_.store(true); }
  bool is_set() const { return stop_.load(); }

 private:
  std::atomic<bool> stop_{false};
};
// A move time no game waits out: until stop().
inline constexpr std::int64_t kForever = std::int64_t{24} * 3600 * 1000;

// What EngineRunner<A> asks of a game's adapter A:
//   using Position;  static constexpr std::string_view kGame
//   Result<Position> parse(std::string_view text)       the position text (may be static)
//   bool finished(const Position&)                       no move to make
//   EngineReport search(const Position&, const EngineLimits&, const AnyEngine::ReportFn&)
//                                                        synchronous, on the runner's thread
//   void stop()                                          any thread, during search()
//   void arm()                                           before each search: forget a stop
//   void new_game();  std::vector<EngineOption> options();  Result<void> set(name, value)
//   Result<void> set_real(name, value)                   where it declares a kReal option
//   Result<void> set_text(name, value)                   where it declares a kString option
//                                                        (refused: the adapter drops its value)
//   optionally void ponderhit(): any thread, during a search started with limits.ponder
template <class A>
class EngineRunner final : public AnyEngine {
 public:
  template <class... Args>
  explicit EngineRunner(Args&&... args)
      : adapter_(std::forward<Args>(args)...), options_(adapter_.options()) {}
  ~EngineRunner() override {
    stop();
    wait();
  }

  std::string_view game() const override { return A::kGame; }
  const std::vector<EngineOption>& options() const override { return options_; }
  Result<void> set_option(std::string_view name, std::string_view value) override {
    if (thinking()) return fail("option {}: not while the engine is thinking", name);
    for (auto& o : options_)
      if (o.name == name) {
        if (o.type == EngineOption::Type::kReal) {
          auto v = parse_real_option_value(o, value);
          if (!v) return tl::unexpected(v.error());
          if constexpr (requires { adapter_.set_real(o.name, *v); }) {
            if (auto ok = adapter_.set_real(o.name, *v); !ok) return ok;
          }
          o.real = *v;
          return {};
        }
        if (o.type == EngineOption::Type::kString) {
          if constexpr (requires { adapter_.set_text(o.name, std::string(value)); }) {
            if (auto ok = adapter_.set_text(o.name, std::string(value)); !ok) {
              o.text.clear();  // a refused text leaves the option unset, as the adapter is
              return ok;
            }
          }
          o.text = value;
          return {};
        }
        auto v = parse_option_value(o, value);
        if (!v) return tl::unexpected(v.error());
        if (auto ok = adapter_.set(o.name, *v); !ok) return ok;
        o.value = *v;
        return {};
      }
    std::string known;
    for (const auto& o : options_) known += (known.empty() ? "" : ", ") + o.name;
    return fail("{} engine has no option '{}' (options: {})", A::kGame, name, known);
  }
  void new_game() override {
    stop();
    wait();
    adapter_.new_game();
  }
  Result<void> set_position(std::string_view text) override {
    auto p = adapter_.parse(text);
    if (!p) return tl::unexpected(p.error());
    return set_position(std::move(*p));
  }
  // The game's own protocol may hold more than the position text says (GTP: handicap
  // placements, a loaded record's ko and history): the position itself.
  Result<void> set_position(typename A::Position p) {
    if (thinking()) return fail("position: not while the engine is thinking (stop it first)");
    wait();
    position_ = std::move(p);
    return {};
  }
  Result<void> go(const EngineLimits& limits, ReportFn info, ReportFn done) override {
    if (!position_) return fail("go: no position set");
    if (A::finished(*position_)) return fail("go: the game is over, there is no move to make");
    if (thinking()) return fail("go: the engine is already thinking");
    if (on_own_thread()) return fail("go: not from the engine's own callback");
    std::lock_guard lock(thread_mutex_);
    if (thread_.joinable()) thread_.join();
    adapter_.arm();
    {
      std::lock_guard state(state_mutex_);
      stop_requested_ = false;
      pondering_ = limits.ponder;
    }
    thinking_.store(true);
    thread_ = std::thread([this, limits, pos = *position_, info = std::move(info),
                           done = std::move(done)] {
      worker_.store(std::this_thread::get_id());
      const EngineReport r = adapter_.search(pos, limits, info);
      if (limits.infinite || limits.ponder) {
        // The answer waits for stop (or, pondering, for ponderhit).
        std::unique_lock state(state_mutex_);
        woken_.wait(state, [&] { return stop_requested_ || (!limits.infinite && !pondering_); });
      }
      thinking_.store(false);
      if (done) done(r);
      worker_.store(std::thread::id{});
    });
    return {};
  }
  void stop() override {
    {
      std::lock_guard state(state_mutex_);
      stop_requested_ = true;
    }
    woken_.notify_all();
    if (thinking()) adapter_.stop();
  }
  void ponderhit() override {
    {
      std::lock_guard state(state_mutex_);
      if (!thinking() || !pondering_) return;
      pondering_ = false;
    }
    if constexpr (requires { adapter_.ponderhit(); }) adapter_.ponderhit();
    woken_.notify_all();
  }
  void wait() override {
    // From the engine's own callback the answer is already given: nothing to wait for. Any
    // number of threads may wait at once (a joined thread is joined once).
    if (on_own_thread()) return;
    std::lock_guard lock(thread_mutex_);
    if (thread_.joinable()) thread_.join();
  }
  bool thinking() const override { return thinking_.load(); }

 private:
  bool on_own_thread() const { return worker_.load() == std::this_thread::get_id(); }

  A adapter_;
  std::vector<EngineOption> options_;
  std::optional<typename A::Position> position_;
  std::atomic<bool> thinking_{false};
  std::mutex state_mutex_;  // guards stop_requested_ and pondering_
  std::condition_variable woken_;
  bool stop_requested_ = false;
  bool pondering_ = false;
  std::mutex thread_mutex_;  // guards thread_: its start and its join
  std::thread thread_;
  std::atomic<std::thread::id> worker_{};  // the thinking thread while it runs
};

// The engines of the games that have one, as the registry makes them.
// Chess: the full engine, or (plain) the seed's plain alpha-beta baseline.
std::unique_ptr<AnyEngine> make_chess_any_engine(bool plain = false);
// Gomoku: the five-stage pipeline, or (threats false) its alpha-beta alone.
std::unique_ptr<AnyEngine> make_gomoku_any_engine(bool threats = true, std::size_t hash_mb = 64);
// ... with the pipeline's options as given (Gomocup's command line).
std::unique_ptr<AnyEngine> make_gomoku_any_engine(const GomokuOptions& options,
                                                  std::size_t hash_mb);
// Go: the MCTS engine (engine/go_any_engine.hpp has its adapter, which GTP drives).
std::unique_ptr<AnyEngine> make_go_any_engine();
// Hearts: a bot for the seat to move, deciding from what that seat has seen. The position is
// the whole deal (the registry's position text: the bot is given only the seat's
// Observation; a pass is three moves of one card) or the seat's view (hearts::view_text: a
// pass is one move of three cards, "QS AS KH"). The search bot with the default settings;
// engine/hearts_engine.hpp makes the others (make_hearts_any_engine(HeartsSetup)).
std::unique_ptr<AnyEngine> make_hearts_any_engine();

}  // namespace kibitz::engine

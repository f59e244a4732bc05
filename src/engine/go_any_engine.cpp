#include "engine/go_any_engine.hpp"

#include <fmt/format.h>

#include <limits>

#include "engine/go_deep.hpp"
#include "games/go/go_game.hpp"

namespace kibitz::engine {

Result<GoAdapter::Position> GoAdapter::parse(std::string_view text) {
  return go::parse_position_text(text);
}

GoAdapter::GoAdapter(const GoEngineOptions& options, std::shared_ptr<GoDeep> deep)
    : options_(options), deep_(std::move(deep)) {
  make_engine();
}

void GoAdapter::make_engine() {
  engine_ = std::make_unique<GoEngine>(options_);
  if (deep_) engine_->attach_deep(deep_);
  engine_->set_handicap(handicap_);
}

std::vector<EngineOption> GoAdapter::options() const {
  return {{"Threads", EngineOption::Type::kInt, options_.threads, 1, 256, "search threads"},
          {"resign", EngineOption::Type::kBool, options_.resign, 0, 1, "resign lost games"},
          {"seed", EngineOption::Type::kInt, static_cast<std::int64_t>(options_.seed),
           std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(),
           "seed of the search (64 bits, read as a signed number)"},
          {"cleanup", EngineOption::Type::kBool, 0, 0, 1,
           "never pass while the search could play on (KGS cleanup: capture the dead stones)"},
          {"handicap", EngineOption::Type::kInt, 0, 0, 361,
           "black's handicap stones in this game (the dynamic komi)"}};
}

Result<void> GoAdapter::set(std::string_view name, std::int64_t v) {
  // The game's settings keep the engine (its tree, its resignation count); the search's
  // make a new one.
  if (name == "cleanup") {
    cleanup_ = v != 0;
    return {};
  }
  if (name == "handicap") {
    handicap_ = static_cast<int>(v);
    engine_->set_handicap(handicap_);
    return {};
  }
  if (name == "Threads") options_.threads = static_cast<int>(v);
  if (name == "resign") options_.resign = v != 0;
  if (name == "seed") options_.seed = static_cast<std::uint64_t>(v);
  make_engine();
  return {};
}

// A fresh tree and resignation count; the engine (its random stream) goes on, as GTP's
// clear_board has always had it.
void GoAdapter::new_game() { engine_->new_game(go::Rules{}); }

void GoAdapter::stop() {
  latch_.set();
  engine_->stop();
}

void GoAdapter::arm() {
  latch_.arm();
  engine_->clear_stop();  // before the thread: an analysis does not clear it itself
}

EngineReport GoAdapter::search(const Position& root, const EngineLimits& l,
                               const AnyEngine::ReportFn& info) {
  // The clock in GTP's terms: the engine's own time management (GoEngine::clock_limits_ms)
  // spends it. A plain clock with an increment reads as byo-yomi of one move.
  GoClock clock;
  if (l.clock_ms >= 0) {
    const int me = root.to_move() == go::kWhite ? 1 : 0;
    if (l.main_ms > 0 || l.period_ms > 0) {
      clock.set = true;
      clock.main_ms = l.main_ms;
      clock.byo_ms = l.period_ms;
      clock.byo_stones = l.period_moves;
    } else {
      clock = go_clock_for(l.clock_ms, l.increment_ms, 0);
    }
    clock.left_ms[me] = l.clock_ms;
    clock.left_stones[me] = l.moves_to_go;
    clock.left_known[me] = true;
  }
  engine_->set_clock(clock);
  const int size = root.size();
  const auto report = [&](const search::MctsResult<go::Move>& r) {
    EngineReport e;
    for (const auto m : r.pv) e.pv.push_back(go::to_vertex(m, size));
    e.move = go::to_vertex(r.best, size);
    e.score = r.value;
    e.depth = static_cast<int>(r.pv.size());
    e.nodes = r.root_visits;
    e.playouts = r.playouts;
    e.uncertainty = r.uncertainty;
    e.time_ms = r.time_ms;
    for (const auto& ms : r.moves) {
      if (ms.visits <= 0) break;  // most visited first
      EngineReport::Line line;
      line.move = go::to_vertex(ms.move, size);
      line.visits = static_cast<std::uint64_t>(ms.visits);
      line.value = ms.value;
      line.prior = ms.prior;
      for (const go::Move m : engine_->pv_through(ms.move))
        line.pv.push_back(go::to_vertex(m, size));
      e.lines.push_back(std::move(line));
    }
    return e;
  };
  const GoEngine::InfoCallback on_info = [&](const search::MctsResult<go::Move>& r) {
    if (latch_.is_set()) engine_->stop();
    if (info) info(report(r));
  };
  if (l.infinite) {
    // An analysis: no move is chosen (no pass or resignation rule), the tree stays where it is.
    const auto r = engine_->analyze(root, on_info, l.interval_ms);
    EngineReport e = report(r);
    e.how = "analysis";
    return e;
  }
  GoLimits g{.visits = l.nodes, .movetime_ms = l.movetime_ms};
  if (latch_.is_set()) g = GoLimits{.visits = 1, .movetime_ms = 1};  // stopped before it began
  const auto d = engine_->genmove(root, g, !cleanup_, info ? &on_info : nullptr, l.interval_ms);
  EngineReport e = report(d.result);
  e.move = go::to_vertex(d.move, size);
  e.score = d.value;
  e.playouts = d.playouts;
  e.how = d.deep ? fmt::format("{}, {}", d.reason, deep_source_text(d.source)) : d.reason;
  // The tree follows our own move, so the next position (the opponent's reply) reuses it.
  if (!d.move.is_resign() && !root.is_terminal()) engine_->play(d.move);
  return e;
}

std::unique_ptr<GoAnyEngine> make_go_engine(const GoEngineOptions& options,
                                            std::shared_ptr<GoDeep> deep) {
  return std::make_unique<GoAnyEngine>(options, std::move(deep));
}

std::unique_ptr<AnyEngine> make_go_any_engine() { return make_go_engine(GoEngineOptions{}); }

}  // namespace kibitz::engine

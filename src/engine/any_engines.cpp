// The games' engines behind the one contract (any_engine.hpp): adapters that read the game's
// position text, turn EngineLimits into the engine's own limits and its answer into an
// EngineReport. The engines keep their own time budgets inside a search for now; the runner
// owns the thread.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "core/config.hpp"
#include "core/text.hpp"
#include "engine/any_engine.hpp"
#include "engine/chess_engine.hpp"
#include "engine/go_engine.hpp"
#include "engine/gomoku_engine.hpp"
#include "engine/hearts_engine.hpp"
#include "engine/hearts_match.hpp"
#include "games/chess/chess_game.hpp"
#include "games/chess/notation.hpp"
#include "games/go/go_game.hpp"
#include "games/gomoku/gomoku_game.hpp"
#include "games/hearts/cards.hpp"
#include "games/hearts/hearts_game.hpp"

namespace kibitz::engine {

Result<std::int64_t> parse_option_value(const EngineOption& o, std::string_view value) {
  if (o.type == EngineOption::Type::kButton || o.type == EngineOption::Type::kString) return 1;
  if (o.type == EngineOption::Type::kBool) {
    if (value == "true" || value == "1") return 1;
    if (value == "false" || value == "0") return 0;
    return fail("option {}: '{}' is not true or false", o.name, value);
  }
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc{} || end != value.data() + value.size())
    return fail("option {}: '{}' is not a whole number", o.name, value);
  if (v < o.min || v > o.max)
    return fail("option {}: {} is out of range ({} to {})", o.name, v, o.min, o.max);
  return v;
}

EngineOption EngineOption::real_option(std::string name, double value, double min, double max,
                                       std::string help) {
  EngineOption o(std::move(name), Type::kReal, 0, 0, 0, std::move(help));
  o.real = value;
  o.real_min = min;
  o.real_max = max;
  return o;
}

EngineOption EngineOption::text_option(std::string name, std::string value, std::string help) {
  EngineOption o(std::move(name), Type::kString, 0, 0, 0, std::move(help));
  o.text = std::move(value);
  return o;
}

Result<double> parse_real_option_value(const EngineOption& o, std::string_view value) {
  const std::string text(value);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end || !std::isfinite(v))
    return fail("option {}: '{}' is not a number", o.name, excerpt(value));
  if (v < o.real_min || v > o.real_max)
    return fail("option {}: {} is out of range ({} to {})", o.name, v, o.real_min, o.real_max);
  return v;
}

MoverClock mover_clock(const EngineLimits& l) {
  return MoverClock{.left_ms = l.clock_ms,
                    .increment_ms = l.increment_ms,
                    .moves_to_go = l.moves_to_go,
                    .period_ms = l.period_ms,
                    .period_moves = l.period_moves,
                    .move_cap_ms = l.move_cap_ms};
}

Result<OptionSettings> read_option_file(const std::string& path) {
  auto config = Config::load_file(path);
  if (!config) return tl::unexpected(config.error());
  OptionSettings out;
  for (const auto& key : config->keys()) {
    if (key != "options")
      return fail("{}: unknown key '{}' (an option file holds an options: map)", path, key);
  }
  for (const auto& key : config->keys("options")) {
    auto value = config->get_string("options." + key, "");
    if (!value) return tl::unexpected(value.error());
    out.emplace_back(key, *value);
  }
  return out;
}

Result<std::pair<std::string, std::string>> parse_option_word(std::string_view word) {
  const auto eq = word.find('=');
  if (eq == std::string_view::npos || eq == 0)
    return fail("--option {}: expected NAME=VALUE", word);
  return std::pair<std::string, std::string>(word.substr(0, eq), word.substr(eq + 1));
}

Result<void> AnyEngine::set_options(const OptionSettings& settings) {
  for (const auto& [name, value] : settings)
    if (auto ok = set_option(name, value); !ok) return ok;
  return {};
}

Result<EngineReport> AnyEngine::think(const EngineLimits& limits, ReportFn info) {
  EngineReport answer;
  auto ok = go(limits, std::move(info), [&answer](const EngineReport& r) { answer = r; });
  if (!ok) return tl::unexpected(ok.error());
  wait();
  return answer;
}

namespace {

// --- chess: the alpha-beta engine ---------------------------------------------------------

class ChessAdapter {
 public:
  using Position = chess::Position;
  static constexpr std::string_view kGame = "chess";
  static Result<Position> parse(std::string_view text) { return chess::parse_position_text(text); }
  // Only a position without a legal move has none to find: a drawn one (repetition, fifty
  // moves) is still searched when a GUI asks.
  static bool finished(const Position& p) {
    MoveList<Position> moves;
    return p.legal_moves(moves) == 0;
  }

  // The full engine evaluates with the built-in network; the plain baseline keeps the
  // hand-written evaluation, as the seed's baseline did.
  explicit ChessAdapter(bool plain = false) : plain_(plain) {
    if (plain) {
      engine_.set_options(search::SearchOptions::plain());
    } else {
      network_ = chess::nnue::builtin_network();
      apply_evaluator();
    }
  }
  // UCI's options: Hash, Threads, MultiPV, Move Overhead, Clear Hash, Ponder and each search
  // technique (true / false).
  std::vector<EngineOption> options() const {
    std::vector<EngineOption> o = {
        {"Hash", EngineOption::Type::kInt, 16, 1, 65536, "transposition table in MB"},
        {"Threads", EngineOption::Type::kInt, engine_.options().threads, 1, 256,
         "search threads (Lazy SMP)"},
        {"MultiPV", EngineOption::Type::kInt, engine_.options().multipv, 1, 256,
         "the best lines reported"},
        {"Move Overhead", EngineOption::Type::kInt, engine_.move_overhead_ms(), 0, 5000,
         "ms kept back from the clock for each move"},
        {"Clear Hash", EngineOption::Type::kButton, 0, 0, 1, "empties the table"},
        {"Ponder", EngineOption::Type::kBool, 0, 0, 1,
         "the controller may let the engine think on the opponent's time"},
        EngineOption::text_option(
            "EvalFile", plain_ ? "" : std::string(chess::nnue::kBuiltinNetworkName),
            "a network file (kibitz train-nnue); <builtin>: the one compiled in; empty or "
            "<empty>: none (the hand-written evaluation)"),
        {"UseNNUE", EngineOption::Type::kBool, use_nnue_ ? 1 : 0, 0, 1,
         "evaluate with EvalFile's network (else the hand-written evaluation)"}};
    for (const auto name : search::SearchOptions::technique_names())
      o.push_back({std::string(name), EngineOption::Type::kBool,
                   *engine_.options().get(name) ? 1 : 0, 0, 1, "a search technique"});
    return o;
  }
  Result<void> set(std::string_view name, std::int64_t v) {
    auto o = engine_.options();
    if (name == "Hash") {
      engine_.set_hash_mb(static_cast<std::size_t>(v));
    } else if (name == "Move Overhead") {
      engine_.set_move_overhead_ms(v);
    } else if (name == "MultiPV") {
      o.multipv = static_cast<int>(v);
      engine_.set_options(o);
    } else if (name == "Clear Hash") {
      engine_.clear_hash();
    } else if (name == "Ponder") {
      // Permission only: pondering is go with limits.ponder.
    } else if (name == "Threads") {
      o.threads = static_cast<int>(v);
      engine_.set_options(o);
    } else if (name == "UseNNUE") {
      use_nnue_ = v != 0;
      apply_evaluator();
    } else if (o.set(name, v != 0)) {
      engine_.set_options(o);
    }
    return {};
  }
  // EvalFile: a refused file leaves no network (the hand-written evaluation runs), and says why.
  Result<void> set_text(std::string_view name, const std::string& value) {
    if (name != "EvalFile") return {};
    network_.reset();
    Result<void> outcome;
    if (!value.empty() && value != "<empty>") {
      auto net = chess::nnue::load_network(value);
      if (net)
        network_ = std::move(*net);
      else
        outcome = tl::unexpected(Error{
            fmt::format("EvalFile: {} (the hand-written evaluation runs)", net.error().message)});
    }
    apply_evaluator();
    return outcome;
  }
  void new_game() { engine_.new_game(); }
  void apply_evaluator() {
    engine_.set_evaluator(use_nnue_ && network_ ? chess::nnue::SearchEval(network_)
                                                : chess::nnue::SearchEval());
  }
  void stop() {
    latch_.set();
    engine_.stop_search();
  }
  void arm() {
    latch_.arm();
    std::lock_guard lock(ponder_mutex_);  // before the thread: a ponderhit may come at once
    hit_ = searching_ = false;
  }

  EngineReport search(const Position& root, const EngineLimits& l,
                      const AnyEngine::ReportFn& info) {
    GoParams p;
    p.limits.depth = l.depth;
    p.limits.nodes = l.nodes;
    p.movetime = l.movetime_ms;
    p.time_left = l.clock_ms;
    p.increment = l.increment_ms;
    p.moves_to_go = l.moves_to_go;
    p.limits.mate = l.mate;
    p.infinite = l.infinite;
    p.ponder = l.ponder;
    std::vector<chess::Move> searchmoves;
    for (const auto& word : l.searchmoves)
      if (auto m = chess::parse_uci(root, word)) searchmoves.push_back(*m);
    const auto report = [&](const auto& r, std::span<const chess::Move> pv) {
      EngineReport e;
      for (const auto m : pv) e.pv.push_back(chess::to_uci(m));
      if (!e.pv.empty()) e.move = e.pv.front();
      e.score = r.score;
      e.decided = search::is_mate(r.score);
      e.depth = r.depth;
      e.seldepth = r.seldepth;
      e.nodes = r.nodes;
      e.time_ms = r.time_ms;
      return e;
    };
    const ChessEngine::InfoCallback on_info = [&](const search::PvInfo<chess::Move>& i) {
      if (latch_.is_set()) engine_.stop_search();
      {
        // The search has set its clock by now: a ponderhit that came before is applied.
        std::lock_guard lock(ponder_mutex_);
        if (!searching_ && hit_ && !params_.infinite) engine_.start_clock(params_);
        searching_ = true;
      }
      if (!info) return;
      EngineReport e = report(i, i.pv);
      e.multipv = i.multipv;
      e.bound = i.bound == search::Bound::kLower   ? EngineReport::Bound::kLower
                : i.bound == search::Bound::kUpper ? EngineReport::Bound::kUpper
                                                   : EngineReport::Bound::kExact;
      e.hashfull = i.hashfull;
      info(e);
    };
    if (latch_.is_set()) p.limits.depth = 1;  // stopped before it began: answer at once
    {
      std::lock_guard lock(ponder_mutex_);
      params_ = p;
      params_.ponder = false;
    }
    const auto r = engine_.search(root, p, searchmoves, &on_info);
    EngineReport e = report(r, r.pv);
    e.move = r.best ? chess::to_uci(r.best) : "";
    if (r.ponder) e.ponder = chess::to_uci(r.ponder);
    e.nodes_per_depth = r.nodes_per_depth;
    e.stats = r.stats;
    return e;
  }
  // The pondered move was played: the clock of the go starts now (or, before the search has
  // set its own clock, at its first report).
  void ponderhit() {
    std::lock_guard lock(ponder_mutex_);
    hit_ = true;
    if (searching_ && !params_.infinite) engine_.start_clock(params_);
  }

 private:
  ChessEngine engine_{16};
  bool plain_;
  std::shared_ptr<const chess::nnue::Network> network_;
  bool use_nnue_ = true;  // used whenever EvalFile names a network
  StopLatch latch_;
  std::mutex ponder_mutex_;
  GoParams params_;         // the running search's, as ponderhit's clock reads them
  bool hit_ = false;        // ponderhit came
  bool searching_ = false;  // the search has reported (its clock is set)
};

// --- gomoku: the five-stage pipeline -----------------------------------------------------

class GomokuAdapter {
 public:
  using Position = gomoku::Position;
  static constexpr std::string_view kGame = "gomoku";
  static Result<Position> parse(std::string_view text) { return gomoku::parse_position_text(text); }
  static bool finished(const Position& p) { return p.is_terminal(); }

  // threats false: the alpha-beta alone (the match's `alphabeta` bot).
  GomokuAdapter(const GomokuOptions& options, std::size_t hash_mb)
      : engine_(hash_mb), hash_mb_(hash_mb) {
    engine_.set_options(options);
  }
  // Hash, the pipeline's stages (threats, vct, defence, defence_vct), the VCT solver (pn_vct)
  // and each alpha-beta technique (true / false).
  std::vector<EngineOption> options() const {
    const auto& g = engine_.options();
    std::vector<EngineOption> o = {
        {"Hash", EngineOption::Type::kInt, static_cast<std::int64_t>(hash_mb_), 1, 65536,
         "transposition table in MB"},
        {"threats", EngineOption::Type::kBool, g.threats, 0, 1,
         "the threat-space stages (off: the alpha-beta alone)"},
        {"vct", EngineOption::Type::kBool, g.vct, 0, 1, "stage 3: our VCT"},
        {"defence", EngineOption::Type::kBool, g.defence, 0, 1,
         "stage 4: answers to the opponent's VCF"},
        {"defence_vct", EngineOption::Type::kBool, g.defence_vct, 0, 1,
         "stage 4 against the opponent's VCT too"},
        {"pn_vct", EngineOption::Type::kBool, g.pn_vct, 0, 1,
         "VCT by proof-number search (off: by iterative deepening)"}};
    for (const auto name : search::SearchOptions::technique_names())
      o.push_back({std::string(name), EngineOption::Type::kBool, *g.search.get(name) ? 1 : 0, 0, 1,
                   "an alpha-beta technique"});
    return o;
  }
  Result<void> set(std::string_view name, std::int64_t v) {
    if (name == "Hash") {
      hash_mb_ = static_cast<std::size_t>(v);
      engine_.set_hash_mb(hash_mb_);
      return {};
    }
    auto o = engine_.options();
    const bool on = v != 0;
    if (name == "threats")
      o.threats = on;
    else if (name == "vct")
      o.vct = on;
    else if (name == "defence")
      o.defence = on;
    else if (name == "defence_vct")
      o.defence_vct = on;
    else if (name == "pn_vct")
      o.pn_vct = on;
    else
      o.search.set(name, on);
    engine_.set_options(o);
    return {};
  }
  void new_game() { engine_.new_game(); }
  void stop() {
    latch_.set();
    engine_.stop();
  }
  void arm() { latch_.arm(); }

  EngineReport search(const Position& root, const EngineLimits& l,
                      const AnyEngine::ReportFn& info) {
    GomokuLimits g;
    g.depth = l.depth;
    g.nodes = l.nodes;
    // A clock: the Gomocup session's share (what is left over the moves still to come).
    if (l.infinite)
      g.movetime_ms = kForever;
    else if (l.movetime_ms > 0)
      g.movetime_ms = l.movetime_ms;
    else if (l.clock_ms >= 0 || l.move_cap_ms >= 0)
      g.movetime_ms = plan_move_time(mover_clock(l), gomoku_time_policy(root)).soft_ms;
    else if (l.depth > 0 || l.nodes > 0)
      g.movetime_ms = 1'000'000;  // the limit alone (the stages' shares stay finite)
    const auto text = [](std::span<const gomoku::Move> pv) {
      std::vector<std::string> out;
      for (const auto m : pv) out.push_back(gomoku::to_text(m));
      return out;
    };
    const GomokuEngine::InfoCallback on_info = [&](const search::PvInfo<gomoku::Move>& i) {
      if (latch_.is_set()) engine_.stop();
      if (!info) return;
      EngineReport e;
      e.pv = text(i.pv);
      if (!e.pv.empty()) e.move = e.pv.front();
      e.score = i.score;
      e.decided = search::is_mate(i.score);
      e.depth = i.depth;
      e.nodes = i.nodes;
      e.time_ms = i.time_ms;
      info(e);
    };
    if (latch_.is_set()) return first_legal(root);
    const auto d = engine_.think(root, g, &on_info);
    EngineReport e;
    e.move = d.move ? gomoku::to_text(d.move) : "";
    e.pv = text(d.pv);
    e.score = d.score;
    e.how = d.stage;
    e.stage_ms.assign(d.stage_ms.begin(), d.stage_ms.end());
    e.decided =
        d.stage == "win" || d.stage == "vcf" || d.stage == "vct" || search::is_mate(d.score);
    e.depth = d.depth;
    e.nodes = d.nodes;
    e.time_ms = d.time_ms;
    e.nodes_per_depth = d.nodes_per_depth;
    e.stats = d.stats;
    return e;
  }

 private:
  static EngineReport first_legal(const Position& root) {
    MoveList<Position> moves;
    root.candidate_moves(moves);
    EngineReport e;
    if (!moves.empty()) e.move = gomoku::to_text(moves[0]);
    e.how = "stopped";  // before its search began
    return e;
  }
  GomokuEngine engine_;
  std::size_t hash_mb_;
  StopLatch latch_;
};

// --- Hearts: a bot, deciding from what the seat to move has seen -------------------------

// The seat to move's Observation, and whether a pass is one card a move (the whole deal's
// text, as the AnyState plays it) or three at once (a seat's view).
struct HeartsPosition {
  hearts::Observation obs;
  bool picks = false;
  hearts::CardSet picked;  // picks: the cards of the pass picked so far
};

class HeartsAdapter {
 public:
  using Position = HeartsPosition;
  static constexpr std::string_view kGame = "hearts";
  explicit HeartsAdapter(HeartsSetup setup) : setup_(std::move(setup)), cfg_(setup_.search) {}

  Result<Position> parse(std::string_view text) const {
    if (text.starts_with("view")) {
      auto o = hearts::parse_view_text(text, setup_.rules);
      if (!o) return tl::unexpected(o.error());
      return Position{std::move(*o), false, {}};
    }
    auto s = hearts::parse_position_text(text);
    if (!s) return tl::unexpected(s.error());
    const int seat = s->current_player();
    if (seat < 0) return Position{s->information_state(0), true, {}};  // the hand is over
    return Position{s->information_state(seat), true, s->passed(seat)};
  }
  static bool finished(const Position& p) {
    const auto phase = p.obs.phase();
    return phase == hearts::Phase::kOver ||
           (phase == hearts::Phase::kPass ? !p.obs.passed_out().empty() && !p.picks
                                          : p.obs.legal_set().empty());
  }

  // The search's settings (hearts::search_settings): worlds, depth, seed, endgame_cards,
  // model_epsilon, ... as the YAML config and match specs name them.
  std::vector<EngineOption> options() const {
    std::vector<EngineOption> o;
    for (const auto& s : hearts::search_settings()) {
      if (s.kind == hearts::SearchSetting::Kind::kReal) {
        o.push_back(EngineOption::real_option(std::string(s.name), s.get(cfg_), s.min, s.max,
                                              std::string(s.help)));
        continue;
      }
      const bool flag = s.kind == hearts::SearchSetting::Kind::kBool;
      o.push_back({std::string(s.name), flag ? EngineOption::Type::kBool : EngineOption::Type::kInt,
                   s.name == "seed" ? static_cast<std::int64_t>(cfg_.seed)
                                    : static_cast<std::int64_t>(s.get(cfg_)),
                   static_cast<std::int64_t>(s.min), static_cast<std::int64_t>(s.max),
                   std::string(s.help)});
    }
    return o;
  }
  Result<void> set(std::string_view name, std::int64_t v) {
    if (const auto* s = hearts::find_search_setting(name)) s->set(cfg_, v, 0);
    bot_.reset();
    return {};
  }
  Result<void> set_real(std::string_view name, double v) {
    if (const auto* s = hearts::find_search_setting(name)) s->set(cfg_, 0, v);
    bot_.reset();
    return {};
  }
  void new_game() {
    bot_.reset();
    pass_ = {};
  }
  // A decision ends within its budget (900 ms unless the limits say less); it cannot be cut.
  void stop() {}
  void arm() {}

  EngineReport search(const Position& p, const EngineLimits& l, const AnyEngine::ReportFn&) {
    const hearts::Observation& obs = p.obs;
    hearts::SearchCfg cfg = cfg_;
    const int cards = static_cast<int>(obs.hand().size());
    if (l.movetime_ms > 0)
      cfg.time_budget_ms = static_cast<int>(l.movetime_ms);
    else if (l.clock_ms >= 0 || l.move_cap_ms >= 0)
      // The clock over the cards still to play (and this decision), never stretched.
      cfg.time_budget_ms = static_cast<int>(std::min<std::int64_t>(
          plan_move_time(mover_clock(l), even_share_policy(cards + 1)).soft_ms, 1'000'000'000));
    if (l.nodes > 0) cfg.worlds = static_cast<int>(std::min<std::uint64_t>(l.nodes, 100000));
    // One bot while the settings hold: the search reuses its worlds between decisions.
    if (!bot_ || cfg.time_budget_ms != bot_cfg_.time_budget_ms || cfg.worlds != bot_cfg_.worlds) {
      bot_ = std::move(*hearts::make_bot(setup_.bot, cfg, setup_.seed));  // checked at start
      if (setup_.telemetry) bot_->set_telemetry(setup_.telemetry);
      bot_cfg_ = cfg;
    }
    EngineReport e;
    const auto t0 = std::chrono::steady_clock::now();
    if (obs.phase() == hearts::Phase::kPass) {
      hearts::CardSet pass =
          p.picks && !p.picked.empty() && pass_seat_ == obs.seat() && (p.picked - pass_).size() == 0
              ? pass_
              : bot_->choose_pass(obs);
      // Three cards of the hand (the rule bot's pass if a bot ever offers others).
      if (pass.size() != 3 || (pass - obs.hand()).size() != 0) pass = hearts::rule_pass(obs);
      e.how = "pass";
      if (p.picks) {
        // Three picks a seat, one card a move: the pass is chosen at the first pick and kept.
        pass_ = pass;
        pass_seat_ = obs.seat();
        hearts::CardSet left = (pass - p.picked) & obs.hand();
        if (left.empty()) left = obs.hand() - p.picked;  // cannot happen: the pass is ours
        e.move = hearts::to_string(left.pop_lowest());
      } else {
        e.move = hearts::to_string(pass);
      }
    } else {
      hearts::Decision d = bot_->choose_play(obs);
      if (!obs.legal_set().contains(d.card)) {  // never expected: keep the answer legal
        d.card = hearts::rule_play(obs);
        d.strategy = "fallback";
      }
      e.move = hearts::to_string(d.card);
      e.how = d.strategy;
      e.nodes = d.nodes;
      e.worlds = d.worlds;
      e.over_budget = d.budget_exceeded;
      if (!d.moves.empty()) e.score = d.moves.front().utility;
      e.decided = !d.moves.empty() && d.moves.front().forced;
      for (const auto& m : d.moves) {
        EngineReport::Line line;
        line.move = hearts::to_string(m.card);
        line.value = m.utility;
        line.expected = m.expected_points;
        line.variance = m.variance;
        if (m.prior) line.marks.emplace_back("prior");
        if (m.forced) line.marks.emplace_back("forced");
        if (m.moon) line.marks.emplace_back("moon");
        line.note = m.note;
        e.lines.push_back(std::move(line));
      }
      e.time_ms = d.duration_ms;
    }
    e.pv = {e.move};
    if (obs.phase() == hearts::Phase::kPass)
      e.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - t0)
                      .count();
    return e;
  }

 private:
  HeartsSetup setup_;
  hearts::SearchCfg cfg_;
  hearts::SearchCfg bot_cfg_;
  std::unique_ptr<hearts::Bot> bot_;
  hearts::CardSet pass_;
  int pass_seat_ = -1;
};

}  // namespace

std::unique_ptr<AnyEngine> make_chess_any_engine(bool plain) {
  return std::make_unique<EngineRunner<ChessAdapter>>(plain);
}
std::unique_ptr<AnyEngine> make_gomoku_any_engine(bool threats, std::size_t hash_mb) {
  GomokuOptions o;
  o.threats = threats;
  return make_gomoku_any_engine(o, hash_mb);
}
std::unique_ptr<AnyEngine> make_gomoku_any_engine(const GomokuOptions& options,
                                                  std::size_t hash_mb) {
  return std::make_unique<EngineRunner<GomokuAdapter>>(options, hash_mb);
}
std::unique_ptr<AnyEngine> make_hearts_any_engine() {
  return std::make_unique<EngineRunner<HeartsAdapter>>(HeartsSetup{});
}
Result<std::unique_ptr<AnyEngine>> make_hearts_any_engine(const HeartsSetup& setup) {
  // The name only: the bot itself is made at the first decision.
  const auto names = hearts::bot_names();
  if (std::find(names.begin(), names.end(), setup.bot) == names.end())
    return fail("unknown hearts bot '{}' (expected random, rule or search)", setup.bot);
  return std::unique_ptr<AnyEngine>(std::make_unique<EngineRunner<HeartsAdapter>>(setup));
}

}  // namespace kibitz::engine

#include "engine/go_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/rng.hpp"
#include "core/text.hpp"
#include "engine/go_deep.hpp"
#include "games/go/search_traits.hpp"

#include "engine/generic_mcts.hpp"
#include "games/go/go_game.hpp"
#include "search/mcts/mcts_impl.hpp"

namespace kibitz::search {
template class Mcts<go::Position>;
}  // namespace kibitz::search

namespace kibitz::engine {

using go::Move;
using go::Position;

namespace {

search::MctsOptions mcts_options(const GoEngineOptions& o) {
  search::MctsOptions m;
  m.threads = std::max(1, o.threads);
  m.seed = o.seed;
  m.max_nodes = o.max_nodes;
  // RAVE's weight falls to 1/2 at 200 child visits, not the generic 1000: with the learned
  // priors the AMAF values are mostly noise once a child has some visits of its own.
  // Measured in self-play against k = 1000 (BENCHMARKS.md): 21-4 on 19x19 at 1,500 visits,
  // 112-63 on 9x9 at 3,000; no RAVE at all went 16-9 on 19x19, k = 50 12-5.
  m.rave = o.rave_k > 0.0;
  m.rave_k = o.rave_k;
  return m;
}

// Same stones, side to move, ko, pass state and move count: the tree's statistics still hold.
bool same_position(const Position& a, const Position& b) {
  return a.size() == b.size() && a.komi() == b.komi() && a.hash() == b.hash() &&
         a.moves_played() == b.moves_played() && a.stone_hash() == b.stone_hash();
}

}  // namespace

GoEngine::GoEngine(const GoEngineOptions& options)
    : options_(options), mcts_(mcts_options(options)) {}

GoEngine::~GoEngine() = default;

GoClock go_clock_for(std::int64_t base_ms, std::int64_t increment_ms, int moves) {
  GoClock c;
  c.set = true;
  if (moves > 0) {
    c.byo_ms = base_ms;
    c.byo_stones = moves;
  } else {
    c.main_ms = base_ms;
    c.byo_ms = increment_ms;
    c.byo_stones = increment_ms > 0 ? 1 : 0;
  }
  return c;
}

void GoEngine::new_game(const go::Rules& rules) {
  resign_streak_ = {0, 0};
  resign_last_move_ = {-10, -10};
  mcts_.set_position(Position(rules));
  has_tree_ = true;
}

void GoEngine::set_position(const Position& pos) {
  if (has_tree_) {
    const Position& root = mcts_.root_state();
    if (same_position(root, pos)) return;
    const Move last = pos.last_move();
    if (pos.moves_played() == root.moves_played() + 1 && root.is_legal(last)) {
      Position next = root;
      next.apply(last);
      if (same_position(next, pos)) {
        mcts_.advance(last);
        return;
      }
    }
  }
  mcts_.set_position(pos);
  has_tree_ = true;
}

void GoEngine::play(Move m) {
  if (has_tree_ && mcts_.root_state().is_legal(m)) mcts_.advance(m);
}

GoEngine::ClockLimits GoEngine::clock_limits_ms(const Position& pos) const {
  const int me = pos.to_move() == go::kWhite ? 1 : 0;
  const GoClock& c = clock_;
  if (!c.set && !c.left_known[me]) return {kDefaultMoveMs, kDefaultMoveMs};
  // GTP: byo-yomi time with no stones means no time limit.
  if (c.set && c.byo_stones == 0 && c.byo_ms > 0) return {kDefaultMoveMs, kDefaultMoveMs};
  std::int64_t left = c.left_known[me] ? c.left_ms[me] : c.main_ms;
  int stones = c.left_known[me] ? c.left_stones[me] : 0;
  if (!c.left_known[me] && c.main_ms == 0 && c.byo_stones > 0) {  // byo-yomi from the start
    left = c.byo_ms;
    stones = c.byo_stones;
  }
  MoverClock clock{.left_ms = std::max<std::int64_t>(0, left),
                   .increment_ms = 0,
                   .moves_to_go = stones,
                   .period_ms = stones > 0 ? 0 : c.byo_ms,
                   .period_moves = stones > 0 ? 0 : c.byo_stones,
                   .move_cap_ms = -1};
  const ClockAllocation a = plan_move_time(clock, go_time_policy(pos));
  return {a.soft_ms, a.hard_ms};
}

TimePolicy go_time_policy(const Position& pos) {
  // Main time: a share of max(20, empty points / 3) moves, an unclear move up to three
  // shares but never more than a sixth of what is left. A period: its stones' share, an
  // unclear move up to twice it while every other stone keeps half its own (one stone: the
  // whole period). The safety margin scales with the share: a fixed 100 ms would keep 2.7 s
  // of a 3 s sudden-death clock unused (every share below it fell to the floor).
  const int empty = static_cast<int>(pos.empty_points().size());
  TimePolicy p = even_share_policy(std::max(20, empty / 3));
  p.margin_ms = GoEngine::kSafetyMs;
  p.increment_percent = 0;
  p.stretch = 3;
  p.hard_cap = {1, 6};
  p.period_stretch = 2;
  return p;
}

void charge_clock(GoClock& c, int me, std::int64_t elapsed_ms) {
  if (!c.set || (c.byo_stones == 0 && c.byo_ms > 0)) return;
  std::int64_t& left = c.left_ms[me];
  int& stones = c.left_stones[me];
  if (!c.left_known[me]) {
    c.left_known[me] = true;
    left = c.main_ms;
    stones = 0;
    if (c.main_ms == 0 && c.byo_stones > 0) {
      left = c.byo_ms;
      stones = c.byo_stones;
    }
  }
  left -= elapsed_ms;
  if (stones == 0) {  // main time
    if (left > 0 || c.byo_stones == 0) {
      left = std::max<std::int64_t>(left, 0);
      return;
    }
    left += c.byo_ms;  // the overrun is spent in the first period
    stones = c.byo_stones;
  }
  if (--stones == 0 || left <= 0) {  // the period's stones are played (or it is overrun)
    left = c.byo_ms;
    stones = c.byo_stones;
  }
}

double GoEngine::search_komi(const Position& pos) const {
  if (!options_.dynamic_komi || handicap_ < 2 || deep_) return pos.komi();
  const double area = static_cast<double>(pos.size() * pos.size());
  const double end = kDynamicKomiMoves * area / 361.0;
  const double left = std::max(0.0, 1.0 - pos.moves_played() / end);
  const double extra = std::round(kHandicapStonePoints * handicap_ * left);
  return pos.to_move() == go::kBlack ? pos.komi() + extra : pos.komi() - extra;
}

// Every stoppable search runs under a published budget (run_search, the deep search);
// analyze()'s short first search has none, so a stop lets it finish.
void GoEngine::stop() {
  stop_requested_.store(true);
  if (TimeBudget* b = budget_.load()) b->request_stop();
}

GoEngine::Result GoEngine::run_search(TimeBudget& budget, const InfoCallback* info) {
  budget_.store(&budget);
  // A stop() that came before the budget was published must still end this search.
  if (stop_requested_.load()) budget.request_stop();
  Result r = mcts_.search(budget, info);
  budget_.store(nullptr);
  return r;
}

GoDecision GoEngine::genmove(const Position& pos, const GoLimits& limits, bool pass_shortcut,
                             const InfoCallback* info, std::int64_t info_interval_ms) {
  stop_requested_.store(false);
  GoDecision d;
  if (pos.is_terminal()) {
    d.move = Move::pass();
    d.reason = "no-moves";
    return d;
  }
  const go::Color me = pos.to_move();
  const double my_score = me == go::kBlack ? pos.score() : -pos.score();
  // The opponent passed and the board already wins (or ties) for us: passing ends it.
  if (pass_shortcut && pos.passes() == 1 && my_score >= 0) {
    d.move = Move::pass();
    d.reason = "pass-shortcut";
    return d;
  }

  Position searched = pos;
  searched.set_komi(search_komi(pos));
  set_position(searched);
  search::MctsOptions o = mcts_.options();
  o.max_playouts = 0;
  o.max_visits = limits.visits;
  o.info_interval_ms = info ? info_interval_ms : 0;
  mcts_.set_options(o);
  const int me_index = me == go::kWhite ? 1 : 0;
  const bool has_clock = clock_.set || clock_.left_known[me_index];
  TimeBudget budget;
  std::int64_t move_ms = 0;  // the move's time budget (0: none)
  std::int64_t most_ms = 0;  // how far an unclear move may go (a clock without the deep search)
  o.stop_when_decided = o.extend_when_unclear = false;
  mcts_.set_options(o);
  if (limits.movetime_ms > 0) {
    move_ms = limits.movetime_ms;
  } else if (limits.visits == 0 && (!deep_ || has_clock)) {
    const ClockLimits l = clock_limits_ms(pos);
    move_ms = l.target_ms;
    // On a real clock the time a decided move saves goes to the unclear ones.
    if (has_clock && !deep_) {
      most_ms = l.most_ms;
      o.stop_when_decided = o.extend_when_unclear = true;
      mcts_.set_options(o);
    }
  } else if (limits.visits == 0) {
    o.max_visits = deep_->config().standard_visits;  // the deep search's standard search
    mcts_.set_options(o);
  }
  // Under a clock with the deep search, the standard search has its share of the move's time.
  std::int64_t standard_ms = move_ms;
  if (deep_ && has_clock && limits.movetime_ms <= 0 && move_ms > 0)
    standard_ms = std::max<std::int64_t>(
        10, static_cast<std::int64_t>(deep_->config().standard_time_share * move_ms));
  if (move_ms > 0) budget.start(standard_ms, std::max(standard_ms, most_ms));
  d.result = run_search(budget, info);
  const Result& r = d.result;
  if (r.moves.empty()) {
    d.move = Move::pass();
    d.reason = "no-moves";
    return d;
  }
  d.move = r.best;
  d.value = r.value;
  d.playouts = r.playouts;
  if (deep_ && !stop_requested_.load()) {
    TimeBudget deep_budget;
    if (move_ms > 0) {
      const auto ms = static_cast<std::int64_t>(deep_->config().time_factor * move_ms);
      deep_budget.start(std::max<std::int64_t>(0, ms - budget.elapsed_ms()),
                        std::max<std::int64_t>(0, ms - budget.elapsed_ms()));
    }
    const double seconds_left = clock_.left_known[me_index] ? clock_.left_ms[me_index] / 1000.0
                                : clock_.set                ? clock_.main_ms / 1000.0
                                                            : -1.0;
    budget_.store(&deep_budget);
    if (stop_requested_.load()) deep_budget.request_stop();
    const auto a = deep_->decide(pos, r, deep_budget, seconds_left, budget.elapsed_ms(), &mcts_);
    budget_.store(nullptr);
    d.deep = true;
    d.source = a.source;
    d.move = a.move;
    d.value = a.value;
    d.playouts = a.playouts;
  }
  if (options_.resign && r.root_visits >= options_.resign_min_visits &&
      d.value < options_.resign_value) {
    // Only when the previous own move (two plies back) also looked lost.
    const int played = pos.moves_played();
    resign_streak_[me_index] =
        resign_last_move_[me_index] == played - 2 ? resign_streak_[me_index] + 1 : 1;
    resign_last_move_[me_index] = played;
    if (resign_streak_[me_index] >= options_.resign_moves) {
      d.move = Move::resign();
      d.reason = "resign";
      return d;
    }
  }
  if (!d.move.is_pass()) return d;
  // The search prefers to pass. Plain genmove accepts it unless it ends the game lost;
  // cleanup keeps playing any sensible point (captures of dead stones, dame).
  const bool pass_loses = pos.passes() == 1 && my_score < 0;
  if (pass_shortcut && !pass_loses) return d;
  for (const auto& ms : r.moves) {
    if (!ms.move.is_point()) continue;
    if (pass_shortcut || go::playout_acceptable(pos, ms.move.sq)) {
      d.move = ms.move;
      break;
    }
  }
  return d;
}

GoEngine::Result GoEngine::analyze(const Position& pos, const InfoCallback& info,
                                   std::int64_t interval_ms, std::uint64_t min_playouts) {
  set_position(pos);
  if (pos.is_terminal()) return mcts_.result();
  search::MctsOptions o = mcts_.options();
  o.max_visits = 0;
  o.max_playouts = min_playouts;
  o.stop_when_decided = o.extend_when_unclear = false;
  o.info_interval_ms = 0;
  mcts_.set_options(o);
  TimeBudget first;
  Result r = mcts_.search(first);  // short and unstoppable: some statistics to show
  if (!stop_requested_.load()) {
    o.max_playouts = 0;
    o.info_interval_ms = std::max<std::int64_t>(0, interval_ms);
    mcts_.set_options(o);
    TimeBudget budget;
    r = run_search(budget, interval_ms > 0 ? &info : nullptr);
  }
  info(r);
  return r;
}

std::vector<Move> GoEngine::pv_through(Move m) const {
  using Node = search::Mcts<Position>::Node;
  // Raw indexing: a node expanded after nodes() was read has children past the span's end
  // (the arena itself is allocated once, so they are there).
  const Node* nodes = mcts_.nodes().data();
  const bool any = !mcts_.nodes().empty();
  const auto expanded = [](const Node& n) {
    return std::atomic_ref<std::uint8_t>(const_cast<std::uint8_t&>(n.state))
               .load(std::memory_order_acquire) == search::Mcts<Position>::kExpanded;
  };
  const auto visits = [](const Node& n) {
    return std::atomic_ref<std::uint32_t>(const_cast<std::uint32_t&>(n.visits))
        .load(std::memory_order_relaxed);
  };
  std::vector<Move> pv{m};
  if (!any || !expanded(nodes[0])) return pv;
  const Node* n = nullptr;
  for (std::uint32_t c = nodes[0].first_child; c < nodes[0].first_child + nodes[0].num_children;
       ++c)
    if (nodes[c].move == m) n = &nodes[c];
  while (n && expanded(*n) && n->num_children > 0 && pv.size() < 64) {
    const Node* best = nullptr;
    for (std::uint32_t c = n->first_child; c < n->first_child + n->num_children; ++c)
      if (!best || visits(nodes[c]) > visits(*best)) best = &nodes[c];
    if (visits(*best) == 0) break;
    pv.push_back(best->move);
    n = best;
  }
  return pv;
}

std::vector<GoBenchPosition> go_bench_positions() {
  // The middle games are the first 30 (9x9) and 120 (19x19) moves of games Kibitz played
  // against itself (3000 and 800 visits a move).
  return {
      {9, ""},
      {9,
       "e3 g7 f5 e6 c6 d5 f6 f7 d7 e7 c5 e4 g3 d3 d2 f3 e2 f4 f2 c4 g4 d8 b4 b3 c8 b5 b6 a5 e8 "
       "d6"},
      {19, ""},
      {19,
       "s17 s18 n16 c14 g18 j6 g2 m16 c8 g19 h13 k16 f3 e9 q9 p12 p7 p6 p14 p18 s15 q14 f16 o3 "
       "m15 n17 r7 n4 k13 q7 q8 h14 q15 c9 j18 n18 f5 l11 q6 j19 c13 d13 l16 l15 h19 q12 o16 j15 "
       "p5 o6 d5 p15 p3 h18 h17 r15 q16 o13 r14 j17 k15 k18 l14 n15 n5 m17 j14 g13 n14 o15 j16 "
       "h16 o14 p16 p17 g1 d14 b13 c12 d3 m4 j18 m3 r16 d4 j13 h12 j12 o4 f2 b14 c15 r17 q13 b9 "
       "b12 m9 h5 c10 l17 g14 h15 f1 d9 c3 h11 g12 f13 b11 e2 q18 g3 h2 f4 s9 d12 c11 a11 b3 "
       "t13"},
  };
}

BenchReport run_go_bench(const BenchOptions& options,
                         const std::function<void(const BenchPosition&)>& progress) {
  BenchReport report;
  for (const GoBenchPosition& b : go_bench_positions()) {
    go::Rules rules;
    rules.size = b.size;
    Position pos(rules);
    bool ok = true;
    for (const auto& word : split_blanks(b.moves)) {
      const auto m = go::parse_vertex(word, b.size);
      if (!m || !pos.is_legal(*m)) {
        ok = false;  // the lists are fixed and valid; a test checks it
        break;
      }
      pos.apply(*m);
    }
    if (!ok) continue;
    search::MctsOptions o = mcts_options(GoEngineOptions{});  // the engine's search settings
    o.threads = std::max(1, options.threads);
    o.max_playouts = options.movetime_ms > 0 ? 0 : options.playouts;
    search::Mcts<Position> mcts(pos, o);
    TimeBudget budget;
    if (options.movetime_ms > 0) budget.start(options.movetime_ms, options.movetime_ms);
    const auto r = mcts.search(budget);
    BenchPosition bp;
    bp.position = fmt::format("{}x{} {} moves", b.size, b.size, pos.moves_played());
    bp.nodes = r.playouts;
    bp.time_ms = r.time_ms;
    bp.depth = static_cast<int>(r.pv.size());
    bp.best = go::to_vertex(r.best, b.size);
    report.signature += r.nodes;
    report.add(std::move(bp), {});
    if (progress) progress(report.positions.back());
  }
  return report;
}

GoOwnership estimate_ownership(const Position& pos, int playouts, std::uint64_t seed) {
  const int n = pos.size();
  GoOwnership out;
  out.owner.assign(static_cast<std::size_t>(n * n), 0.0);
  const go::Color me = pos.to_move();
  Rng rng(seed);
  std::array<go::Color, go::kNumPoints> area{};
  double score_sum = 0;
  for (int k = 0; k < playouts; ++k) {
    Position p = pos;
    while (!p.is_terminal()) p.apply(go::playout_move(p, rng));
    p.area_map(area);
    const double s = p.score();  // black's lead
    score_sum += me == go::kBlack ? s : -s;
    for (int y = n - 1, i = 0; y >= 0; --y)
      for (int x = 0; x < n; ++x, ++i) {
        const go::Color c = area[go::point_of(x, y)];
        if (c == go::kBlack || c == go::kWhite) out.owner[i] += c == me ? 1.0 : -1.0;
      }
    ++out.playouts;
  }
  if (out.playouts > 0) {
    for (double& v : out.owner) v /= out.playouts;
    out.score_lead = score_sum / out.playouts;
  }
  return out;
}

Result<MctsAnswer> go_mcts(std::string_view text, const MctsRequest& r) {
  return generic_mcts<go::Position>(
      text, r, go::parse_position_text,
      [](const go::Position& p, go::Move m) { return go::to_vertex(m, p.size()); });
}

}  // namespace kibitz::engine

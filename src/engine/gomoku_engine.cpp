#include "engine/gomoku_engine.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <future>
#include <limits>

#include "core/text.hpp"
#include "engine/alphabeta_engine_impl.hpp"
#include "engine/generic_mcts.hpp"
#include "games/gomoku/gomoku_game.hpp"

namespace kibitz::search {
template class AlphaBeta<gomoku::Position>;
template class ParallelSearch<gomoku::Position>;
}  // namespace kibitz::search

namespace kibitz::engine {

template class AlphaBetaEngine<gomoku::Position>;

using gomoku::Move;
using gomoku::Position;

GomokuEngine::GomokuEngine(std::size_t hash_mb) : alphabeta_(hash_mb) {
  alphabeta_.set_move_overhead_ms(0);  // the caller's budget already leaves its margin
}

GomokuEngine::~GomokuEngine() = default;

void GomokuEngine::set_options(const GomokuOptions& o) {
  options_ = o;
  alphabeta_.set_options(o.search);
}

void GomokuEngine::set_hash_mb(std::size_t mb) { alphabeta_.set_hash_mb(mb); }

void GomokuEngine::new_game() {
  alphabeta_.new_game();
  threats_.clear();
  pn_threats_.clear();
}

search::ThreatResult<Position> GomokuEngine::solve(Position& pos, search::ThreatKind kind,
                                                   const TimeBudget& budget) {
  if (kind == search::ThreatKind::kVct && options_.pn_vct)
    return pn_threats_.solve(pos, kind, {.max_depth = options_.pn_vct_depth, .budget = &budget});
  const int depth = kind == search::ThreatKind::kVcf ? options_.vcf_depth : options_.vct_depth;
  return threats_.solve(pos, kind, {.max_depth = depth, .budget = &budget});
}

void GomokuEngine::stop() {
  stop_requested_.store(true);
  if (TimeBudget* b = budget_.load()) b->request_stop();
  alphabeta_.stop();
}

GomokuDecision GomokuEngine::think(const Position& root, const GomokuLimits& limits,
                                   const InfoCallback* on_info) {
  stop_requested_.store(false);
  TimeBudget budget(limits.movetime_ms, limits.movetime_ms);
  budget_.store(&budget);
  GomokuDecision d;
  std::int64_t stage_start_us = 0;
  const auto stage_done = [&](const char* name) {
    const std::int64_t now = budget.elapsed_us();
    d.stage_ms.emplace_back(name, static_cast<double>(now - stage_start_us) / 1000.0);
    stage_start_us = now;
  };
  auto finish = [&](Move m, const char* stage, int score) {
    d.move = m;
    d.stage = stage;
    d.score = score;
    d.time_ms = budget.elapsed_ms();
    d.budget_exceeded = budget.exceeded();
    budget_.store(nullptr);
    return d;
  };
  Position pos = root;

  // 1. A win at once.
  if (const Move w = pos.winning_move()) return finish(w, "win", search::mate_in(1));

  // Under a four there is at most a handful of answers; one of them is the move.
  MoveList<Position> forced;
  if (pos.opponent_can_win()) {
    pos.defence_moves(forced);
    if (forced.size() == 1) return finish(forced[0], "forced", 0);
  }

  const auto slice = [&](double share) {
    return std::max<TimeBudget::Millis>(
        1, static_cast<TimeBudget::Millis>(static_cast<double>(limits.movetime_ms) * share));
  };
  std::vector<Move> searchmoves;
  if (options_.threats && forced.size() == 0) {
    // 2. VCF, 3. VCT for the side to move, each with its share of the move.
    const auto attack = [&](search::ThreatKind kind, double share) {
      TimeBudget b(slice(share), slice(share));
      const auto r = solve(pos, kind, b);
      stage_done(kind == search::ThreatKind::kVcf ? "vcf" : "vct");
      d.nodes += r.nodes;
      if (r.win) d.pv = r.line;
      return r;
    };
    if (const auto r = attack(search::ThreatKind::kVcf, options_.vcf_share); r.win)
      return finish(r.move, "vcf", search::mate_in(static_cast<int>(r.line.size())));
    if (options_.vct && !stop_requested_.load())
      if (const auto r = attack(search::ThreatKind::kVct, options_.vct_share); r.win)
        return finish(r.move, "vct", search::mate_in(static_cast<int>(r.line.size())));
    // 4. Defence: would the opponent win by force if it were its turn?
    // The whole stage (the opponent's threat search and the check of our candidates) has its
    // own share of the move, so that the alpha-beta keeps most of the time.
    TimeBudget defence(slice(options_.defence_share), slice(options_.defence_share));
    Position::Undo nu;
    if (options_.defence) pos.make_null(nu);
    TimeBudget b(slice(options_.vcf_share), slice(options_.vcf_share));
    auto kind = search::ThreatKind::kVcf;
    auto threat = options_.defence ? solve(pos, kind, b) : search::ThreatResult<Position>{};
    if (options_.defence && !threat.win && options_.vct && options_.defence_vct &&
        !b.soft_expired()) {
      kind = search::ThreatKind::kVct;
      threat = solve(pos, kind, b);
    }
    if (options_.defence) pos.unmake_null(nu);
    d.nodes += threat.nodes;
    if (threat.win) {
      // Candidates: our moves near stones; keep those after which the opponent's forced win
      // is gone (checked with the same threat search, within what the budget allows).
      // Most promising first (the shapes a move makes and blocks): when the time runs out
      // before every candidate is checked, the unchecked ones stay in (unproven, not lost).
      MoveList<Position> candidates;
      pos.candidate_moves(candidates);
      std::vector<Move> order(candidates.begin(), candidates.end());
      std::stable_sort(order.begin(), order.end(), [&](Move x, Move y) {
        return SearchTraits<Position>::move_value(pos, x) >
               SearchTraits<Position>::move_value(pos, y);
      });
      std::vector<Move> safe;
      std::size_t checked = 0;
      for (const Move m : order) {
        if (defence.soft_expired() || stop_requested_.load()) break;
        ++checked;
        Position::Undo u;
        pos.make(m, u);
        TimeBudget each(slice(0.02), slice(0.02));
        const auto r =
            pos.is_terminal() ? search::ThreatResult<Position>{} : solve(pos, kind, each);
        pos.unmake(m, u);
        d.nodes += r.nodes;
        if (!r.win) safe.push_back(m);  // an aborted check is no proof of a loss
      }
      const bool complete = checked == order.size();
      if (!complete && !safe.empty())
        safe.insert(safe.end(), order.begin() + static_cast<std::ptrdiff_t>(checked), order.end());
      if (safe.size() == 1 && complete) {
        stage_done("defence");
        return finish(safe[0], "defence", 0);
      }
      if (!safe.empty()) {
        searchmoves = std::move(safe);
        d.stage = "defence";
      }
    }
    if (options_.defence) stage_done("defence");
  }
  if (searchmoves.empty()) {
    if (forced.size() > 0) {
      searchmoves.assign(forced.begin(), forced.end());
    } else {
      MoveList<Position> candidates;
      pos.candidate_moves(candidates);
      searchmoves.assign(candidates.begin(), candidates.end());
    }
  }

  // 5. Alpha-beta with what is left of the move's time.
  GoParams params;
  params.limits.nodes = limits.nodes;
  params.limits.depth = limits.depth;
  params.movetime = std::max<TimeBudget::Millis>(1, limits.movetime_ms - budget.elapsed_ms());
  if (limits.nodes || limits.depth) params.movetime = 0;
  // On the engine's thread, so that stop() can end it.
  std::promise<AlphaBetaEngine<Position>::Result> done;
  auto result = done.get_future();
  alphabeta_.go(pos, params, searchmoves, on_info ? *on_info : InfoCallback{},
                [&done](const AlphaBetaEngine<Position>::Result& res) { done.set_value(res); });
  if (stop_requested_.load()) alphabeta_.stop();
  const auto r = result.get();
  alphabeta_.wait();
  stage_done("alphabeta");
  d.nodes += r.nodes;
  d.depth = r.depth;
  d.nodes_per_depth = r.nodes_per_depth;
  d.stats = r.stats;
  d.pv.assign(r.pv.begin(), r.pv.end());
  Move best = r.best ? r.best : searchmoves.front();
  const std::string stage = d.stage.empty() ? "alphabeta" : d.stage;
  d.stage.clear();
  auto out = finish(best, "", r.score);
  out.stage = stage;
  return out;
}

std::vector<std::string_view> gomoku_bench_positions() {
  // Plies 14 to 30 of games Kibitz played against itself (pipeline against alpha-beta, 100 ms
  // a move) from random three-stone openings; none is decided.
  return {
      "f10 h7 i6 h8 h6 h10 g4 g6 f5 e6 h5 f3 j7 k8",
      "f10 h7 i6 h8 h6 g6 i8 i7 j7 j6 k5 h9 h5 k8",
      "f10 h7 i6 h8 h6 g6 i8 i7 j7 j6 k5 h9 h5 k8 h10 g7 g4 f3 i5 j5 i10 g10",
      "f10 h7 i6 h8 h6 g6 i8 i7 j7 j6 k5 h9 h5 k8 h10 g7 g4 f3 i5 j5 i10 g10 i9 f7 e7 g9 g8 g11 "
      "g12 h11",
      "f8 j6 j7 i5 f6 f5 h4 i3 i4 g4 h3 h5 g5 e2",
      "f8 j6 j7 i5 f6 f5 h4 i3 i4 g4 h3 h5 g5 e2 f3 e4 k6 j5 e7 d8 i8 l5 k5",
      "f8 j6 j7 i5 f6 f5 h4 i3 i4 g4 h3 h5 g5 e2 f3 e4 k6 j5 e7 d8 i8 l5 k5 d3 g10 h9 g6 c2 b1 c4",
      "f8 j6 j7 i5 f6 f5 h4 i3 h5 i6 i4 l6 h6 h7",
      "f8 j6 j7 i5 f6 f5 h4 i3 h5 i6 i4 l6 h6 h7 g6 j3 e8 f7 e6 d6 e7 k6 m6",
      "i9 f7 f6 h8 e7 e6 g8 g4 g5 h4 c9 d8 g9 h3",
      "i9 f7 f6 h8 e7 e6 g5 d8 g8 h5 g6 g7 h7 c4",
      "j6 f10 i6 e11 g6 h6 g9 g10 e7 h10 e10 f11 g7 i10 j10",
      "j6 f10 i6 e11 k6 l6 g9 e10 g8 g10 h10 d10 c10 c9",
      "j6 f10 i6 e11 k6 l6 g9 e10 g8 g10 h10 d10 c10 c9 h6 g6 f12 e9 e8 d8 g11 e13 e12",
  };
}

std::vector<std::array<Move, 3>> swap2_openings(int size) {
  const int c = size / 2;
  std::vector<std::array<Move, 3>> out;
  // White straight above black (dx 0, dy -1) or diagonally (dx 1, dy -1). The third stone's
  // square is taken up to the one mirror that keeps the first two in place: x -> -x for the
  // straight opening, (x, y) -> (-y, -x) for the diagonal one.
  for (const bool diagonal : {false, true}) {
    const int wx = diagonal ? 1 : 0, wy = -1;
    std::vector<std::pair<int, int>> seen;
    for (int dy = -2; dy <= 2; ++dy)
      for (int dx = -2; dx <= 2; ++dx) {
        if ((dx == 0 && dy == 0) || (dx == wx && dy == wy)) continue;
        const std::pair<int, int> mirror = diagonal ? std::pair{-dy, -dx} : std::pair{-dx, dy};
        if (std::find(seen.begin(), seen.end(), mirror) != seen.end()) continue;
        seen.emplace_back(dx, dy);
        out.push_back({Move{static_cast<std::uint16_t>(gomoku::square_of(c, c))},
                       Move{static_cast<std::uint16_t>(gomoku::square_of(c + wx, c + wy))},
                       Move{static_cast<std::uint16_t>(gomoku::square_of(c + dx, c + dy))}});
      }
  }
  return out;
}

TimePolicy gomoku_time_policy(const Position& pos) {
  const int empty = pos.size() * pos.size() - pos.stones_on_board();
  TimePolicy p = even_share_policy(std::max(20, empty / 4));
  p.reserve_ms = 60;  // at most; a tenth of a short clock
  p.reserve_divisor = 10;
  return p;
}

Swap2Answer swap2_decide(AnyEngine& engine, std::string_view text, const Position& pos,
                         TimeBudget::Millis budget_ms) {
  Swap2Answer a;
  // The score of a position for the side to move, and its move (a failed search: none).
  const auto judge = [&engine](const std::string& position, TimeBudget::Millis ms) {
    EngineReport r;
    if (engine.set_position(position)) {
      EngineLimits l;
      l.movetime_ms = std::max<TimeBudget::Millis>(1, ms);
      if (auto answer = engine.think(l)) r = *answer;
    }
    return r;
  };
  const int stones = pos.stones_on_board();
  if (stones == 0) {
    const auto openings = swap2_openings(pos.size());
    const TimeBudget::Millis each = budget_ms / static_cast<TimeBudget::Millis>(openings.size());
    int best_score = 0;
    for (const auto& o : openings) {
      std::string position(text);
      for (const Move m : o) position += " " + gomoku::to_text(m);
      const int score = static_cast<int>(judge(position, each).score);
      if (a.stones.empty() || std::abs(score) < std::abs(best_score)) {
        best_score = score;
        a.stones.assign(o.begin(), o.end());
      }
    }
    a.reason = fmt::format("placed the opening of {} scored nearest to even ({} for white)",
                           openings.size(), best_score);
    return a;
  }
  // White to move (3 or 5 stones): the side that would play on is white.
  const EngineReport d = judge(std::string(text), budget_ms);
  const auto move = gomoku::parse_move(pos, d.move);
  const int score = static_cast<int>(d.score);
  if (score < 0 || !move) {
    a.swap = true;
    a.reason = fmt::format("white to move scores {}: taking black", score);
  } else {
    a.stones.push_back(*move);
    a.reason = fmt::format("white to move scores {}: staying white with {}", score,
                           gomoku::to_gomocup(*move));
  }
  return a;
}

Result<MctsAnswer> gomoku_mcts(std::string_view text, const MctsRequest& r) {
  return generic_mcts<gomoku::Position>(
      text, r, gomoku::parse_position_text,
      [](const gomoku::Position&, gomoku::Move m) { return gomoku::to_text(m); });
}

}  // namespace kibitz::engine

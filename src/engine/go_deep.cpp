#include "engine/go_deep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/rng.hpp"
#include "games/go/search_traits.hpp"
#include "search/mcts/deep_search_impl.hpp"
#include "store/postgres/pg_store.hpp"

namespace kibitz::search {
template class DeepSearch<go::Position, engine::GoPositionCache>;
}  // namespace kibitz::search

namespace kibitz::engine {

using go::Move;
using go::Position;

namespace {

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// --- configuration ------------------------------------------------------------------------

// Known keys per section (the same under presets.<name>).
const std::vector<std::pair<std::string_view, std::vector<std::string_view>>>& go_config_keys() {
  static const std::vector<std::pair<std::string_view, std::vector<std::string_view>>> keys = {
      {"engine", {"threads", "seed", "resign"}},
      {"standard", {"visits"}},
      {"rag_query", {"uncertainty_threshold"}},
      {"deep_search",
       {"enabled", "threshold_offset", "workers", "threads", "time_factor", "standard_time_share",
        "continue_tree", "robust_fraction"}},
      {"deep_mcts",
       {"max_visits", "policy_convergence_threshold", "value_convergence_threshold",
        "convergence_check_visits"}},
      {"recursion",
       {"max_recursion_depth", "force_exploration_top_n", "top_children", "adaptive",
        "adaptive_deep_seconds", "adaptive_standard_seconds"}},
      {"context_selection",
       {"phase_weight", "quality_weight", "recency_weight", "recency_half_life_days",
        "max_contexts"}},
      {"database", {"path"}},
      {"ann",
       {"enabled", "blend_priors", "blend_weight", "neighbours", "max_distance", "m",
        "ef_construction", "ef_search"}},
  };
  return keys;
}

Result<void> check_go_keys(const Config& c, const std::string& prefix) {
  const auto& known = go_config_keys();
  for (const auto& section : c.keys(prefix)) {
    const std::string where = prefix.empty() ? section : prefix + "." + section;
    if (prefix.empty() && section == "presets") continue;
    const auto it = std::find_if(known.begin(), known.end(),
                                 [&](const auto& kv) { return kv.first == section; });
    if (it == known.end()) return fail("{}: unknown section '{}'", c.source(), where);
    for (const auto& k : c.keys(where))
      if (std::find(it->second.begin(), it->second.end(), k) == it->second.end())
        return fail("{}: unknown key '{}.{}'", c.source(), where, k);
  }
  return {};
}

// Reads `key` from the preset first, then from the file's top level.
class GoConfigReader {
 public:
  GoConfigReader(const Config& c, std::string_view preset) : c_(c) {
    if (!preset.empty()) prefix_ = fmt::format("presets.{}.", preset);
  }
  std::string at(std::string_view key) const {
    if (!prefix_.empty()) {
      std::string k = prefix_ + std::string(key);
      if (c_.has(k)) return k;
    }
    return std::string(key);
  }
  template <class T>
  Result<void> number(std::string_view key, T& out) {
    if constexpr (std::is_floating_point_v<T>) {
      auto v = c_.get_double(at(key), out);
      if (!v) return tl::unexpected(v.error());
      out = static_cast<T>(*v);
    } else {
      auto v = c_.get_int(at(key), static_cast<std::int64_t>(out));
      if (!v) return tl::unexpected(v.error());
      // Checked before the cast: -5 in an unsigned field would read as 2^64 - 5.
      if (std::is_unsigned_v<T> && *v < 0)
        return fail("{}: {} must be 0 or more (is {})", c_.source(), at(key), *v);
      out = static_cast<T>(*v);
    }
    return {};
  }
  Result<void> flag(std::string_view key, bool& out) {
    auto v = c_.get_bool(at(key), out);
    if (!v) return tl::unexpected(v.error());
    out = *v;
    return {};
  }
  Result<void> text(std::string_view key, std::string& out) {
    auto v = c_.get_string(at(key), out);
    if (!v) return tl::unexpected(v.error());
    out = *v;
    return {};
  }

 private:
  const Config& c_;
  std::string prefix_;
};

Result<void> check_range(const Config& c, std::string_view key, double v, double lo, double hi) {
  if (!(v >= lo && v <= hi))
    return fail("{}: {} must be {} to {} (is {})", c.source(), key, lo, hi, v);
  return {};
}

}  // namespace

std::vector<std::string> go_config_presets(const Config& config) { return config.keys("presets"); }

Result<GoDeepConfig> load_go_config(const Config& c, std::string_view preset) {
  if (auto r = check_go_keys(c, ""); !r) return tl::unexpected(r.error());
  for (const auto& p : go_config_presets(c))
    if (auto r = check_go_keys(c, "presets." + p); !r) return tl::unexpected(r.error());
  if (!preset.empty()) {
    const auto names = go_config_presets(c);
    if (std::find(names.begin(), names.end(), preset) == names.end())
      return fail("{}: no preset '{}' (the file has: {})", c.source(), preset,
                  names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", ")));
  }
  GoDeepConfig g;
  GoConfigReader r(c, preset);
  auto& d = g.deep;
  double half_life_days = g.contexts.recency_half_life_s / 86400.0;
  d.ann_blend_weight = 0.25;
  for (auto res : {r.number("engine.threads", g.threads),
                   r.number("engine.seed", g.seed),
                   r.flag("engine.resign", g.resign),
                   r.number("standard.visits", g.standard_visits),
                   r.number("rag_query.uncertainty_threshold", d.uncertainty_threshold),
                   r.flag("deep_search.enabled", g.enabled),
                   r.number("deep_search.threshold_offset", d.deep_offset),
                   r.number("deep_search.workers", d.workers),
                   r.number("deep_search.threads", d.threads),
                   r.number("deep_search.time_factor", g.time_factor),
                   r.number("deep_search.standard_time_share", g.standard_time_share),
                   r.flag("deep_search.continue_tree", g.continue_tree),
                   r.number("deep_search.robust_fraction", d.robust_fraction),
                   r.number("deep_mcts.max_visits", d.deep_visits),
                   r.number("deep_mcts.policy_convergence_threshold", d.policy_convergence),
                   r.number("deep_mcts.value_convergence_threshold", d.value_convergence),
                   r.number("deep_mcts.convergence_check_visits", d.convergence_check_visits),
                   r.number("recursion.max_recursion_depth", d.max_recursion_depth),
                   r.number("recursion.force_exploration_top_n", d.force_top_n),
                   r.number("recursion.top_children", d.top_children),
                   r.flag("recursion.adaptive", g.adaptive),
                   r.number("recursion.adaptive_deep_seconds", g.adaptive_deep_s),
                   r.number("recursion.adaptive_standard_seconds", g.adaptive_standard_s),
                   r.number("context_selection.phase_weight", g.contexts.phase_weight),
                   r.number("context_selection.quality_weight", g.contexts.quality_weight),
                   r.number("context_selection.recency_weight", g.contexts.recency_weight),
                   r.number("context_selection.recency_half_life_days", half_life_days),
                   r.number("context_selection.max_contexts", g.contexts.max_contexts),
                   r.text("database.path", g.db_path),
                   r.flag("ann.enabled", g.ann_enabled),
                   r.flag("ann.blend_priors", g.ann_blend),
                   r.number("ann.blend_weight", d.ann_blend_weight),
                   r.number("ann.neighbours", g.ann_neighbours),
                   r.number("ann.max_distance", g.ann_max_distance),
                   r.number("ann.m", g.ann.m),
                   r.number("ann.ef_construction", g.ann.ef_construction),
                   r.number("ann.ef_search", g.ann.ef_search)})
    if (!res) return tl::unexpected(res.error());
  g.contexts.recency_half_life_s = half_life_days * 86400.0;
  for (auto res :
       {check_range(c, "engine.threads", g.threads, 1, 256),
        check_range(c, "standard.visits", static_cast<double>(g.standard_visits), 1, 1e9),
        check_range(c, "rag_query.uncertainty_threshold", d.uncertainty_threshold, 0, 1),
        check_range(c, "deep_search.threshold_offset", d.deep_offset, 0, 1),
        check_range(c, "deep_search.workers", d.workers, 1, 64),
        check_range(c, "deep_search.threads", d.threads, 1, 256),
        check_range(c, "deep_search.time_factor", g.time_factor, 0, 1000),
        check_range(c, "deep_search.standard_time_share", g.standard_time_share, 0.01, 1),
        check_range(c, "deep_search.robust_fraction", d.robust_fraction, 0, 1),
        check_range(c, "deep_mcts.max_visits", static_cast<double>(d.deep_visits), 1, 1e9),
        check_range(c, "deep_mcts.policy_convergence_threshold", d.policy_convergence, 0, 1),
        check_range(c, "deep_mcts.value_convergence_threshold", d.value_convergence, 0, 1),
        check_range(c, "deep_mcts.convergence_check_visits",
                    static_cast<double>(d.convergence_check_visits), 1, 1e9),
        check_range(c, "recursion.max_recursion_depth", d.max_recursion_depth, 0, 8),
        check_range(c, "recursion.force_exploration_top_n", d.force_top_n, 0, 64),
        check_range(c, "recursion.top_children", d.top_children, 0, 64),
        check_range(c, "context_selection.phase_weight", g.contexts.phase_weight, 0, 1e6),
        check_range(c, "context_selection.quality_weight", g.contexts.quality_weight, 0, 1e6),
        check_range(c, "context_selection.recency_weight", g.contexts.recency_weight, 0, 1e6),
        check_range(c, "context_selection.recency_half_life_days", half_life_days, 1e-6, 1e6),
        check_range(c, "context_selection.max_contexts", g.contexts.max_contexts, 0, 1000),
        check_range(c, "ann.blend_weight", d.ann_blend_weight, 0, 1),
        check_range(c, "ann.neighbours", g.ann_neighbours, 1, 1000),
        check_range(c, "ann.max_distance", g.ann_max_distance, 0, 2),
        check_range(c, "ann.m", g.ann.m, 2, 100),
        check_range(c, "ann.ef_construction", g.ann.ef_construction, 1, 10000),
        check_range(c, "ann.ef_search", g.ann.ef_search, 1, 10000)})
    if (!res) return tl::unexpected(res.error());
  if (!g.ann_enabled || !g.ann_blend) d.ann_blend_weight = 0;
  d.standard_visits = g.standard_visits;
  d.seed = g.seed;
  return g;
}

Result<GoDeepConfig> load_go_config_file(const std::string& path, std::string_view preset) {
  auto c = Config::load_file(path);
  if (!c) return tl::unexpected(c.error());
  return load_go_config(*c, preset);
}

// --- keys and orientation ------------------------------------------------------------------

std::string go_rules_key(const go::Rules& rules) {
  std::string s = "area";
  if (rules.superko) s += ",psk";
  if (rules.allow_suicide) s += ",suicide";
  return s;
}

store::PositionKey go_position_key(const Position& pos) {
  store::PositionKey k;
  k.sym_hash = pos.sym_hash();
  k.board_size = pos.size();
  k.komi = pos.komi();
  k.rules = go_rules_key(pos.rules());
  return k;
}

int go_canonical_index(Move m, int t, int size) {
  if (m.is_pass()) return size * size;
  if (!m.is_point()) return -1;
  const int c = go::transform_point(m.sq, t, size);
  return go::x_of(c) + go::y_of(c) * size;
}

Move go_from_canonical(int index, int t, int size) {
  if (index == size * size) return Move::pass();
  if (index < 0 || index > size * size) return Move::none();
  const Move c = Move::at(index % size, index / size);
  return go::transform_move(c, go::inverse_transform(t), size);
}

std::vector<float> go_canonical_policy(const search::MctsResult<Move>& r, int t, int size) {
  std::vector<float> p(static_cast<std::size_t>(size * size + 1), 0.0f);
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    const int idx = go_canonical_index(r.moves[i].move, t, size);
    if (idx >= 0) p[static_cast<std::size_t>(idx)] += static_cast<float>(r.policy[i]);
  }
  return p;
}

namespace {

// Mean final Tromp-Taylor score for the side to move over playouts of the playout policy:
// the score lead a stored context records (the search itself only tracks win rates).
double playout_score_lead(const Position& pos, int playouts, std::uint64_t seed) {
  if (playouts <= 0) return 0.0;
  Rng rng(seed);
  double sum = 0.0;
  for (int i = 0; i < playouts; ++i) {
    Position p = pos;
    while (!p.is_terminal()) p.apply(go::playout_move(p, rng));
    sum += p.score();
  }
  const double black = sum / playouts;
  return pos.to_move() == go::kBlack ? black : -black;
}

}  // namespace

// --- the cache --------------------------------------------------------------------------------

GoPositionCache::GoPositionCache(store::PositionStore& db, store::AnnIndex* ann,
                                 const GoDeepConfig& config)
    : db_(db), ann_(ann), config_(config) {}

std::optional<search::CachedAnalysis<Move>> GoPositionCache::lookup(const Position& pos) {
  const store::PositionKey key = go_position_key(pos);
  std::lock_guard lock(mutex_);
  auto found = db_.find(key);
  if (!found) {
    last_error_ = found.error().message;
    return std::nullopt;
  }
  if (!*found || (*found)->contexts.empty()) return std::nullopt;
  const auto& ctxs = (*found)->contexts;
  const int n = pos.size();
  const std::size_t i =
      store::select_context(ctxs, pos.stones_on_board(), n * n, unix_now(), config_.contexts);
  search::CachedAnalysis<Move> a;
  a.move = go_from_canonical(ctxs[i].move, pos.canonical_transform(), n);
  a.winrate = ctxs[i].winrate;
  a.deep_visits = ctxs[i].deep_visits;
  a.contexts = static_cast<int>(ctxs.size());
  if (a.move == Move::none()) return std::nullopt;
  return a;
}

search::StoreOutcome GoPositionCache::store(const Position& pos,
                                            const search::DeepAnalysis<Move>& a, int depth) {
  search::StoreOutcome out;
  if (a.result.moves.empty()) return out;
  const int n = pos.size();
  const int t = pos.canonical_transform();
  store::PositionContext ctx;
  ctx.move = go_canonical_index(a.move, t, n);
  ctx.uncertainty = a.uncertainty;
  ctx.deep_visits =
      static_cast<std::uint32_t>(std::min<std::uint64_t>(a.result.root_visits, UINT32_MAX));
  ctx.policy = go_canonical_policy(a.result, t, n);
  ctx.winrate = a.value;
  ctx.score_lead = playout_score_lead(pos, config_.score_playouts, pos.hash());
  ctx.game_phase = pos.stones_on_board();
  ctx.recursion_depth = depth;
  ctx.move_number = pos.moves_played();
  ctx.timestamp = unix_now();
  ctx.source = "search";
  if (ctx.move < 0) return out;
  auto added = add(pos, ctx);
  if (!added) return out;
  out.stored = true;
  out.new_position = added->new_position;
  out.contexts = added->contexts;
  return out;
}

Result<store::AddResult> GoPositionCache::add(const Position& pos,
                                              const store::PositionContext& ctx) {
  const store::PositionKey key = go_position_key(pos);
  std::lock_guard lock(mutex_);
  auto added =
      db_.add_context(key, ctx, config_.contexts, ctx.timestamp ? ctx.timestamp : unix_now());
  if (!added) {
    last_error_ = added.error().message;
    return added;
  }
  if (added->new_position && ann_ && config_.ann_enabled && !ctx.policy.empty()) {
    if (auto r = ann_->add(added->position_id, ctx.policy); !r) last_error_ = r.error().message;
  }
  return added;
}

std::vector<std::pair<Move, float>> GoPositionCache::similar(const Position& pos,
                                                             const search::MctsResult<Move>& r) {
  std::vector<std::pair<Move, float>> hint;
  if (!ann_ || !config_.ann_enabled || r.moves.empty()) return hint;
  const int n = pos.size();
  const std::uint64_t own = pos.sym_hash();
  // The index holds canonical policies whose orientation depends on each position's own
  // hash, so the query is asked in all 8 orientations; a neighbour found through orientation
  // t lines up with this board through t's inverse.
  struct Found {
    std::int64_t id;
    float distance;
    int t;
  };
  std::vector<Found> found;
  std::lock_guard lock(mutex_);
  // Other processes sharing the database may have added positions since the last query.
  if (auto caught = ann_->catch_up(db_); !caught) last_error_ = caught.error().message;
  if (ann_->count() == 0) return hint;
  for (int t = 0; t < Position::kNumSymmetries; ++t) {
    const auto q = go_canonical_policy(r, t, n);
    auto nn = ann_->nearest(q, config_.ann_neighbours);
    if (!nn) {
      last_error_ = nn.error().message;
      return hint;
    }
    for (const auto& nb : *nn) {
      if (nb.distance > config_.ann_max_distance) continue;
      auto it = std::find_if(found.begin(), found.end(),
                             [&](const Found& f) { return f.id == nb.position_id; });
      if (it == found.end())
        found.push_back({nb.position_id, nb.distance, t});
      else if (nb.distance < it->distance)
        *it = {nb.position_id, nb.distance, t};
    }
  }
  std::sort(found.begin(), found.end(),
            [](const Found& a, const Found& b) { return a.distance < b.distance; });
  if (found.size() > static_cast<std::size_t>(config_.ann_neighbours))
    found.resize(static_cast<std::size_t>(config_.ann_neighbours));
  std::vector<float> acc(static_cast<std::size_t>(n * n + 1), 0.0f);
  float total = 0.0f;
  for (const Found& f : found) {
    auto sp = db_.find_by_id(f.id);
    if (!sp || !*sp || (*sp)->contexts.empty()) continue;
    const auto& stored = **sp;
    if (stored.key.sym_hash == own || stored.key.board_size != n) continue;
    const std::size_t ci = store::select_context(stored.contexts, pos.stones_on_board(), n * n,
                                                 unix_now(), config_.contexts);
    const auto& pol = stored.contexts[ci].policy;
    if (pol.size() != acc.size()) continue;
    const float w = 1.0f - f.distance / std::sqrt(2.0f);
    for (std::size_t i = 0; i < pol.size(); ++i) {
      // Canonical index i of the neighbour is index i of the query in orientation f.t.
      const Move m = go_from_canonical(static_cast<int>(i), f.t, n);
      const int own_idx = go_canonical_index(m, 0, n);
      if (own_idx >= 0) acc[static_cast<std::size_t>(own_idx)] += w * pol[i];
    }
    total += w;
  }
  if (total <= 0.0f) return hint;
  for (std::size_t i = 0; i < acc.size(); ++i)
    if (acc[i] > 0.0f)
      hint.emplace_back(go_from_canonical(static_cast<int>(i), 0, n), acc[i] / total);
  return hint;
}

// --- GoDeep ---------------------------------------------------------------------------------

const char* deep_source_text(search::DeepSource s) {
  switch (s) {
    case search::DeepSource::kCached:
      return "CACHED";
    case search::DeepSource::kDeep:
      return "DEEP";
    case search::DeepSource::kStandard:
      break;
  }
  return "STANDARD";
}

GoDeep::GoDeep(const GoDeepConfig& config) : config_(config) {}
GoDeep::~GoDeep() {
  if (ann_) (void)ann_->save();
}

Result<std::unique_ptr<GoDeep>> GoDeep::open(const GoDeepConfig& config) {
  std::unique_ptr<GoDeep> g(new GoDeep(config));
  auto db = store::open_position_store(config.db_path);
  if (!db) return tl::unexpected(db.error());
  g->db_ = std::move(*db);
  // The ANN index is per board size: decide() opens the one of the size it is asked about.
  g->cache_ = std::make_unique<GoPositionCache>(*g->db_, nullptr, config);
  search::DeepSearchOptions d = config.deep;
  d.threads = std::max(1, d.threads);
  g->search_ =
      std::make_unique<search::DeepSearch<Position, GoPositionCache>>(*g->cache_, d, g->stats_);
  g->set_log(stderr, true);
  return g;
}

void GoDeep::set_log(std::FILE* log, bool trace) {
  log_ = log;
  trace_ = trace;
  if (log_ && trace_) {
    search_->set_trace(
        [this](int level, std::string_view line) {
          fmt::print(log_, "{:>{}}→ {}\n", "", 2 * level, line);
          std::fflush(log_);
        },
        [this](const Move& m) { return go::to_vertex(m, board_size_); });
  } else {
    search_->set_trace({}, {});
  }
}

void GoDeep::prepare(int board_size) {
  board_size_ = board_size;
  if (!config_.ann_enabled || (ann_ && ann_->board_size() == board_size)) return;
  if (ann_) (void)ann_->save();
  auto idx = store::AnnIndex::open(*db_, board_size, config_.ann);
  if (!idx) {
    fmt::print(stderr, "kibitz: warning: ANN index: {} (retrieval off)\n", idx.error().message);
    ann_.reset();
  } else {
    ann_ = std::move(*idx);
  }
  cache_ = std::make_unique<GoPositionCache>(*db_, ann_.get(), config_);
  search_ = std::make_unique<search::DeepSearch<Position, GoPositionCache>>(
      *cache_, search_->options(), stats_);
  set_log(log_, trace_);
}

int GoDeep::depth_for(double seconds_left) const {
  if (!config_.adaptive || seconds_left < 0) return config_.deep.max_recursion_depth;
  if (seconds_left > config_.adaptive_deep_s) return 3;
  if (seconds_left > config_.adaptive_standard_s) return 2;
  return 1;
}

search::DeepAnalysis<Move> GoDeep::decide(const Position& pos,
                                          const search::MctsResult<Move>& standard,
                                          TimeBudget& budget, double seconds_left,
                                          std::int64_t started_ms, search::Mcts<Position>* tree) {
  const int n = pos.size();
  prepare(n);
  const int depth = config_.enabled ? depth_for(seconds_left) : -1;
  auto a = search_->decide(pos, standard, budget, depth, config_.continue_tree ? tree : nullptr);
  if (log_) {
    std::string how = deep_source_text(a.source);
    if (a.source == search::DeepSource::kCached) how = fmt::format("CACHED({})", a.contexts);
    if (a.source == search::DeepSource::kDeep && a.deepest > 0)
      how = fmt::format("DEEP, depth {}", a.deepest);
    fmt::print(log_, "Move {}: plays {} [unc={:.2f}, {}, {}ms]\n", pos.moves_played() + 1,
               go::to_vertex(a.move, n), a.uncertainty, how, budget.elapsed_ms() + started_ms);
    std::fflush(log_);
  }
  return a;
}

std::string GoDeep::stats_block(std::string_view title) const {
  const auto& s = stats_;
  const auto q = s.rag_queries.load(), h = s.rag_hits.load();
  const auto ps = s.positions_stored.load(), ca = s.contexts_added.load();
  const auto mv = s.moves.load(), ds = s.deep_searches.load();
  std::string out = fmt::format("{}:\n", title);
  out += fmt::format("  Moves played: {}\n", mv);
  out += fmt::format("  RAG queries: {}\n", q);
  out += fmt::format("  RAG hits: {}\n", h);
  out += fmt::format("  Exact matches: {}\n", s.exact_matches.load());
  out += fmt::format("  Deep searches: {}\n", ds);
  out += fmt::format("  Recursive searches: {}\n", s.recursive_searches.load());
  out += fmt::format("  Unique positions: {}\n", ps);
  out += fmt::format("  Total contexts: {}\n", ca);
  out += fmt::format("  Cache hit rate: {:.1f}%\n", q ? 100.0 * h / q : 0.0);
  out += fmt::format("  Contexts per position: {:.2f}\n", ps ? double(ca) / ps : 0.0);
  out += fmt::format("  Recursion usage: {:.2f}\n",
                     ds ? double(s.recursive_searches.load()) / ds : 0.0);
  out += fmt::format("  Deepest recursion: {}\n", s.deepest.load());
  out += fmt::format("  Converged early: {}\n", s.converged_early.load());
  out += fmt::format("  ANN prior hints: {}\n", s.ann_hints.load());
  out += fmt::format("  Mean uncertainty: {:.3f}\n",
                     mv ? s.uncertainty_millis.load() / 1000.0 / mv : 0.0);
  return out;
}

Result<void> GoDeep::save_index() {
  if (!ann_) return {};
  return ann_->save();
}

}  // namespace kibitz::engine

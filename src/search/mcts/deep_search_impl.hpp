#pragma once
// Bodies of DeepSearch (deep_search.hpp); include where DeepSearch<G, Cache> is instantiated.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "search/mcts/deep_search.hpp"
#include "search/mcts/mcts_impl.hpp"

namespace kibitz::search {

namespace deep_detail {

// Trace lines of a child analysed on a worker thread are kept and replayed in child order
// after the workers finish, so parallel searches print the same lines as sequential ones.
inline thread_local std::vector<std::pair<int, std::string>>* trace_buffer = nullptr;

inline std::uint64_t mix(std::uint64_t x) { return splitmix64(x); }

inline void raise_max(std::atomic<int>& a, int v) {
  int cur = a.load();
  while (v > cur && !a.compare_exchange_weak(cur, v)) {
  }
}

// Total variation distance between two root visit distributions (matched by move).
template <class Move>
double policy_shift(const MctsResult<Move>& a, const MctsResult<Move>& b) {
  double d = 0.0;
  for (std::size_t i = 0; i < a.moves.size(); ++i) {
    double q = 0.0;
    for (std::size_t j = 0; j < b.moves.size(); ++j)
      if (b.moves[j].move == a.moves[i].move) {
        q = b.policy[j];
        break;
      }
    d += std::abs(a.policy[i] - q);
  }
  // Mass of b on moves a does not list (cannot happen for one tree, kept for safety).
  double covered = 0.0;
  for (std::size_t j = 0; j < b.moves.size(); ++j)
    for (std::size_t i = 0; i < a.moves.size(); ++i)
      if (a.moves[i].move == b.moves[j].move) {
        covered += b.policy[j];
        break;
      }
  d += std::max(0.0, 1.0 - covered);
  return 0.5 * d;
}

}  // namespace deep_detail

template <class G, class Cache>
requires Game<G> DeepSearch<G, Cache>::DeepSearch(Cache& cache, const DeepSearchOptions& options,
                                                  DeepStats& stats)
    : cache_(cache), options_(options), stats_(stats) {}

template <class G, class Cache>
requires Game<G>
void DeepSearch<G, Cache>::set_trace(Trace trace, MoveText move_text) {
  trace_ = std::move(trace);
  move_text_ = std::move(move_text);
}

template <class G, class Cache>
requires Game<G>
void DeepSearch<G, Cache>::trace(int level, const std::string& line) const {
  if (!trace_) return;
  if (deep_detail::trace_buffer)
    deep_detail::trace_buffer->emplace_back(level, line);
  else
    trace_(level, line);
}

template <class G, class Cache>
requires Game<G> std::string DeepSearch<G, Cache>::text(const Move& m)
const { return move_text_ ? move_text_(m) : std::string("?"); }

template <class G, class Cache>
requires Game<G>
typename DeepSearch<G, Cache>::Analysis DeepSearch<G, Cache>::decide(const G& pos,
                                                                     const Result& standard,
                                                                     TimeBudget& budget,
                                                                     int max_depth, Mcts<G>* tree) {
  const int max_d = max_depth >= 0 ? max_depth : options_.max_recursion_depth;
  Analysis a;
  a.result = standard;
  a.move = standard.best;
  a.value = standard.value;
  a.uncertainty = standard.uncertainty;
  a.playouts = standard.playouts;
  if (standard.moves.empty()) return a;
  stats_.moves.fetch_add(1);
  stats_.uncertainty_millis.fetch_add(
      static_cast<std::uint64_t>(std::lround(std::clamp(standard.uncertainty, 0.0, 1.0) * 1000)));
  const double u = standard.uncertainty;
  if (u <= options_.uncertainty_threshold) return a;
  trace(1, fmt::format("Complex position detected (unc={:.2f})", u));
  stats_.rag_queries.fetch_add(1);
  if (auto cached = cache_.lookup(pos)) {
    stats_.rag_hits.fetch_add(1);
    MoveList<G> legal;
    pos.legal_moves(legal);
    if (std::find(legal.begin(), legal.end(), cached->move) != legal.end()) {
      stats_.exact_matches.fetch_add(1);
      trace(1, fmt::format("Exact match found ({} contexts)", cached->contexts));
      trace(1, fmt::format("Using cached analysis (deep_visits={})", cached->deep_visits));
      a.source = DeepSource::kCached;
      a.move = cached->move;
      a.value = cached->winrate;
      a.contexts = cached->contexts;
      a.cached_visits = cached->deep_visits;
      return a;
    }
    trace(1, fmt::format("Cached move {} is not legal here: ignored", text(cached->move)));
  } else {
    trace(1, "No match found");
  }
  if (u <= deep_threshold() || max_d < 0) {
    trace(1, fmt::format("Below the deep threshold ({:.2f}): standard search", deep_threshold()));
    return a;
  }
  stats_.deep_searches.fetch_add(1);
  Analysis d = deep(pos, 0, max_d, budget, tree);
  d.uncertainty = u;
  d.playouts += standard.playouts;
  const StoreOutcome so = cache_.store(pos, d, 0);
  if (so.stored) {
    stats_.contexts_added.fetch_add(1);
    if (so.new_position) stats_.positions_stored.fetch_add(1);
    trace(1, fmt::format("Stored position ({} contexts)", so.contexts));
  }
  return d;
}

template <class G, class Cache>
requires Game<G>
double DeepSearch<G, Cache>::child_uncertainty(const Mcts<G>& tree, std::uint32_t node,
                                               const G& child, TimeBudget& budget,
                                               std::uint64_t& playouts) {
  if (node != Mcts<G>::kNoNode) {
    const Result r = tree.node_result(node);
    if (r.root_visits >= options_.standard_visits) return r.uncertainty;
  }
  MctsOptions o = options_.mcts;
  o.threads = 1;
  o.max_visits = options_.standard_visits;
  o.max_playouts = 0;
  o.seed = deep_detail::mix(options_.seed ^ child.hash());
  o.max_nodes = std::min<std::size_t>(o.max_nodes,
                                      options_.standard_visits * options_.nodes_per_visit + 4096);
  Mcts<G> m(child, o);
  TimeBudget b;
  if (!budget.is_unlimited()) b.start(budget.remaining_ms(), budget.remaining_ms());
  if (budget.stopped()) b.request_stop();
  const Result r = m.search(b);
  playouts += r.playouts;
  return r.uncertainty;
}

template <class G, class Cache>
requires Game<G>
typename DeepSearch<G, Cache>::Analysis DeepSearch<G, Cache>::deep(const G& pos, int depth,
                                                                   int max_depth,
                                                                   TimeBudget& budget,
                                                                   Mcts<G>* given) {
  Analysis a;
  a.depth = a.deepest = depth;
  a.source = DeepSource::kDeep;
  deep_detail::raise_max(stats_.deepest, depth);

  MctsOptions o = options_.mcts;
  o.threads = std::max(1, options_.threads);
  o.max_playouts = 0;
  // Seeded by the position, not by the order of searches, so parallel children search the
  // same way as sequential ones.
  o.seed = deep_detail::mix(options_.seed ^ pos.hash() ^ static_cast<std::uint64_t>(depth));
  o.max_nodes =
      std::min<std::size_t>(o.max_nodes, options_.deep_visits * options_.nodes_per_visit + 4096);
  std::optional<Mcts<G>> own;
  if (given) {
    o = given->options();  // its threads, arena and seed stay
    o.max_playouts = 0;
    o.info_interval_ms = 0;
  } else {
    own.emplace(pos, o);
  }
  Mcts<G>& tree = given ? *given : *own;
  struct ClearHint {
    Mcts<G>* t;
    ~ClearHint() {
      if (t) t->set_root_prior_hint({}, 0.0);
    }
  } clear_hint{given};
  if (options_.ann_blend_weight > 0) {
    // The hint needs a first view of the position: a standard-size search (the caller's
    // tree has had one).
    Result first;
    if (given) {
      first = tree.result();
    } else {
      o.max_visits = std::min(options_.standard_visits, options_.deep_visits);
      tree.set_options(o);
      TimeBudget b;
      if (!budget.is_unlimited()) b.start(budget.remaining_ms(), budget.remaining_ms());
      first = tree.search(b);
    }
    auto hint = cache_.similar(pos, first);
    if (!hint.empty()) {
      tree.set_root_prior_hint(std::move(hint), options_.ann_blend_weight);
      a.hinted = true;
      stats_.ann_hints.fetch_add(1);
      trace(2 + 3 * depth, "Priors blended with similar stored positions");
    }
  }

  const std::uint64_t chunk = options_.convergence_check_visits > 0
                                  ? options_.convergence_check_visits
                                  : options_.deep_visits;
  const bool check = options_.policy_convergence > 0 || options_.value_convergence > 0;
  Result prev, r;
  bool have_prev = false;
  for (;;) {
    const std::uint64_t done = tree.root_visits();
    if (done >= options_.deep_visits) break;
    o.max_visits = std::min(options_.deep_visits, done + chunk);
    tree.set_options(o);
    TimeBudget b;
    if (!budget.is_unlimited()) b.start(budget.remaining_ms(), budget.remaining_ms());
    if (budget.stopped()) b.request_stop();
    r = tree.search(b);
    a.playouts += r.playouts;
    if (r.playouts == 0 || budget.stopped() ||
        (!budget.is_unlimited() && budget.remaining_ms() <= 0))
      break;
    if (check && have_prev && r.root_visits < options_.deep_visits) {
      const bool policy_ok = options_.policy_convergence <= 0 ||
                             deep_detail::policy_shift(prev, r) < options_.policy_convergence;
      const bool value_ok = options_.value_convergence <= 0 ||
                            std::abs(prev.value - r.value) < options_.value_convergence;
      if (policy_ok && value_ok) {
        a.converged = true;
        stats_.converged_early.fetch_add(1);
        break;
      }
    }
    prev = r;
    have_prev = true;
  }
  r = tree.result();
  a.result = r;
  a.move = r.best;
  a.value = r.value;
  a.uncertainty = r.uncertainty;
  if (r.moves.empty()) return a;
  trace(2 + 3 * depth,
        fmt::format("Deep search (depth={}, {} visits{}): best {} ({:.3f})", depth, r.root_visits,
                    a.converged ? ", converged" : "", text(r.best), r.value));
  if (depth >= max_depth) {
    if (depth > 0) trace(2 + 3 * depth, "Max recursion depth reached");
    return a;
  }

  // Selective child analysis: the most visited force_top_n children, then the others by
  // uncertainty x value (uncertainty from the tree), up to top_children.
  struct Candidate {
    Move move{};
    std::uint32_t node = Mcts<G>::kNoNode;
    double score = 0;
    // Results, filled by whoever analyses the child.
    bool refined = false;
    double value = 0.5;  // for the parent's side to move
    double weight = 0;
    int deepest = 0;
    std::uint64_t playouts = 0;
    std::vector<std::pair<int, std::string>> lines;
  };
  std::vector<Candidate> pool;
  const std::size_t force = static_cast<std::size_t>(std::max(0, options_.force_top_n));
  for (std::size_t i = 0; i < r.moves.size(); ++i) {
    const auto& ms = r.moves[i];
    if (ms.visits == 0) break;  // sorted by visits
    Candidate c;
    c.move = ms.move;
    c.node = tree.child_of(Mcts<G>::kRoot, ms.move);
    if (i >= force) {
      const double cu = c.node != Mcts<G>::kNoNode ? tree.node_result(c.node).uncertainty : 1.0;
      c.score = cu * ms.value;
    } else {
      c.score = 1e9 - static_cast<double>(i);  // forced, in visit order
    }
    pool.push_back(std::move(c));
    if (pool.size() >= 16) break;  // the rest have too few visits to be promising
  }
  std::stable_sort(pool.begin(), pool.end(),
                   [](const Candidate& x, const Candidate& y) { return x.score > y.score; });
  if (pool.size() > static_cast<std::size_t>(std::max(0, options_.top_children)))
    pool.resize(static_cast<std::size_t>(std::max(0, options_.top_children)));
  if (!pool.empty()) trace(2 + 3 * depth, "Analyzing child positions...");

  auto analyse = [&](std::size_t k) {
    Candidate& c = pool[k];
    G child = pos;
    child.apply(c.move);
    if (child.is_terminal()) return;
    if (budget.stopped() || (!budget.is_unlimited() && budget.remaining_ms() <= 0)) return;
    const double cu = child_uncertainty(tree, c.node, child, budget, c.playouts);
    const int lvl = 3 + 3 * depth;
    if (cu <= deep_threshold()) {
      trace(lvl, fmt::format("Child {} ({}): unc={:.2f} (below threshold, skip)", k + 1,
                             text(c.move), cu));
      return;
    }
    trace(lvl, fmt::format("Child {} ({}): unc={:.2f} (above threshold)", k + 1, text(c.move), cu));
    stats_.rag_queries.fetch_add(1);
    if (auto cached = cache_.lookup(child)) {
      stats_.rag_hits.fetch_add(1);
      stats_.exact_matches.fetch_add(1);
      trace(lvl + 1, fmt::format("Child cache hit ({} contexts, deep_visits={})", cached->contexts,
                                 cached->deep_visits));
      c.refined = true;
      c.value = 1.0 - cached->winrate;
      c.weight = cached->deep_visits;
      return;
    }
    trace(lvl + 1, "Child cache miss, running recursive search");
    stats_.deep_searches.fetch_add(1);
    stats_.recursive_searches.fetch_add(1);
    Analysis ca = deep(child, depth + 1, max_depth, budget);
    ca.uncertainty = cu;
    c.playouts += ca.playouts;
    c.deepest = ca.deepest;
    if (ca.result.moves.empty()) return;
    const StoreOutcome so = cache_.store(child, ca, depth + 1);
    if (so.stored) {
      stats_.contexts_added.fetch_add(1);
      if (so.new_position) stats_.positions_stored.fetch_add(1);
      trace(lvl + 1, "Stored child position");
    }
    c.refined = true;
    c.value = 1.0 - ca.value;
    c.weight = static_cast<double>(ca.result.root_visits);
  };

  const int workers = depth == 0 ? std::max(1, options_.workers) : 1;
  if (workers > 1 && pool.size() > 1) {
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> threads;
    const int n = std::min<int>(workers, static_cast<int>(pool.size()));
    for (int w = 0; w < n; ++w)
      threads.emplace_back([&] {
        for (std::size_t k; (k = next.fetch_add(1)) < pool.size();) {
          deep_detail::trace_buffer = &pool[k].lines;
          analyse(k);
          deep_detail::trace_buffer = nullptr;
        }
      });
    for (auto& t : threads) t.join();
    for (auto& c : pool)
      for (auto& [lvl, line] : c.lines) trace(lvl, line);
  } else {
    for (std::size_t k = 0; k < pool.size(); ++k) analyse(k);
  }

  // Refine the parent's move values with the children's deeper values, then choose among
  // the robustly visited moves by refined value.
  for (const Candidate& c : pool) {
    a.playouts += c.playouts;
    a.deepest = std::max(a.deepest, c.deepest);
    if (!c.refined) continue;
    ++a.refined_children;
    for (auto& ms : a.result.moves)
      if (ms.move == c.move) {
        const double w = std::min(c.weight, options_.refine_weight_cap);
        ms.value = (ms.visits * ms.value + w * c.value) / (ms.visits + w);
      }
  }
  if (a.refined_children > 0) {
    const int most = a.result.moves.front().visits;
    const auto* best = &a.result.moves.front();
    for (const auto& ms : a.result.moves)
      if (ms.visits >= options_.robust_fraction * most && ms.value > best->value) best = &ms;
    a.move = best->move;
    a.value = best->value;
  }
  return a;
}

}  // namespace kibitz::search

#pragma once
// Template bodies of world_search.hpp; include where WorldSearch<G> / EndgameSolver<G> are
// instantiated (src/engine/).
#include <algorithm>
#include <limits>

#include "search/imperfect/world_search.hpp"

namespace kibitz::search {

namespace detail {

template <class G>
std::size_t generate(const G& s, MoveList<G>& moves, bool prune) {
  s.legal_moves(moves);
  if constexpr (requires { SearchTraits<G>::prune_equivalent(s, moves); }) {
    if (prune) SearchTraits<G>::prune_equivalent(s, moves);
  }
  return moves.size();
}

}  // namespace detail

template <class G>
void MoveValue<G>::add(const Returns<G>& r, int root) {
  ++worlds;
  const double delta = r[root] - mean[root];
  for (int p = 0; p < G::kMaxPlayers; ++p) mean[p] += (r[p] - mean[p]) / worlds;
  m2 += delta * (r[root] - mean[root]);
}

// --- WorldSearch ----------------------------------------------------------------------------

template <Game G, class Rollout>
WorldSearchResult<G> WorldSearch<G, Rollout>::evaluate(std::span<const G> worlds,
                                                       std::span<const Move> moves, int root,
                                                       const WorldSearchOptions& options,
                                                       TimeBudget& budget) {
  WorldSearchResult<G> out;
  const std::size_t nv = static_cast<std::size_t>(std::max(1, options.variants));
  Rng master(options.seed);
  root_ = root;
  mode_ = options.mode;
  nodes_ = 0;
  budget_ = &budget;
  aborted_ = false;
  std::vector<MoveValue<G>> acc(moves.size() * nv);
  std::vector<Returns<G>> values(moves.size() * nv);
  for (const G& w : worlds) {
    const std::uint64_t world_seed = master.next();
    for (std::size_t i = 0; i < moves.size() && !aborted_; ++i) {
      for (std::size_t v = 0; v < nv && !aborted_; ++v) {
        if constexpr (requires { policy_.set_variant(root, 0); })
          policy_.set_variant(root, static_cast<int>(v));
        rng_.reseed(world_seed);  // the same rollout luck for every move and variant
        G child = w;
        child.apply(moves[i]);
        values[i * nv + v] = lookahead(child, options.depth);
      }
    }
    if (aborted_) break;  // this world is incomplete: leave it out
    for (std::size_t k = 0; k < acc.size(); ++k) acc[k].add(values[k], root);
    ++out.worlds_done;
    if (budget.hard_expired()) {
      aborted_ = true;
      break;
    }
  }
  // Each move by its best variant.
  out.moves.resize(moves.size());
  for (std::size_t i = 0; i < moves.size(); ++i) {
    std::size_t best = 0;
    for (std::size_t v = 1; v < nv; ++v)
      if (acc[i * nv + v].mean[root] > acc[i * nv + best].mean[root]) best = v;
    out.moves[i] = acc[i * nv + best];
    out.moves[i].move = moves[i];
    out.moves[i].variant = static_cast<int>(best);
  }
  out.nodes = nodes_;
  out.budget_exceeded = aborted_ && out.worlds_done < static_cast<int>(worlds.size());
  return out;
}

template <Game G, class Rollout>
Returns<G> WorldSearch<G, Rollout>::lookahead(const G& s, int depth) {
  ++nodes_;
  if (s.is_terminal()) return s.returns();
  if (depth <= 0) return rollout(s);
  if (budget_->poll(nodes_, 256)) aborted_ = true;
  if (aborted_) return s.returns();
  MoveList<G> moves;
  detail::generate(s, moves, true);
  const int p = s.current_player();
  const bool minimise = mode_ == LookaheadMode::kParanoid && p != root_;
  Returns<G> best{};
  double best_key = -std::numeric_limits<double>::infinity();
  for (const Move m : moves) {
    G child = s;
    child.apply(m);
    const Returns<G> v = lookahead(child, depth - 1);
    const double key = minimise ? -v[root_] : v[p];
    // Ties between an opponent's equal outcomes go against us (maxn with paranoid
    // tie-breaking): a player indifferent between two cards does not spare us.
    if (key > best_key || (key == best_key && p != root_ && v[root_] < best[root_])) {
      best_key = key;
      best = v;
    }
  }
  return best;
}

template <Game G, class Rollout>
Returns<G> WorldSearch<G, Rollout>::rollout(G s) {
  while (!s.is_terminal()) {
    ++nodes_;
    s.apply(policy_(s, rng_));
  }
  return s.returns();
}

// --- EndgameSolver --------------------------------------------------------------------------

template <Game G>
EndgameSolver<G>::EndgameSolver(int table_bits)
    : table_(std::size_t{1} << table_bits), mask_((std::uint64_t{1} << table_bits) - 1) {}

template <Game G>
void EndgameSolver<G>::set_root(int root) {
  root_ = root;
  std::uint64_t seed = static_cast<std::uint64_t>(root + 2);
  root_key_ = root < 0 ? 0 : splitmix64(seed);
}

template <Game G>
Returns<G> EndgameSolver<G>::solve(const G& s, int root) {
  set_root(root);
  TimeBudget unlimited;
  budget_ = &unlimited;
  aborted_ = false;
  const Returns<G> r = search(s);
  budget_ = nullptr;
  return r;
}

template <Game G>
Returns<G> EndgameSolver<G>::search(const G& s) {
  ++nodes_;
  if (s.is_terminal()) return s.returns();
  if (budget_->poll(nodes_, 4096)) aborted_ = true;
  if (aborted_) return s.returns();
  // The root takes part in the key: the tie-breaking below depends on it.
  const std::uint64_t key = s.hash() ^ root_key_;
  Entry& e = table_[key & mask_];
  if (e.key == key) {
    Returns<G> r{};
    for (int p = 0; p < G::kMaxPlayers; ++p) r[p] = e.value[p];
    return r;
  }
  MoveList<G> moves;
  detail::generate(s, moves, true);
  const int p = s.current_player();
  Returns<G> best{};
  double best_key = -std::numeric_limits<double>::infinity();
  for (const Move m : moves) {
    G child = s;
    child.apply(m);
    const Returns<G> v = search(child);
    if (v[p] > best_key ||
        (v[p] == best_key && root_ >= 0 && p != root_ && v[root_] < best[root_])) {
      best_key = v[p];
      best = v;
    }
  }
  if (!aborted_) {
    Entry& slot = table_[key & mask_];  // always replace: the newest subtree is the likeliest
    slot.key = key;
    for (int q = 0; q < G::kMaxPlayers; ++q) slot.value[q] = static_cast<float>(best[q]);
  }
  return best;
}

template <Game G>
EndgameResult<G> EndgameSolver<G>::evaluate(std::span<const G> worlds,
                                            std::span<const double> weights,
                                            std::span<const Move> moves, int root,
                                            TimeBudget& budget) {
  EndgameResult<G> out;
  out.moves.resize(moves.size());
  out.forced.assign(moves.size(), true);
  for (std::size_t i = 0; i < moves.size(); ++i) out.moves[i].move = moves[i];
  std::vector<double> first(moves.size(), 0.0);
  std::vector<double> weight_sum(moves.size(), 0.0);
  std::vector<Returns<G>> values(moves.size());
  const std::uint64_t nodes_before = nodes_;
  budget_ = &budget;
  aborted_ = false;
  set_root(root);
  for (std::size_t w = 0; w < worlds.size(); ++w) {
    for (std::size_t i = 0; i < moves.size() && !aborted_; ++i) {
      G child = worlds[w];
      child.apply(moves[i]);
      values[i] = search(child);
    }
    if (aborted_) break;
    const double wt = weights.empty() ? 1.0 : weights[w];
    for (std::size_t i = 0; i < moves.size(); ++i) {
      // Weighted running means (weights need not sum to one).
      MoveValue<G>& mv = out.moves[i];
      weight_sum[i] += wt;
      const double delta = values[i][root] - mv.mean[root];
      for (int p = 0; p < G::kMaxPlayers; ++p)
        mv.mean[p] += wt / weight_sum[i] * (values[i][p] - mv.mean[p]);
      mv.m2 += wt * delta * (values[i][root] - mv.mean[root]);
      ++mv.worlds;
      if (out.worlds_done == 0)
        first[i] = values[i][root];
      else if (values[i][root] != first[i])
        out.forced[i] = false;
    }
    ++out.worlds_done;
  }
  out.nodes = nodes_ - nodes_before;
  out.budget_exceeded = out.worlds_done < static_cast<int>(worlds.size());
  budget_ = nullptr;
  return out;
}

template <Game G>
Returns<G> EndgameSolver<G>::brute_force(const G& s, int root) {
  if (s.is_terminal()) return s.returns();
  MoveList<G> moves;
  s.legal_moves(moves);
  const int p = s.current_player();
  Returns<G> best{};
  double best_key = -std::numeric_limits<double>::infinity();
  for (const Move m : moves) {
    G child = s;
    child.apply(m);
    const Returns<G> v = brute_force(child, root);
    if (v[p] > best_key || (v[p] == best_key && root >= 0 && p != root && v[root] < best[root])) {
      best_key = v[p];
      best = v;
    }
  }
  return best;
}

}  // namespace kibitz::search

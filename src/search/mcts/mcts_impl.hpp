#pragma once
// Bodies of Mcts<G> (see mcts.hpp). Include where Mcts<G> is instantiated.
//
// Threads share one tree without locks: statistics are updated through std::atomic_ref (plain
// loads and stores when the search runs on one thread), a node's expansion is claimed by a
// compare-exchange of its state (a thread finding a node being expanded by another runs its
// playout from there instead of waiting), arena slots are claimed by a compare-exchange on
// the arena size, and each thread's path carries a virtual loss so threads spread out.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>
#include <new>
#include <thread>
#include <type_traits>

#include "search/mcts/mcts.hpp"

namespace kibitz::search {

namespace mcts_detail {

template <class G>
concept HasMoveIndex = requires(typename G::Move m) {
  { SearchTraits<G>::mcts_move_index(m) } -> std::convertible_to<std::size_t>;
  { SearchTraits<G>::kMctsMoveIndexSize } -> std::convertible_to<std::size_t>;
};

// Size of the dense move index used for AMAF; 0 when there is none (RAVE off).
template <class G>
constexpr std::size_t move_index_size() {
  using M = typename G::Move;
  if constexpr (HasMoveIndex<G>)
    return SearchTraits<G>::kMctsMoveIndexSize;
  else if constexpr (std::is_integral_v<M> && sizeof(M) <= 2)
    return std::size_t{1} << (8 * sizeof(M));
  else if constexpr (sizeof(M) == 2)
    return std::size_t{1} << 16;
  else
    return 0;
}

template <class G>
std::size_t move_index(typename G::Move m) {
  using M = typename G::Move;
  if constexpr (HasMoveIndex<G>)
    return static_cast<std::size_t>(SearchTraits<G>::mcts_move_index(m));
  else if constexpr (std::is_integral_v<M> && sizeof(M) <= 2)
    return static_cast<std::make_unsigned_t<M>>(m);
  else if constexpr (sizeof(M) == 2)
    return std::bit_cast<std::uint16_t>(m);
  else
    return 0;
}

template <class T>
T load(const T& x) {
  return std::atomic_ref<T>(const_cast<T&>(x)).load(std::memory_order_relaxed);
}

// x += v: atomically where several threads share the tree.
template <class T>
void add(T& x, T v, bool shared) {
  if (shared)
    std::atomic_ref<T>(x).fetch_add(v, std::memory_order_relaxed);
  else
    x += v;
}

// returns() in [-1, 1] as a playout result in [0, 1].
inline double to_unit(double r) { return std::clamp(0.5 * (r + 1.0), 0.0, 1.0); }

}  // namespace mcts_detail

template <class G, class V>
requires MctsSetup<G, V>
struct Mcts<G, V>::Worker {
  static constexpr std::size_t kIndexSize = mcts_detail::move_index_size<G>();

  Rng rng;
  std::vector<std::uint32_t> path;       // tree nodes entered, root excluded
  std::vector<Move> seq;                 // every move of the simulation, tree then playout
  std::vector<std::uint8_t> seq_player;  // who played it
  std::vector<std::uint32_t> stamp;      // AMAF: move index seen in simulation `sim_id`
  std::vector<std::uint8_t> first_by;    // ... first played (from the current ply on) by
  std::uint32_t sim_id = 0;
  MoveList<G> moves;
  std::vector<float> priors;
  V eval;
  // A batch evaluator's leaves, their returns and their paths (kBatch of each).
  std::vector<G> leaves;
  std::vector<Returns<G>> out;
  std::vector<std::vector<std::uint32_t>> paths;

  explicit Worker(const V& v)
      : stamp(kIndexSize, 0), first_by(kIndexSize, 0), priors(G::kMaxMoves, 0.0f), eval(v) {
    // Enough for long games; they grow (rarely, then never again) if a game is longer.
    path.reserve(1024);
    seq.reserve(2048);
    seq_player.reserve(2048);
    if constexpr (BatchEvaluator<V, G>) {
      const auto n = static_cast<std::size_t>(std::max(1, static_cast<int>(V::kBatch)));
      leaves.reserve(n);
      out.resize(n);
      paths.resize(n);
      for (auto& p : paths) p.reserve(1024);
    }
  }
};

template <class G, class V>
requires MctsSetup<G, V> Mcts<G, V>::Mcts(const MctsOptions& options, const V& eval)
    : options_(options), eval_(eval) {
  static_assert(G::kMaxMoves <= 0xFFFF, "children counts are 16-bit");
  capacity_ = std::max<std::size_t>(options_.max_nodes, G::kMaxMoves + 1);
  nodes_ = allocate_arena();
  reset_tree();
}

template <class G, class V>
requires MctsSetup<G, V>
typename Mcts<G, V>::NodeArena Mcts<G, V>::allocate_arena() const {
  NodeArena a(static_cast<Node*>(std::malloc(capacity_ * sizeof(Node))));
  if (!a) throw std::bad_alloc();
  return a;
}

template <class G, class V>
requires MctsSetup<G, V> Mcts<G, V>::~Mcts() = default;

template <class G, class V>
requires MctsSetup<G, V>
void Mcts<G, V>::set_options(const MctsOptions& options) {
  const std::size_t keep = options_.max_nodes;
  options_ = options;
  options_.max_nodes = keep;
  options_.check_every = std::bit_ceil(std::max<std::uint64_t>(options_.check_every, 1));
  options_.threads = std::max(options_.threads, 1);
}

template <class G, class V>
requires MctsSetup<G, V>
void Mcts<G, V>::reset_tree() {
  Node& r = nodes_[kRoot];
  r = Node{};
  r.prior = 1.0f;
  r.player = 0xFF;
  r.state = kLeaf;
  size_.store(1, std::memory_order_relaxed);
  full_.store(false, std::memory_order_relaxed);
}

template <class G, class V>
requires MctsSetup<G, V>
void Mcts<G, V>::set_position(const G& state) {
  root_ = state;
  reset_tree();
}

template <class G, class V>
requires MctsSetup<G, V> std::uint64_t Mcts<G, V>::root_visits()
const { return mcts_detail::load(nodes_[kRoot].visits); }

template <class G, class V>
requires MctsSetup<G, V>
bool Mcts<G, V>::advance(Move m) {
  const Node& r = nodes_[kRoot];
  std::uint32_t found = 0;
  if (r.state == kExpanded)
    for (std::uint32_t c = r.first_child; c < r.first_child + r.num_children; ++c)
      if (nodes_[c].move == m) found = c;
  root_->apply(m);
  if (found == 0 || nodes_[found].visits == 0) {
    reset_tree();
    return false;
  }
  // Breadth-first copy of the subtree into the spare arena: children ranges stay contiguous.
  if (!spare_) spare_ = allocate_arena();
  Node* dst = spare_.get();
  std::size_t n = 0;
  dst[n++] = nodes_[found];
  for (std::size_t i = 0; i < n; ++i) {
    Node& d = dst[i];
    d.in_flight = 0;
    if (d.state != kExpanded) {
      d.state = kLeaf;
      d.num_children = 0;
      continue;
    }
    const Node* src = &nodes_[d.first_child];
    std::copy(src, src + d.num_children, dst + n);
    d.first_child = static_cast<std::uint32_t>(n);
    n += d.num_children;
  }
  std::swap(nodes_, spare_);
  size_.store(n, std::memory_order_relaxed);
  full_.store(false, std::memory_order_relaxed);
  return true;
}

template <class G, class V>
requires MctsSetup<G, V>
bool Mcts<G, V>::expand(std::uint32_t node, const G& state, Worker& w) {
  state.legal_moves(w.moves);
  const std::size_t count = w.moves.size();
  if (count == 0) return false;
  std::size_t start = size_.load(std::memory_order_relaxed);
  do {
    if (start + count > capacity_) {
      full_.store(true, std::memory_order_relaxed);  // later leaves stop trying
      return false;
    }
  } while (!size_.compare_exchange_weak(start, start + count, std::memory_order_relaxed));

  float* pr = w.priors.data();
  const float uniform = 1.0f / static_cast<float>(count);
  std::fill(pr, pr + count, uniform);
  if constexpr (requires { w.eval.priors(state, std::span<const Move>{}, std::span<float>{}); }) {
    w.eval.priors(state, std::span<const Move>(w.moves.data(), count), std::span<float>(pr, count));
    float sum = 0.0f;
    for (std::size_t i = 0; i < count; ++i) sum += std::max(pr[i], 0.0f);
    if (sum > 0.0f && std::isfinite(sum)) {
      for (std::size_t i = 0; i < count; ++i) pr[i] = std::max(pr[i], 0.0f) / sum;
    } else {
      std::fill(pr, pr + count, uniform);
    }
  }
  if (node == kRoot) blend_root_hint(std::span<const Move>(w.moves.data(), count), {pr, count});
  const auto player = static_cast<std::uint8_t>(state.current_player());
  for (std::size_t i = 0; i < count; ++i) {
    Node& c = nodes_[start + i];
    c = Node{};
    c.prior = pr[i];
    c.state = kLeaf;
    c.player = player;
    c.move = w.moves[i];
  }
  Node& p = nodes_[node];
  p.first_child = static_cast<std::uint32_t>(start);
  p.num_children = static_cast<std::uint16_t>(count);
  std::atomic_ref<std::uint8_t>(p.state).store(kExpanded, std::memory_order_release);
  return true;
}

template <class G, class V>
requires MctsSetup<G, V> std::uint32_t Mcts<G, V>::select(const Node& parent, Worker&)
const {
  using mcts_detail::load;
  const std::uint32_t first = parent.first_child;
  const std::uint32_t last = first + parent.num_children;
  const double vl = options_.virtual_loss;
  // Pass 1: the parent's value for the mover (first-play urgency) and its visit count.
  double sum_n = 0.0, sum_w = 0.0;
  for (std::uint32_t c = first; c < last; ++c) {
    const Node& ch = nodes_[c];
    sum_n += load(ch.visits) + vl * load(ch.in_flight);
    sum_w += load(ch.value_sum);
  }
  const double parent_q = sum_n > 0.0 ? sum_w / sum_n : 0.5;
  const double fpu = std::max(0.0, parent_q - options_.fpu_reduction);
  const double sqrt_n = std::sqrt(std::max(sum_n, 1.0));
  const double log_n = std::log(std::max(sum_n, 1.0));
  const bool rave = options_.rave && Worker::kIndexSize > 0 && V::kPlayout;
  const double k = options_.rave_k;

  std::uint32_t best = first;
  double best_score = -std::numeric_limits<double>::infinity();
  for (std::uint32_t c = first; c < last; ++c) {
    const Node& ch = nodes_[c];
    const double n = load(ch.visits) + vl * load(ch.in_flight);
    const std::uint32_t an = rave ? load(ch.amaf_visits) : 0;
    const bool unknown = n <= 0.0 && an == 0;
    double q = n > 0.0 ? load(ch.value_sum) / n : 0.0;
    if (an > 0) {
      const double qa = load(ch.amaf_sum) / an;
      const double beta = n > 0.0 ? std::sqrt(k / (3.0 * n + k)) : 1.0;
      q = (1.0 - beta) * q + beta * qa;
    }
    double score;
    if (options_.use_puct) {
      score = (unknown ? fpu : q) + options_.c_puct * ch.prior * sqrt_n / (1.0 + n);
    } else {
      score = unknown ? 1e9 + ch.prior : q + options_.c_uct * std::sqrt(log_n / std::max(n, 1.0));
    }
    if (score > best_score) {
      best_score = score;
      best = c;
    }
  }
  return best;
}

template <class G, class V>
requires MctsSetup<G, V>
void Mcts<G, V>::descend(Worker& w, G& s, std::vector<std::uint32_t>& path, bool vl) {
  using mcts_detail::load;
  std::uint32_t node = kRoot;
  bool expanded = false;
  while (!s.is_terminal()) {
    Node& n = nodes_[node];
    std::atomic_ref<std::uint8_t> state(n.state);
    if (state.load(std::memory_order_acquire) != kExpanded) {
      if (expanded || full_.load(std::memory_order_relaxed) ||
          load(n.visits) < static_cast<std::uint32_t>(options_.expand_after))
        break;
      std::uint8_t expected = kLeaf;
      if (!state.compare_exchange_strong(expected, kExpanding, std::memory_order_acquire)) break;
      if (!expand(node, s, w)) {
        state.store(kLeaf, std::memory_order_release);
        break;
      }
      expanded = true;
    }
    const std::uint32_t child = select(n, w);
    Node& c = nodes_[child];
    if (vl) std::atomic_ref<std::uint32_t>(c.in_flight).fetch_add(1, std::memory_order_relaxed);
    path.push_back(child);
    w.seq.push_back(c.move);
    w.seq_player.push_back(c.player);
    s.apply(c.move);
    node = child;
  }
}

template <class G, class V>
requires MctsSetup<G, V>
void Mcts<G, V>::backup(const std::vector<std::uint32_t>& path, const Returns<G>& r, bool vl) {
  const bool shared = options_.threads > 1;
  // Each node's value is for the player who played its move.
  std::array<double, G::kMaxPlayers> value;
  for (int p = 0; p < G::kMaxPlayers; ++p) value[p] = mcts_detail::to_unit(r[p]);
  mcts_detail::add(nodes_[kRoot].visits, 1u, shared);
  for (const std::uint32_t i : path) {
    Node& n = nodes_[i];
    mcts_detail::add(n.visits, 1u, shared);
    mcts_detail::add(n.value_sum, value[n.player], shared);
    if (vl) std::atomic_ref<std::uint32_t>(n.in_flight).fetch_sub(1, std::memory_order_relaxed);
  }
}

template <class G, class V>
requires MctsSetup<G, V>
void Mcts<G, V>::simulate_batch(Worker& w, std::uint64_t count) {
  if constexpr (kBatched) {
    w.leaves.clear();
    std::size_t pending = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
      G s = *root_;
      auto& path = w.paths[pending];
      path.clear();
      w.seq.clear();
      w.seq_player.clear();
      descend(w, s, path, true);
      if (s.is_terminal()) {
        backup(path, s.returns(), true);  // the game's own result needs no evaluator
      } else {
        w.leaves.push_back(s);
        ++pending;
      }
    }
    if (pending == 0) return;
    w.eval.values(std::span<G>(w.leaves.data(), pending),
                  std::span<Returns<G>>(w.out.data(), pending));
    for (std::size_t i = 0; i < pending; ++i) backup(w.paths[i], w.out[i], true);
  } else {
    (void)w, (void)count;
  }
}

template <class G, class V>
requires MctsSetup<G, V>
void Mcts<G, V>::simulate(Worker& w) {
  const bool shared = options_.threads > 1;
  G s = *root_;
  w.path.clear();
  w.seq.clear();
  w.seq_player.clear();
  descend(w, s, w.path, shared);

  // The leaf's value: the game's result where it is over, else the evaluator's (a playout
  // to the end of the game by default).
  PlayoutLog<G> log{&w.seq, &w.seq_player};
  const Returns<G> r = s.is_terminal() ? s.returns() : w.eval.value(s, w.rng, log);
  backup(w.path, r, shared);

  // AMAF: walking the simulation backwards, first_by[m] is the player who first played m at
  // or after the current ply; at each tree node, the children whose move its player played
  // first from there on share the result.
  if constexpr (Worker::kIndexSize > 0 && V::kPlayout) {
    if (!options_.rave) return;
    std::array<double, G::kMaxPlayers> value;
    for (int p = 0; p < G::kMaxPlayers; ++p) value[p] = mcts_detail::to_unit(r[p]);
    if (++w.sim_id == 0) {
      std::fill(w.stamp.begin(), w.stamp.end(), 0u);
      w.sim_id = 1;
    }
    const std::size_t depth = w.path.size();
    for (std::size_t i = w.seq.size(); i-- > 0;) {
      const std::size_t idx = mcts_detail::move_index<G>(w.seq[i]);
      w.stamp[idx] = w.sim_id;
      w.first_by[idx] = w.seq_player[i];
      if (i >= depth) continue;
      const Node& parent = nodes_[i == 0 ? kRoot : w.path[i - 1]];
      const std::uint8_t p = w.seq_player[i];
      const double v = value[p];
      const std::uint32_t last = parent.first_child + parent.num_children;
      for (std::uint32_t c = parent.first_child; c < last; ++c) {
        Node& ch = nodes_[c];
        const std::size_t ci = mcts_detail::move_index<G>(ch.move);
        if (w.stamp[ci] != w.sim_id || w.first_by[ci] != p) continue;
        mcts_detail::add(ch.amaf_visits, 1u, shared);
        mcts_detail::add(ch.amaf_sum, v, shared);
      }
    }
  }
}

template <class G, class V>
requires MctsSetup<G, V>
bool Mcts<G, V>::limit_reached(std::uint64_t ticket) const {
  if (options_.max_playouts > 0 && ticket >= options_.max_playouts) return true;
  if (options_.max_visits > 0 && start_visits_ + ticket >= options_.max_visits) return true;
  return false;
}

template <class G, class V>
requires MctsSetup<G, V>
bool Mcts<G, V>::should_stop(const TimeBudget& budget) const {
  using mcts_detail::load;
  if (budget.stopped()) return true;
  const bool past_soft = budget.elapsed_ms() >= budget.soft_ms();
  if (past_soft && (!options_.extend_when_unclear || budget.hard_expired())) return true;
  if (!past_soft && !options_.stop_when_decided) return false;
  // The two most visited root moves.
  const Node& r = nodes_[kRoot];
  if (r.state != kExpanded || r.num_children < 2) return past_soft || options_.stop_when_decided;
  const Node* first = nullptr;
  const Node* second = nullptr;
  for (std::uint32_t c = r.first_child; c < r.first_child + r.num_children; ++c) {
    const Node& ch = nodes_[c];
    if (!first || load(ch.visits) > load(first->visits)) {
      second = first;
      first = &ch;
    } else if (!second || load(ch.visits) > load(second->visits)) {
      second = &ch;
    }
  }
  const double v1 = load(first->visits), v2 = load(second->visits);
  if (past_soft) {  // extending: go on only while the race is open (no visits yet: open)
    if (v1 == 0) return false;
    const bool close = v2 > options_.unclear_visit_ratio * v1;
    const bool better = v2 > 0 && load(second->value_sum) / v2 > load(first->value_sum) / v1;
    return !(close || better);
  }
  // Playouts left before the nearest limit; none known: not decided.
  double left = -1;
  auto at_most = [&](double x) { left = left < 0 ? x : std::min(left, x); };
  const double done = static_cast<double>(done_.load(std::memory_order_relaxed));
  if (options_.max_playouts > 0) at_most(static_cast<double>(options_.max_playouts) - done);
  if (options_.max_visits > 0)
    at_most(static_cast<double>(options_.max_visits) - static_cast<double>(load(r.visits)));
  const std::int64_t us = budget.elapsed_us();
  if (budget.soft_ms() < TimeBudget::kUnlimited && us >= 2000 && done > 0)
    at_most(done / static_cast<double>(us) *
            (static_cast<double>(budget.soft_ms()) * 1000.0 - static_cast<double>(us)));
  return left >= 0 && v1 - v2 > left;
}

template <class G, class V>
requires MctsSetup<G, V>
void Mcts<G, V>::run_worker(Worker& w, bool main, TimeBudget& budget, const InfoCallback* info) {
  const std::uint64_t mask = options_.check_every - 1;
  const std::int64_t interval = options_.info_interval_ms;
  std::int64_t last_info = -interval;  // the first check reports at once
  for (std::uint64_t local = 0;; ++local) {
    if (stop_.load(std::memory_order_relaxed)) break;
    if ((local & mask) == 0) {
      // The target time or an external stop; the main worker also decides on the root's
      // race (should_stop), the others follow it through stop_ up to the hard limit.
      if (main                           ? should_stop(budget)
          : options_.extend_when_unclear ? budget.hard_expired()
                                         : budget.soft_expired())
        break;
      if (main && info && interval > 0) {
        const std::int64_t now = budget.elapsed_ms();
        if (now - last_info >= interval) {
          last_info = now;
          (*info)(result());
        }
      }
    }
    if constexpr (kBatched) {
      // A batch of simulations, cut to the playout or visit limit.
      const std::uint64_t batch =
          static_cast<std::uint64_t>(std::max(1, static_cast<int>(V::kBatch)));
      const std::uint64_t ticket = tickets_.fetch_add(batch, std::memory_order_relaxed);
      if (limit_reached(ticket)) break;
      std::uint64_t n = batch;
      if (options_.max_playouts > 0) n = std::min(n, options_.max_playouts - ticket);
      if (options_.max_visits > 0) n = std::min(n, options_.max_visits - start_visits_ - ticket);
      simulate_batch(w, n);
      done_.fetch_add(n, std::memory_order_relaxed);
      local += n - 1;
    } else {
      const std::uint64_t ticket = tickets_.fetch_add(1, std::memory_order_relaxed);
      if (limit_reached(ticket)) break;
      simulate(w);
      done_.fetch_add(1, std::memory_order_relaxed);
    }
  }
  stop_.store(true, std::memory_order_relaxed);  // the others stop at their next playout
}

template <class G, class V>
requires MctsSetup<G, V>
void Mcts<G, V>::ensure_workers() {
  while (workers_.size() < static_cast<std::size_t>(options_.threads))
    workers_.push_back(std::make_unique<Worker>(eval_));
}

template <class G, class V>
requires MctsSetup<G, V>
typename Mcts<G, V>::Result Mcts<G, V>::search() {
  TimeBudget budget;
  return search(budget);
}

template <class G, class V>
requires MctsSetup<G, V>
typename Mcts<G, V>::Result Mcts<G, V>::search(TimeBudget& budget, const InfoCallback* info) {
  set_options(options_);  // normalises check_every and threads
  stop_.store(false, std::memory_order_relaxed);
  tickets_.store(0, std::memory_order_relaxed);
  done_.store(0, std::memory_order_relaxed);
  start_visits_ = root_visits();
  budget_ = &budget;
  ensure_workers();
  for (int i = 0; i < options_.threads; ++i) {
    std::uint64_t mix = options_.seed ^ (searches_ * 0x9E3779B97F4A7C15ull);
    workers_[i]->rng.reseed(splitmix64(mix) + static_cast<std::uint64_t>(i));
  }
  ++searches_;

  const G& root = *root_;
  Node& r = nodes_[kRoot];
  if (!root.is_terminal() && r.state != kExpanded) {
    r.state = kExpanding;
    if (!expand(kRoot, root, *workers_[0])) r.state = kLeaf;
  }
  if (r.state == kExpanded) {
    std::vector<std::thread> helpers;
    for (int i = 1; i < options_.threads; ++i)
      helpers.emplace_back(
          [this, i, &budget] { run_worker(*workers_[i], false, budget, nullptr); });
    run_worker(*workers_[0], true, budget, info);
    for (auto& t : helpers) t.join();
  }
  Result res = result();
  res.exceeded = !budget.is_unlimited() && budget.elapsed_ms() >= budget.hard_ms();
  budget_ = nullptr;
  return res;
}

template <class G, class V>
requires MctsSetup<G, V>
typename Mcts<G, V>::Result Mcts<G, V>::result() const { return node_result(kRoot); }

template <class G, class V>
requires MctsSetup<G, V> std::uint32_t Mcts<G, V>::child_of(std::uint32_t node, Move m)
const {
  const Node& n = nodes_[node];
  if (std::atomic_ref<std::uint8_t>(const_cast<std::uint8_t&>(n.state))
          .load(std::memory_order_acquire) != kExpanded)
    return kNoNode;
  for (std::uint32_t c = n.first_child; c < n.first_child + n.num_children; ++c)
    if (nodes_[c].move == m) return c;
  return kNoNode;
}

template <class G, class V>
requires MctsSetup<G, V>
void Mcts<G, V>::set_root_prior_hint(std::vector<std::pair<Move, float>> hint, double weight) {
  root_hint_ = std::move(hint);
  root_hint_weight_ = std::clamp(weight, 0.0, 1.0);
  Node& r = nodes_[kRoot];
  if (r.state != kExpanded || root_hint_.empty()) return;
  // Already expanded (a reused tree): blend into the children's priors now.
  std::vector<float> pr(r.num_children);
  for (std::uint32_t i = 0; i < r.num_children; ++i) pr[i] = nodes_[r.first_child + i].prior;
  std::vector<Move> moves(r.num_children);
  for (std::uint32_t i = 0; i < r.num_children; ++i) moves[i] = nodes_[r.first_child + i].move;
  blend_root_hint(moves, pr);
  for (std::uint32_t i = 0; i < r.num_children; ++i) nodes_[r.first_child + i].prior = pr[i];
}

template <class G, class V>
requires MctsSetup<G, V>
void Mcts<G, V>::blend_root_hint(std::span<const Move> moves, std::span<float> pr) const {
  if (root_hint_.empty() || root_hint_weight_ <= 0.0) return;
  // The hint is renormalised over the legal moves (moves it names that are not legal here
  // are dropped); with no mass left on legal moves the priors stay as they are.
  std::vector<float> h(moves.size(), 0.0f);
  float total = 0.0f;
  for (const auto& [m, w] : root_hint_)
    for (std::size_t i = 0; i < moves.size(); ++i)
      if (moves[i] == m && w > 0.0f && std::isfinite(w)) {
        h[i] += w;
        total += w;
      }
  if (total <= 0.0f) return;
  const auto a = static_cast<float>(root_hint_weight_);
  for (std::size_t i = 0; i < moves.size(); ++i) pr[i] = (1.0f - a) * pr[i] + a * h[i] / total;
}

template <class G, class V>
requires MctsSetup<G, V>
typename Mcts<G, V>::Result Mcts<G, V>::node_result(std::uint32_t node) const {
  using mcts_detail::load;
  Result res;
  const Node& root = nodes_[node];
  res.root_visits = load(root.visits);
  res.nodes = nodes_used();
  res.playouts = done_.load(std::memory_order_relaxed);
  if (budget_) res.time_ms = budget_->elapsed_ms();
  auto expanded = [](const Node& n) {
    return std::atomic_ref<std::uint8_t>(const_cast<std::uint8_t&>(n.state))
               .load(std::memory_order_acquire) == kExpanded;
  };
  if (!expanded(root)) return res;

  double total = 0.0;
  for (std::uint32_t c = root.first_child; c < root.first_child + root.num_children; ++c) {
    const Node& ch = nodes_[c];
    MoveStats<Move> ms;
    ms.move = ch.move;
    ms.visits = static_cast<int>(load(ch.visits));
    ms.value = ms.visits > 0 ? load(ch.value_sum) / ms.visits : 0.5;
    ms.prior = ch.prior;
    ms.amaf_visits = static_cast<int>(load(ch.amaf_visits));
    ms.amaf_value = ms.amaf_visits > 0 ? load(ch.amaf_sum) / ms.amaf_visits : 0.5;
    total += ms.visits;
    res.moves.push_back(ms);
  }
  std::stable_sort(res.moves.begin(), res.moves.end(), [](const auto& a, const auto& b) {
    return a.visits != b.visits ? a.visits > b.visits : a.prior > b.prior;
  });
  for (const auto& ms : res.moves) res.policy.push_back(total > 0 ? ms.visits / total : 0.0);
  res.best = res.moves.front().move;
  res.value = res.moves.front().value;

  // Principal variation: most visited children (ties: higher prior) while they have visits.
  for (const Node* n = &root; expanded(*n) && n->num_children > 0;) {
    const Node* best = nullptr;
    for (std::uint32_t c = n->first_child; c < n->first_child + n->num_children; ++c) {
      const Node& ch = nodes_[c];
      if (!best || load(ch.visits) > load(best->visits) ||
          (load(ch.visits) == load(best->visits) && ch.prior > best->prior))
        best = &ch;
    }
    if (load(best->visits) == 0) break;
    res.pv.push_back(best->move);
    n = best;
  }

  // Uncertainty (documented at MctsResult::uncertainty).
  const std::size_t k = res.moves.size();
  if (k <= 1) {
    res.entropy = res.value_closeness = res.uncertainty = 0.0;
    return res;
  }
  if (total <= 0) return res;  // no visits yet: 1
  double h = 0.0;
  for (const double p : res.policy)
    if (p > 0) h -= p * std::log(p);
  res.entropy = std::clamp(h / std::log(static_cast<double>(k)), 0.0, 1.0);
  double sum = 0.0, sq = 0.0;
  int m = 0;
  for (std::size_t i = 0; i < std::min<std::size_t>(3, k) && res.moves[i].visits > 0; ++i, ++m) {
    sum += res.moves[i].value;
    sq += res.moves[i].value * res.moves[i].value;
  }
  if (m >= 2) {
    const double mean = sum / m;
    const double sd = std::sqrt(std::max(0.0, sq / m - mean * mean));
    res.value_closeness = 1.0 - std::min(1.0, sd / options_.uncertainty_value_scale);
  } else {
    res.value_closeness = 0.0;
  }
  res.uncertainty = 0.5 * (res.entropy + res.value_closeness);
  return res;
}

}  // namespace kibitz::search

#pragma once
// The MCTS leaf as a seam: an evaluator object per search thread gives the priors of a node's
// moves and the value of a leaf. PlayoutEval, the default, is the classic one: priors from
// SearchTraits<G>::priors (uniform without it) and a playout to the end of the game with
// SearchTraits<G>::playout_move (a uniformly random legal move without it). An evaluator
// with a value head (a network) returns the value at once and plays nothing; RAVE then has
// no playout to learn from and stays off.
#include <concepts>
#include <cstdint>
#include <span>
#include <vector>

#include "api/concepts.hpp"
#include "core/rng.hpp"

namespace kibitz::search {

// Where a playout writes the moves it plays and their players (for the AMAF statistics).
template <class G>
struct PlayoutLog {
  std::vector<typename G::Move>* moves;
  std::vector<std::uint8_t>* players;
  void push(typename G::Move m, int player) {
    moves->push_back(m);
    players->push_back(static_cast<std::uint8_t>(player));
  }
};

// What Mcts<G, V> asks of V:
//   value(s, rng, log)   the returns of the non-terminal leaf s (per player, in [-1, 1]); it
//                        may play s on (a playout), writing each move to log
//   kPlayout             whether value() plays out (RAVE learns only from playouts)
//   priors(s, moves, out)   optional: weights for the legal moves (any non-negative numbers;
//                        the search normalises them); uniform priors without it
// V is copied once per search thread from the one the search was given.
template <class V, class G>
concept MctsEvaluator = std::copy_constructible<V> &&
    requires(V& v, G& s, Rng& rng, PlayoutLog<G>& log) {
  { v.value(s, rng, log) } -> std::convertible_to<Returns<G>>;
  { V::kPlayout } -> std::convertible_to<bool>;
};

// Optional, for an evaluator that is cheaper per leaf in batches (a network on an
// accelerator): kBatch > 1 leaves are selected one after another (virtual loss on their paths
// spreads them over the tree, in one thread too), then values(leaves, out) gives the returns
// of all of them at once (out[i] for leaves[i]); each counts as one playout. Such an evaluator
// plays nothing (kPlayout false): RAVE stays off.
template <class V, class G>
concept BatchEvaluator = MctsEvaluator<V, G> &&
    requires(V& v, std::span<G> leaves, std::span<Returns<G>> out) {
  { V::kBatch } -> std::convertible_to<int>;
  v.values(leaves, out);
};

template <class G>
concept HasTraitsPriors = requires(const G& s, std::span<const typename G::Move> m,
                                   std::span<float> out) {
  SearchTraits<G>::priors(s, m, out);
};

template <class G>
struct PlayoutEval {
  using Move = typename G::Move;
  static constexpr bool kPlayout = true;

  void priors(const G& s, std::span<const Move> moves,
              std::span<float> out) requires HasTraitsPriors<G> {
    SearchTraits<G>::priors(s, moves, out);
  }

  Returns<G> value(G& s, Rng& rng, PlayoutLog<G>& log) {
    while (!s.is_terminal()) {
      const int player = s.current_player();
      Move m;
      if constexpr (requires(Rng & r) {
                      { SearchTraits<G>::playout_move(s, r) } -> std::convertible_to<Move>;
                    }) {
        m = SearchTraits<G>::playout_move(s, rng);
      } else {
        s.legal_moves(moves_);
        if (moves_.empty()) break;
        m = moves_[rng.below(moves_.size())];
      }
      log.push(m, player);
      s.apply(m);
    }
    return s.returns();
  }

 private:
  MoveList<G> moves_;
};

}  // namespace kibitz::search

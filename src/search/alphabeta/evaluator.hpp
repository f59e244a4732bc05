#pragma once
// The alpha-beta's leaf value as a seam: an evaluator object per search thread, told of every
// move the search makes and takes back, so an incremental evaluation (a network's
// accumulators) can keep its own state beside the game's. GameEval, the default, asks the
// game's own evaluate() and keeps nothing.
#include <concepts>

#include "api/concepts.hpp"

namespace kibitz::search {

// What AlphaBeta<G, E> asks of E. The position passed is always the one the search holds:
// make(s, m) before s plays m, unmake(s, m) after m is taken back (s is again the position
// before it); make_null / unmake_null likewise around a pass, where the game has one.
// evaluate(s) is from the side to move's view, in the game's score units. E is copied once
// per search thread (from the one the search was given), and reset(root) starts each search.
template <class E, class G>
concept AlphaBetaEvaluator = std::copy_constructible<E> &&
    requires(E& e, const G& s, typename G::Move m) {
  e.reset(s);
  e.make(s, m);
  e.unmake(s, m);
  { e.evaluate(s) } -> std::convertible_to<int>;
} &&(!HasNullMove<G> || requires(E & e, const G& s) {
  e.make_null(s);
  e.unmake_null(s);
});

// The game's own static evaluation (HasEval); every notification is a no-op the compiler
// removes, so the default search pays nothing for the seam.
template <class G>
struct GameEval {
  using Move = typename G::Move;
  void reset(const G&) {}
  void make(const G&, Move) {}
  void unmake(const G&, Move) {}
  void make_null(const G&) {}
  void unmake_null(const G&) {}
  int evaluate(const G& s) const requires HasEval<G> { return s.evaluate(); }
};

}  // namespace kibitz::search

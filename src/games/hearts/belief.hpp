#pragma once
// The belief of one seat over the hidden cards: every deal of the unseen cards to the other
// three seats that agrees with what the seat has seen (hand sizes, voids and the other hard
// inferences of Observation, the cards it passed) is equally likely — Bayes with a uniform
// prior and hard evidence. Counted exactly, not estimated: the unseen cards fall into at most
// seven groups by the set of seats that may hold them, and a small table over the groups
// (cards given to the first two seats so far) counts the completions. From it come the
// exact number of consistent deals, exact card-location probabilities, uniform sampling
// (one pass over the groups, no rejection) and enumeration of every deal when few remain.
#include <array>
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "games/hearts/state.hpp"

namespace kibitz::hearts {

class Belief {
 public:
  explicit Belief(const Observation& o);

  // Number of deals consistent with the observation (saturates at UINT64_MAX; 0 means the
  // observation contradicts itself).
  std::uint64_t count() const { return total_; }
  // Probability that `seat` holds card c (0 or 1 for our own cards and played ones).
  double probability(int seat, Card c) const;
  // P(seat holds no card of suit s).
  double void_probability(int seat, Suit s) const;
  // A deal drawn uniformly among the consistent ones (all four hands; ours as it is).
  Deal sample(Rng& rng) const;
  // Every consistent deal, when there are at most `limit`; otherwise nothing (returns false).
  bool enumerate(std::uint64_t limit, std::vector<Deal>& out) const;

 private:
  struct Group {
    CardSet cards;
    std::uint8_t allowed = 0;  // bit i: other seat i may hold these cards
    int n = 0;
  };

  Deal fixed_{};                 // cards whose holder is known (ours; our passed cards)
  std::array<int, 3> others_{};  // the other seats, in order
  std::array<int, 3> need_{};    // free cards each other seat still needs
  std::vector<Group> groups_;
  // suffix_[g][x0][x1]: ways to deal groups g.. when the first two seats already have x0 and
  // x1 free cards (the third seat's count follows).
  std::vector<std::array<std::array<std::uint64_t, 14>, 14>> suffix_;
  std::uint64_t total_ = 0;
  std::array<std::array<double, 64>, kNumPlayers> prob_{};
};

}  // namespace kibitz::hearts

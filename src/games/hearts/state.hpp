#pragma once
// One hand of Hearts: the deal, the passing of three cards, thirteen tricks and the score;
// plus what one seat knows of it (Observation). The defaults are OpenSpiel's hearts
// defaults: cards passed, 2♣ leads the first trick, no points on the first trick (unless a
// hand holds nothing else), hearts must be broken before they are led, Q♠ breaks hearts,
// no J♦ bonus, shooting the moon gives +26 to each other player.
//
// State satisfies Game and ImperfectInfo (api/concepts.hpp). Seats are 0..3 (N, E, S, W);
// "left" passes to seat + 1. During the passing each seat in turn picks its three cards one
// at a time (seat 0 first, as OpenSpiel does); the cards change hands after the twelfth pick.
// returns() is the negated score of the hand (higher is better), so searches maximise it.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "api/concepts.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "games/hearts/cards.hpp"

namespace kibitz::hearts {

enum class PassDir : std::uint8_t { kLeft = 0, kRight = 1, kAcross = 2, kNone = 3 };

// The usual cycle over the hands of a game: left, right, across, no passing.
constexpr PassDir pass_dir_for_hand(int hand_index) { return static_cast<PassDir>(hand_index % 4); }
constexpr int pass_target(int seat, PassDir d) {
  return d == PassDir::kLeft     ? (seat + 1) % 4
         : d == PassDir::kRight  ? (seat + 3) % 4
         : d == PassDir::kAcross ? (seat + 2) % 4
                                 : seat;
}
std::string_view to_string(PassDir d);  // "left", "right", "across", "none"
Result<PassDir> parse_pass_dir(std::string_view text);

struct Options {
  bool pass_cards = true;             // false: no passing in any hand
  bool no_points_first_trick = true;  // no heart or Q♠ on the first trick unless nothing else
  bool must_break_hearts = true;      // hearts may not be led before one has been played
  bool qs_breaks_hearts = true;       // playing Q♠ breaks hearts too
  bool jd_bonus = false;              // the J♦ variant: taking it scores −10
  bool moon_minus = false;            // shooting the moon scores −26 instead of +26 to others
  int game_target = 100;              // the game ends when someone reaches it
  bool operator==(const Options&) const = default;
};

// The four hands of a deal, by seat.
using Deal = std::array<CardSet, kNumPlayers>;
// A uniformly random deal.
Deal random_deal(Rng& rng);
// Checks that four hands of 13 cards partition the deck; the error names the problem.
Result<void> check_deal(const Deal& d);
// A deal from 52 card words, 13 a hand, North, East, South, West (the shared deal files'
// order); the error names a bad or repeated card.
Result<Deal> parse_deal(std::span<const std::string_view> cards);

enum class Phase : std::uint8_t { kPass, kPlay, kOver };

class Observation;

class State {
 public:
  using Move = Card;
  using InfoState = Observation;
  static constexpr std::size_t kMaxMoves = kHandSize;
  static constexpr int kMaxPlayers = kNumPlayers;
  static constexpr bool kZeroSum = false;

  // A hand dealt as `deal`, passing in direction `dir` (kNone, or options.pass_cards false:
  // play starts at once), with the game scores before this hand (used by the bots'
  // objectives; the hand's own score starts at zero).
  State(const Deal& deal, PassDir dir, const Options& options = {},
        std::array<int, kNumPlayers> scores_before = {});

  // --- Game concept
  int current_player() const;
  bool is_terminal() const { return num_plays_ == kNumCards; }
  Returns<State> returns() const;  // -(hand score) per seat; partial while the hand is on
  std::size_t legal_moves(MoveList<State>& out) const;
  void apply(Card c);  // c must be legal
  std::uint64_t hash() const { return hash_ ^ turn_key(); }
  std::uint64_t compute_hash() const;

  // --- ImperfectInfo concept
  Observation information_state(int seat) const;
  // A full state that seat cannot tell from this one, drawn uniformly among those consistent
  // with what seat has seen (belief.hpp).
  State sample_world(int seat, Rng& rng) const;

  // --- Queries
  Phase phase() const;
  CardSet legal_set() const;  // the legal moves as a set
  bool is_legal(Card c) const { return legal_set().contains(c); }
  const Options& options() const { return options_; }
  PassDir pass_dir() const { return dir_; }
  CardSet hand(int seat) const { return hands_[seat]; }
  // Cards seat passed (or has picked so far, during the passing) and received.
  CardSet passed(int seat) const { return passed_[seat]; }
  CardSet received(int seat) const;
  CardSet taken(int seat) const { return taken_[seat]; }  // cards won in tricks
  int tricks_won(int seat) const { return tricks_won_[seat]; }
  int num_plays() const { return num_plays_; }
  int tricks_done() const { return num_plays_ / 4; }
  int trick_size() const { return num_plays_ % 4; }  // cards on the table
  int leader() const { return leader_; }             // seat that led the current trick
  Card trick_card(int i) const { return plays_[num_plays_ - trick_size() + i]; }
  Card play(int i) const { return plays_[i]; }  // i-th card played in the hand
  int play_seat(int i) const { return play_seat_[i]; }
  bool is_first_trick() const { return num_plays_ < 4; }
  bool hearts_broken() const { return hearts_broken_; }
  CardSet played() const { return played_; }  // every card played so far
  CardSet table() const;                      // the current trick's cards
  // The seat winning the current trick so far (the trick must not be empty).
  int trick_winner() const;
  const std::array<int, kNumPlayers>& scores_before() const { return scores_before_; }
  // Points taken so far (no moon rule) and the hand's score (the moon rule applied when one
  // seat took every heart and Q♠).
  int raw_points(int seat) const { return raw_points_[seat]; }
  std::array<int, kNumPlayers> hand_scores() const;
  int points_played() const;  // points (hearts and Q♠) already taken or on the table

  // Replaces the hidden hands (belief sampling): every hand keeps its size, the passing
  // picks of `seat` stay, other pending picks are drawn from their owners' new hands.
  void set_hands(const Deal& hands, int seat, Rng& rng);

  // The legal-move rule for a hand of cards in this situation (the hand need not be real:
  // bots ask it of sampled hands).
  CardSet legal_for(CardSet hand) const;

  std::string to_string() const;  // a multi-line picture for people

 private:
  enum Loc : int { kHandLoc = 0, kPassLoc = 4, kTakenLoc = 8, kTableLoc = 12, kNumLocs = 13 };
  friend class Observation;
  static std::uint64_t key(Card c, int loc);
  std::uint64_t turn_key() const;
  void exchange_passes();

  Options options_;
  std::array<CardSet, kNumPlayers> hands_{};
  std::array<CardSet, kNumPlayers> passed_{};
  std::array<CardSet, kNumPlayers> taken_{};
  std::array<int, kNumPlayers> scores_before_{};
  std::array<std::int16_t, kNumPlayers> raw_points_{};
  std::array<std::uint8_t, kNumPlayers> tricks_won_{};
  std::array<Card, kNumCards> plays_{};
  std::array<std::uint8_t, kNumCards> play_seat_{};
  CardSet played_;
  std::uint64_t hash_ = 0;
  std::uint8_t num_plays_ = 0;
  std::uint8_t picks_ = 0;  // passing picks made (12 when done)
  std::uint8_t current_ = 0;
  std::uint8_t leader_ = 0;
  PassDir dir_ = PassDir::kNone;
  bool hearts_broken_ = false;
};

// What one seat knows of a hand: its own cards, what it passed and received, every card
// played and by whom, and the hard inferences the rules give (a seat that did not follow
// suit is void in it; a heart led before hearts were broken, or a point card thrown on the
// first trick, shows what else the hand cannot hold). Built from a State, or from events
// one at a time (the JSON-lines server, a person's game), which are checked for consistency.
class Observation {
 public:
  Observation() : pub_(Deal{}, PassDir::kNone) {}
  // A new hand for `seat` holding `hand` (13 cards).
  static Result<Observation> deal(int seat, CardSet hand, PassDir dir, const Options& options,
                                  std::array<int, kNumPlayers> scores_before = {});
  // Our three passed cards (before the exchange) and the three we received.
  Result<void> pass(CardSet cards);
  Result<void> receive(CardSet cards);
  // A card played by `seat` (ours or another's), checked against everything known.
  Result<void> play(int seat, Card card);

  int seat() const { return seat_; }
  CardSet hand() const { return pub_.hand(seat_); }
  const State& public_state() const { return pub_; }  // other hands empty
  Phase phase() const;
  int current_player() const;
  CardSet legal_set() const;  // ours, when it is our turn
  int hand_size(int seat) const { return hand_size_[seat]; }
  // Cards seat certainly does not hold / certainly holds (our passed cards not yet played).
  CardSet excluded(int seat) const { return excluded_[seat]; }
  CardSet known(int seat) const { return known_[seat]; }
  // Cards whose place we do not know for certain (not ours, not played).
  CardSet unseen() const;
  CardSet passed_out() const { return passed_out_; }
  CardSet received() const { return received_; }
  bool passing_done() const { return passing_done_; }

  // A full state consistent with everything seen; `hands` gives the other seats' cards.
  State world(const Deal& hands, Rng& rng) const;

 private:
  friend class State;
  void note_play(int seat, Card c, const State& before);
  void set_first_leader(int seat);
  int seat_ = 0;
  State pub_;
  std::array<int, kNumPlayers> hand_size_{};
  std::array<CardSet, kNumPlayers> excluded_{};
  std::array<CardSet, kNumPlayers> known_{};
  CardSet passed_out_;
  CardSet received_;
  bool passing_done_ = false;
};

// The result of a whole game of hands to options.game_target.
struct GameScore {
  std::array<int, kNumPlayers> scores{};
  bool over(const Options& o) const;
  // Seats with the lowest score (several on a tie).
  std::array<bool, kNumPlayers> winners() const;
};

}  // namespace kibitz::hearts

#pragma once
// What every game's referee shares: the bookkeeping (each seat's limits and clock, the ending
// of the outcome, forfeits and their counters, the time accounting of each move) and the one
// referee loop (referee_turns) that asks the seats for their moves in turn.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/process.hpp"
#include "match/arena.hpp"

namespace kibitz::match {

// Starts an external player's program (its working directory, its stderr shown or not).
Result<std::unique_ptr<Subprocess>> spawn_player(const PlayerSpec& spec);

// How a game ends: the first seat's score (1, 0.5, 0; negative: unfinished), how and why, and
// the result text where the game's notation says more than the book's ("B+3.5").
struct Verdict {
  double first_score = -1;
  std::string termination;
  std::string reason;
  std::string result;  // empty: the book's notation for the score
};

class RefereeBook {
 public:
  // `results`: the game's notation for a first-seat win, a second-seat win, a draw and an
  // unfinished game ("1-0", "0-1", "1/2-1/2", "*" in chess).
  RefereeBook(GameOutcome& out, std::array<const PlayerSpec*, 2> specs,
              const GameSettings& settings, std::array<std::string_view, 4> results);

  const MoveLimits& limits(int seat) const { return limits_[seat]; }
  GameClocks& clocks() { return clocks_; }
  GameOutcome& outcome() { return out_; }

  // first_score: 1, 0.5, 0, or negative for unfinished.
  void end(double first_score, std::string termination, std::string reason);
  void end(const Verdict& verdict);
  // `seat` loses: its counter for the fault goes up.
  void forfeit(int seat, Fault fault, std::string termination, std::string reason);
  // Charges a move's wall time to `seat` (its longest move and least clock left are kept).
  // On a timeout or a clock run out, records the time forfeit of `who` and returns false.
  bool charge(int seat, double elapsed_ms, bool timed_out, std::string_view who);

 private:
  GameOutcome& out_;
  std::array<MoveLimits, 2> limits_;
  GameClocks clocks_;
  std::array<std::string_view, 4> results_;
};

// A seat's answer to "your move": the move in the notation the game's players speak.
struct TurnReply {
  // kRefused: the player answered the request with an error (GTP's "?"). kCrash: it cannot
  // go on (exited, closed its input). kStopped: the match was interrupted while it thought.
  enum class Status { kMove, kTimeout, kCrash, kRefused, kStopped } status = Status::kMove;
  std::string move;
  std::optional<int> score;  // the mover's view, where the player says (chess adjudication)
  std::string comment;       // for the record ("+0.35/12")
  std::string error;         // kCrash, kRefused: what happened, after the player's name
  double elapsed_ms = 0;
};

// One game in progress, as the one loop sees it: each game's referee implements it over its
// own position and seats (a virtual call or two a move).
class TurnGame {
 public:
  virtual ~TurnGame() = default;
  // The player of `side` in messages: "White (stockfish)".
  virtual std::string who(int side) const = 0;
  // Tells side's seat a game begins (with its clock and limits); an error abandons the game
  // as that seat's crash.
  virtual Result<void> start(int side, const ClockView& clock, const MoveLimits& limits) = 0;
  // The rules' verdict once the game is over; none while it goes on.
  virtual std::optional<Verdict> over() = 0;
  virtual int to_move() const = 0;  // 0 or 1: whose seat answers next
  // Asks side's seat for a move: its clock, its limits, how long the referee waits.
  virtual TurnReply ask(int side, const ClockView& clock, const MoveLimits& limits,
                        std::int64_t budget_ms, const std::atomic<bool>& stop) = 0;
  // Checks and plays the reply's move; an error is the infraction after who(side) ("plays an
  // illegal move 'e9'"), a forfeit.
  virtual Result<void> play(int side, const TurnReply& reply) = 0;
  // After a move that did not end the game: an adjudication from what the players report.
  virtual std::optional<Verdict> adjudicate(int side, const TurnReply& reply) {
    (void)side, (void)reply;
    return std::nullopt;
  }
  // The verdict when the players have made `moves` moves each (--max-moves): a draw.
  virtual Verdict move_cap(int moves) {
    return {0.5, "adjudication", "draw by adjudication: " + std::to_string(moves) + " moves played",
            ""};
  }
};

// The seed a seat's bot draws its moves from in a game: fixed by the game and the side, not by
// the worker that plays it.
inline std::uint64_t seat_seed(const GameJob& job, int side) {
  return 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(job.number) +
         static_cast<std::uint64_t>(side);
}

// The one referee loop: starts both seats, then asks the seat to move for its move, charges
// its time, checks and plays the move, until the rules, an adjudication, the move cap, a
// forfeit or `stop` ends the game (in `book`). Returns the moves the players made.
int referee_turns(TurnGame& game, RefereeBook& book, const GameSettings& settings,
                  const std::atomic<bool>& stop);

}  // namespace kibitz::match

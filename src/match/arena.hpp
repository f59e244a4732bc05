#pragma once
// The game-independent side of `kibitz match`: what a game contributes (a GameKind: its
// openings, its players by protocol or in-process bot, one refereed game) and what a game
// reports back (a GameOutcome). Virtual calls are fine here: one per move at most.
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "match/player_spec.hpp"
#include "match/time_control.hpp"

namespace kibitz::match {

// Chess adjudication (and the move cap every game uses); 0 switches a rule off.
struct Adjudication {
  int resign_moves = 0;  // both players report a score beyond resign_score for this many moves
  int resign_score = 1000;
  int draw_moves = 0;  // |score| <= draw_score for this many moves each, after draw_after moves
  int draw_score = 10;
  int draw_after = 40;
  int max_moves = 0;  // a draw after this many moves by the players (0 = none)
};

struct OpeningOptions {
  std::string file;  // empty: the game's standard start
  std::string format = "auto";
  int plies = 0;  // cut book lines to this many plies (0 = whole line)
  bool random_order = false;
  std::uint64_t seed = 1;  // the match's --seed (Match::run sets it): generated openings
};

inline constexpr double kDefaultKomi = 7.5;

// Settings every game's referee reads.
struct GameSettings {
  MoveLimits limits;  // the match's limits (a player's own limits replace them)
  std::int64_t grace_ms = 0;
  std::int64_t move_timeout_ms = 60'000;   // wait for a move when no clock runs
  std::int64_t start_timeout_ms = 10'000;  // handshake of an external engine
  Adjudication adjudication;
  std::string event = "kibitz match";
  bool verbose = false;  // every move on stderr
  // Board games: the board size (0 = the game's default) and the rule set by name
  // (gomoku: freestyle, exact5, renju, capture; Go: chinese or tromp-taylor, one rule set;
  // empty = the game's default).
  int board_size = 0;
  std::string rule;
  double komi = kDefaultKomi;  // Go only: the other games refuse any other value
  int max_year = 0;            // Diplomacy only: the last year played (0: the game's default)
};

enum class Fault { kNone, kTime, kIllegal, kCrash };
std::string_view fault_name(Fault f);

struct SeatStats {
  int moves = 0;
  double max_move_ms = 0;
  double min_clock_left_ms = -1;  // -1: no clock
  int time_losses = 0, illegal_moves = 0, crashes = 0;
};

struct GameJob {
  int number = 0;                  // 1-based, in schedule order
  int pair = 0;                    // games 2k-1 and 2k share an opening with the colours reversed
  int opponent = 1;                // index of the player facing player 0 (gauntlet), else 1
  std::array<int, 2> seats{0, 1};  // player indices: seats[0] plays the first colour (chess
                                   // White, gomoku and Go Black)
  std::size_t opening = 0;
};

struct GameOutcome {
  double first_score = -1;  // seats[0]'s score: 1, 0.5, 0; negative = unfinished
  std::string result;       // in the game's notation ("1-0", "B+3.5", "0-1")
  std::string termination;  // normal, adjudication, time forfeit, rules infraction, abandoned,
                            // unterminated
  std::string reason;       // one line
  int fault_seat = -1;
  Fault fault = Fault::kNone;
  int plies = 0;
  double seconds = 0;
  std::string opening;  // label of the opening used
  std::array<SeatStats, 2> stats;
  std::string record;  // PGN / SGF text of the game (Hearts, Diplomacy: one JSON line)
  // A game's own measure of each seat beside the score (GameKind::measure_name): Hearts'
  // points per hand, Diplomacy's centres per power. None for the board games.
  std::optional<std::array<double, 2>> measure;
  bool finished() const { return first_score >= 0; }
};

// A started player (process or in-process bot) owned by one worker thread.
class Seat {
 public:
  virtual ~Seat() = default;
  virtual bool healthy() const = 0;  // false: discard and start a fresh one
};

class GameKind {
 public:
  virtual ~GameKind() = default;
  virtual std::string name() const = 0;           // "chess"
  virtual std::string record_format() const = 0;  // "PGN", "SGF", "JSON"
  // The result text when seat `winner` wins without a move played (the other player could
  // not start): "1-0" / "0-1" in chess, "B+" / "W+" in gomoku, "B+F" / "W+F" in Go.
  virtual std::string forfeit_result(int winner) const = 0;
  virtual std::vector<std::string> bots() const = 0;
  // Whether every player needs a limit (--tc, --movetime, ...): not where the bots have
  // budgets of their own (Hearts, Diplomacy).
  virtual bool needs_limits() const { return true; }
  // What GameOutcome::measure holds, for the report ("PPH (lower is better)"); empty when
  // the game has none.
  virtual std::string measure_name() const { return {}; }
  virtual Result<void> load_openings(const OpeningOptions& options) = 0;
  virtual std::size_t opening_count() const = 0;  // 0: the standard start only
  // Checks a spec (protocol, bot name, option names of a bot) without starting anything.
  virtual Result<void> check(const PlayerSpec& spec) const = 0;
  // Starts a player (an external engine's handshake included); the error names the cause.
  virtual Result<std::unique_ptr<Seat>> open(const PlayerSpec& spec,
                                             const GameSettings& settings) const = 0;
  // Plays one refereed game. seats[i] plays specs[i]; stop aborts it as unterminated.
  virtual GameOutcome play(const GameJob& job, std::array<Seat*, 2> seats,
                           std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
                           const std::atomic<bool>& stop) const = 0;
};

// What the referees without embedded players (PlayerSpec::embedded) say of one.
inline constexpr const char* kNoEmbeddedPlayers =
    "an embedded player (a Python callable) plays chess, gomoku and Go in kibitz.run_match; "
    "kibitz.play_match referees the other games in Python";

// Each game's GameKind comes from its registry entry (games/registry.hpp: make_game_kind).

}  // namespace kibitz::match

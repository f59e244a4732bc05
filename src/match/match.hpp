#pragma once
// `kibitz match`: schedules games between players (two, or player 1 against each other one
// in a gauntlet), openings shared by pairs of games with the colours reversed, N games at once
// on worker threads that each keep their own started players, and gathers W/D/L, Elo and
// SPRT from player 1's point of view, game records and fault counts.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "match/arena.hpp"
#include "match/stats.hpp"

namespace kibitz::match {

struct MatchReport;
struct GameSummary;

// What a live view is told as the match goes: a game begins (outcome null) or ends, with the
// report so far. Called from the workers under the match's lock: keep it short.
struct MatchUpdate {
  const GameJob& job;
  const GameOutcome* outcome;  // null: the game begins
  const MatchReport& report;
};

struct MatchConfig {
  std::vector<PlayerSpec> players;
  int games = 2;  // per pairing
  bool gauntlet = false;
  int concurrency = 1;
  std::uint64_t seed = 1;
  OpeningOptions openings;
  GameSettings settings;
  std::optional<SprtParams> sprt;  // stops the match once a hypothesis is accepted
  std::string records_file;        // PGN / SGF records, appended as games finish
  int report_every = 0;            // a status line on stderr every N games (0: never; with
                                   // SPRT every finished pair)
  bool progress = false;           // the live line on stderr
  std::function<void(const MatchUpdate&)> on_update;  // a live view (kibitz serve)
  // A shard of the schedule: only the pairs in [pair_begin, pair_end) are played (0-based;
  // pair_end < 0: to the end). Every game keeps its number, opening and colours, so shards
  // run apart (kibitz.cluster) together play exactly the whole match.
  int pair_begin = 0;
  int pair_end = -1;
};

struct PlayerTotals {
  std::string name;
  std::string description;
  SeatStats faults;  // summed over games: time losses, illegal moves, crashes, move times
};

// A game's own measure (GameOutcome::measure) summed from player 1's view.
struct MeasureTally {
  int games = 0;
  double player = 0, opponent = 0;  // sums over the games
  double diff = 0, diff_sq = 0;     // player 1 minus the opponent, per game
  int pairs = 0;                    // complete pairs: the mean difference of their two games
  double pair_diff = 0, pair_diff_sq = 0;
  void add_game(double mine, double theirs);
  void add_pair(double mean_diff);
  double mean_player() const { return games ? player / games : 0; }
  double mean_opponent() const { return games ? opponent / games : 0; }
  double mean_diff() const { return games ? diff / games : 0; }
  // Half-width of the 95% interval of mean_diff(): over pairs when every game belongs to a
  // complete pair (the shared deal or power's luck cancels in a pair), else over games;
  // infinite with fewer than two.
  double ci95() const;
};

struct PairingReport {
  int opponent = 1;
  Tally tally;  // player 1's view
  MeasureTally measure;
  EloEstimate elo{};
  std::optional<SprtStatus> sprt;
  int unfinished = 0;
};

struct GameSummary {
  GameJob job;
  GameOutcome outcome;  // record text dropped to keep memory flat
};

struct MatchReport {
  std::string game;
  std::string measure_name;  // GameKind::measure_name (empty: none)
  std::vector<PlayerTotals> players;
  std::vector<PairingReport> pairings;
  std::vector<GameSummary> games;  // in the order they finished
  int scheduled = 0;
  bool interrupted = false;
  std::string stop_reason;  // why the match ended early (SPRT decision, interrupt)
  double seconds = 0;
};

// Counts games into a report as they finish: W/D/L, the pentanomial pairs, Elo, SPRT, the
// measure and the players' faults. Match::run feeds it; so does kibitz.cluster with the games
// its shards played, so both give the same report.
class ReportBuilder {
 public:
  ReportBuilder(const MatchConfig& config, std::string game, std::string measure_name,
                int scheduled);
  // Counts a game that ended (an unfinished one only as unfinished); its record text is
  // dropped. Returns whether the game completed its pair.
  bool add(const GameJob& job, GameOutcome outcome);
  // Whether an SPRT decision has been reached (report().stop_reason says which).
  bool decided() const { return !report_.stop_reason.empty(); }
  MatchReport& report() { return report_; }

 private:
  const MatchConfig& config_;
  MatchReport report_;
  std::map<std::pair<int, int>, double> half_pairs_;     // (opponent, pair) -> player 1's score
  std::map<std::pair<int, int>, double> half_measures_;  // the same for the measure's difference
};

// Counts games played elsewhere into a report, a batch at a time (kibitz.cluster adds each
// shard's games as it arrives). A game is given as report_json's entry for it (with its
// seats, opponent and per-seat statistics) and identified by its number; a number given twice
// is an error, as is one outside the schedule. The counter keeps its own copy of `config`.
class GameCounter {
 public:
  GameCounter(const MatchConfig& config, const GameKind& game);
  // A JSON array of game entries; an error stops at the bad entry (those before it count).
  Result<void> add(const std::string& games_json);
  MatchReport& report() { return builder_.report(); }

 private:
  MatchConfig config_;  // before builder_, which refers to it
  std::vector<GameJob> jobs_;
  std::map<int, const GameJob*> by_number_;
  std::set<int> seen_;
  ReportBuilder builder_;
};

// The report of one batch of such games.
Result<MatchReport> report_from_games(const MatchConfig& config, const GameKind& game,
                                      const std::string& games_json);

class Match {
 public:
  Match(MatchConfig config, std::unique_ptr<GameKind> game);
  // Checks every player (starts one copy of each external engine), then plays. Errors: a bad
  // player or opening file, an unwritable record file.
  Result<MatchReport> run(const std::atomic<bool>& stop);

 private:
  MatchConfig config_;
  std::unique_ptr<GameKind> game_;
};

// The closing text (stdout) and one-line status (stderr) of a report.
std::string format_report(const MatchReport& report, const MatchConfig& config);
std::string status_line(const PairingReport& pairing, const MatchReport& report);
// The whole report as JSON (config, pairings with Elo / SPRT, players' faults, every game).
std::string report_json(const MatchReport& report, const MatchConfig& config);

}  // namespace kibitz::match

#pragma once
// The PPH harness (`kibitz hearts match`): bots play duplicate deals — every deal four
// times with the players rotated through the seats, so each player holds every hand of the
// deal once and the luck of the cards cancels — and the report gives points per hand (PPH)
// per player with 95% intervals over deals, the difference of the first player against the
// mean of the others, per-decision latency and the telemetry of the search bots.
#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/config.hpp"
#include "core/error.hpp"
#include "engine/hearts_engine.hpp"

namespace kibitz::hearts {

struct DealRecord {
  std::string id;
  PassDir dir = PassDir::kNone;
  Deal hands{};
};

// A deal file: one deal a line, tab- or blank-separated `id pass_dir N E S W`, each hand 13
// cards separated by spaces inside its tab field (the shared deals_10000_v1.tsv format), or
// `id pass_dir` and 52 cards. Blank lines and lines starting with '#' are skipped.
Result<std::vector<DealRecord>> read_deals(const std::string& path);
Result<DealRecord> parse_deal_line(std::string_view line);

// The search's settings, declared once: the YAML config's `section.name` key, a match
// player spec's option.NAME, the command line's flags and the engine contract's options all
// read them through this table, with the same ranges and the same messages.
struct SearchSetting {
  enum class Kind { kInt, kReal, kBool };
  std::string_view section;  // "search" or "rollout"
  std::string_view name;
  Kind kind;
  double min, max;  // inclusive
  std::string_view help;
  double (*get)(const SearchCfg&);
  // kInt and kBool take `whole` (an integer, booleans 0 / 1), kReal takes `real`.
  void (*set)(SearchCfg&, std::int64_t whole, double real);
};
std::span<const SearchSetting> search_settings();
// By its name ("worlds") or its key ("search.worlds"); nullptr if none.
const SearchSetting* find_search_setting(std::string_view name);
// Sets one setting from text (a number; true / false); a one-line error names it.
Result<void> set_search_setting(SearchCfg& cfg, const SearchSetting& s, std::string_view text);

// The search settings and rules from a YAML config (configs/hearts.yaml); keys absent keep
// the values given; unknown keys are an error naming them.
Result<SearchCfg> search_cfg_from(const Config& c, SearchCfg base = {});
Result<Options> rules_from(const Config& c, Options base = {});

struct HandResult {
  std::array<int, kNumPlayers> points{};  // by seat
  std::vector<std::int64_t> search_ms;    // durations of the search bots' decisions
  std::vector<std::int64_t> pass_ms;      // durations of the search bots' passes
  int moon = -1;                          // the seat that shot the moon, or -1
};

// One hand between four bots (by seat); each sees only its own Observation.
HandResult play_hand(const std::array<Bot*, kNumPlayers>& bots, const DealRecord& deal,
                     const Options& rules, std::array<int, kNumPlayers> scores_before = {});

struct DuplicateOptions {
  std::vector<std::string> players;  // four bot names, by player index
  int hands = 0;                     // hands to play (a multiple of 4: hands / 4 deals)
  int first_deal = 0;                // index of the first deal used
  int threads = 1;                   // deals played in parallel (each worker has its bots)
  SearchCfg search;
  Options rules;
  std::uint64_t seed = 1;
  TelemetrySink telemetry;  // search telemetry (called from worker threads, serialised)
  std::function<void(int done, int total)> progress;
};

struct PlayerStats {
  std::string name;
  double pph = 0;      // mean points per hand
  double ci95 = 0;     // half-width over deals (rotation-averaged points)
  double sd_hand = 0;  // standard deviation of one hand's points
  int moons = 0;       // hands in which the player shot the moon
};

struct DuplicateReport {
  int deals = 0;
  int hands = 0;
  std::array<PlayerStats, kNumPlayers> players;
  // Player 0 minus the mean of players 1-3, per hand, averaged over each deal's rotations.
  double diff = 0;
  double diff_ci95 = 0;
  double diff_sd_deal = 0;
  std::vector<double> latency_ms;  // every search decision (sorted)
  double latency_median = 0, latency_p99 = 0, latency_max = 0;
  std::vector<double> pass_ms;  // every search pass decision (sorted)
  double pass_median = 0, pass_p99 = 0, pass_max = 0;
  std::int64_t wall_ms = 0;
  // Rows for ../shared/tools/hearts/pph_stats.py csv: deal, rotation, a_pts, b_mean_pts.
  std::vector<std::array<double, 4>> rows;
};

Result<DuplicateReport> run_duplicate(const std::vector<DealRecord>& deals,
                                      const DuplicateOptions& options);

}  // namespace kibitz::hearts

// kibitz hearts match: bots on duplicate deals, points per hand with 95% intervals.
// kibitz hearts play: a person against three bots in the terminal.
// kibitz hearts serve: a bot for one seat over JSON lines (protocol/jsonl/hearts_serve.hpp).
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/hearts_play.hpp"
#include "core/config.hpp"
#include "core/progress.hpp"
#include "core/text.hpp"
#include "engine/hearts_match.hpp"
#include "protocol/jsonl/hearts_serve.hpp"

namespace kibitz::cli {

namespace {

// Options every hearts subcommand shares: a config file, its overrides, telemetry.
struct SearchArgs {
  std::string config;
  int worlds = 0;
  int depth = -1;
  int budget_ms = 0;
  bool analysis = false;
  std::uint64_t seed = 0;
  std::string telemetry;
};

void add_search_options(CLI::App* cmd, SearchArgs& a) {
  cmd->add_option("--config", a.config, "YAML settings (configs/hearts.yaml documents every key)");
  cmd->add_option("--worlds", a.worlds, "sampled worlds per decision (default 512)");
  cmd->add_option("--depth", a.depth, "lookahead plies after our card before rollouts (default 0)");
  cmd->add_option("--budget-ms", a.budget_ms, "time budget per decision in ms (default 900)");
  cmd->add_flag("--analysis", a.analysis, "analysis mode: the 5000 ms budget");
  cmd->add_option("--seed", a.seed, "seed of the deals, the random bots and the search");
  cmd->add_option("--telemetry", a.telemetry,
                  "append the search's JSON-lines telemetry (SearchLog, EndgameLog, PassLog, "
                  "budget_exceeded) to this file");
}

struct Loaded {
  hearts::SearchCfg search;
  hearts::Options rules;
};

Result<Loaded> load(const SearchArgs& a) {
  Loaded l;
  if (!a.config.empty()) {
    auto c = Config::load_file(a.config);
    if (!c) return tl::unexpected(c.error());
    auto s = hearts::search_cfg_from(*c);
    if (!s) return tl::unexpected(s.error());
    auto r = hearts::rules_from(*c);
    if (!r) return tl::unexpected(r.error());
    l.search = *s;
    l.rules = *r;
  }
  // The flags set the search's settings as the config and the match specs do.
  const auto set = [&l](std::string_view flag, std::string_view name,
                        std::string value) -> Result<void> {
    if (auto ok = hearts::set_search_setting(l.search, *hearts::find_search_setting(name), value);
        !ok)
      return fail("{} {}: {}", flag, value, ok.error().message);
    return {};
  };
  for (auto r :
       {a.worlds != 0 ? set("--worlds", "worlds", std::to_string(a.worlds)) : Result<void>{},
        a.depth != -1 ? set("--depth", "depth", std::to_string(a.depth)) : Result<void>{},
        a.budget_ms != 0 ? set("--budget-ms", "time_budget_ms", std::to_string(a.budget_ms))
                         : Result<void>{},
        a.budget_ms != 0 ? set("--budget-ms", "analysis_budget_ms", std::to_string(a.budget_ms))
                         : Result<void>{},
        a.analysis ? set("--analysis", "analysis", "true") : Result<void>{},
        a.seed != 0 ? set("--seed", "seed", std::to_string(static_cast<std::int64_t>(a.seed)))
                    : Result<void>{}})
    if (!r) return tl::unexpected(r.error());
  return l;
}

// A telemetry sink appending to a file (one JSON object a line), or none.
Result<hearts::TelemetrySink> telemetry_sink(const std::string& path) {
  if (path.empty()) return hearts::TelemetrySink{};
  auto file = std::make_shared<std::ofstream>(path, std::ios::app);
  if (!*file) return fail("--telemetry: cannot write '{}'", path);
  return hearts::TelemetrySink([file](const std::string& line) {
    *file << line << '\n' << std::flush;
  });
}

struct MatchArgs {
  SearchArgs search;
  std::string players = "search,rule,rule,rule";
  std::string deals;
  int hands = 400;
  int first = 0;
  int threads = 1;
  std::string csv;
  std::string json;
  bool progress = false, no_progress = false;
};

constexpr const char* kMatchExamples = R"(
Duplicate deals: each deal is played four times with the players rotated through the seats
(N, E, S, W), so every player holds every hand of the deal once. --hands counts hands played
(a multiple of 4): --hands 400 plays 100 deals. Without --deals the deals are random from
--seed. PPH = points per hand (lower is better); the interval is 95% over deals.

Examples:
  kibitz hearts match --players search,rule,rule,rule \
      --deals ../shared/data/hearts/deals_10000_v1.tsv --hands 400 --threads 2
  kibitz hearts match --players rule,random,random,random --hands 4000 --csv rule.csv
  python3 ../shared/tools/hearts/pph_stats.py csv rule.csv     # the shared statistics
)";

int run_match(const MatchArgs& a) {
  auto loaded = load(a.search);
  if (!loaded) return report_error(loaded.error().message, 2);
  std::vector<std::string> players;
  for (std::string_view rest = a.players; !rest.empty();) {
    const auto comma = rest.find(',');
    players.emplace_back(trim(rest.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (players.size() != 4)
    return report_error(
        fmt::format("--players '{}': four bot names separated by commas", a.players), 2);
  std::vector<hearts::DealRecord> deals;
  const int n_deals = a.hands > 0 ? (a.hands + 3) / 4 : 0;
  if (!a.deals.empty()) {
    auto d = hearts::read_deals(a.deals);
    if (!d) return report_error(d.error().message, 2);
    deals = std::move(*d);
  } else {
    Rng rng(a.search.seed ? a.search.seed : 1);
    for (int i = 0; i < a.first + n_deals; ++i)
      deals.push_back({std::to_string(i), hearts::pass_dir_for_hand(i), hearts::random_deal(rng)});
  }
  auto sink = telemetry_sink(a.search.telemetry);
  if (!sink) return report_error(sink.error().message, 2);
  hearts::DuplicateOptions o;
  o.players = players;
  o.hands = a.hands;
  o.first_deal = a.first;
  o.threads = a.threads;
  o.search = loaded->search;
  o.rules = loaded->rules;
  o.seed = a.search.seed ? a.search.seed : 1;
  o.telemetry = *sink;
  std::unique_ptr<Progress> progress;
  if (a.progress || a.no_progress)
    progress = std::make_unique<Progress>("hearts", static_cast<std::uint64_t>(n_deals), stderr,
                                          a.progress);
  else
    progress = std::make_unique<Progress>("hearts", static_cast<std::uint64_t>(n_deals));
  o.progress = [&](int done, int) { progress->update(static_cast<std::uint64_t>(done), "deals"); };
  auto rep = hearts::run_duplicate(deals, o);
  progress->finish();
  if (!rep) return report_error(rep.error().message, 2);
  fmt::print("{} hands ({} deals x 4 seat rotations), {:.1f} s, {:.1f} hands/s\n", rep->hands,
             rep->deals, rep->wall_ms / 1000.0,
             rep->hands * 1000.0 / std::max<std::int64_t>(1, rep->wall_ms));
  fmt::print("{:<4} {:<10} {:>7} {:>8} {:>9} {:>7}\n", "#", "player", "PPH", "95%", "SD/hand",
             "moons");
  for (int i = 0; i < 4; ++i) {
    const auto& p = rep->players[i];
    fmt::print("{:<4} {:<10} {:>7.3f} {:>8} {:>9.2f} {:>6.1f}%\n", i + 1, p.name, p.pph,
               fmt::format("±{:.3f}", p.ci95), p.sd_hand, 100.0 * p.moons / rep->hands);
  }
  fmt::print(
      "player 1 minus the mean of players 2-4: {:+.3f} PPH (95% ±{:.3f}; SD per deal {:.2f})\n",
      rep->diff, rep->diff_ci95, rep->diff_sd_deal);
  if (!rep->latency_ms.empty())
    fmt::print("search decisions: {}, latency median {:.0f} ms, p99 {:.0f} ms, max {:.0f} ms\n",
               rep->latency_ms.size(), rep->latency_median, rep->latency_p99, rep->latency_max);
  if (!rep->pass_ms.empty())
    fmt::print("search passes: {}, latency median {:.0f} ms, p99 {:.0f} ms, max {:.0f} ms\n",
               rep->pass_ms.size(), rep->pass_median, rep->pass_p99, rep->pass_max);
  if (!a.csv.empty()) {
    std::ofstream out(a.csv);
    if (!out) return report_error(fmt::format("--csv: cannot write '{}'", a.csv));
    out << "deal,rotation,a_pts,b_mean_pts\n";
    for (const auto& r : rep->rows) out << fmt::format("{},{},{},{:.6f}\n", r[0], r[1], r[2], r[3]);
  }
  if (!a.json.empty()) {
    std::ofstream out(a.json);
    if (!out) return report_error(fmt::format("--json: cannot write '{}'", a.json));
    out << "{\"hands\":" << rep->hands << ",\"deals\":" << rep->deals << ",\"players\":[";
    for (int i = 0; i < 4; ++i)
      out << (i ? "," : "")
          << fmt::format("{{\"name\":\"{}\",\"pph\":{:.4f},\"ci95\":{:.4f},\"moons\":{}}}",
                         rep->players[i].name, rep->players[i].pph, rep->players[i].ci95,
                         rep->players[i].moons);
    out << fmt::format(
        "],\"diff\":{:.4f},\"diff_ci95\":{:.4f},\"latency_median_ms\":{},\"latency_p99_ms\":{},"
        "\"pass_median_ms\":{},\"pass_p99_ms\":{}}}\n",
        rep->diff, rep->diff_ci95, rep->latency_median, rep->latency_p99, rep->pass_median,
        rep->pass_p99);
  }
  return 0;
}

struct PlayArgs {
  SearchArgs search;
  std::string bots = "search,search,search";
  int seat = 2;
};

int run_play(const PlayArgs& a) {
  auto loaded = load(a.search);
  if (!loaded) return report_error(loaded.error().message, 2);
  HeartsPlayOptions o;
  std::vector<std::string> bots;
  std::string_view rest = a.bots;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    bots.emplace_back(trim(rest.substr(0, comma)));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (bots.size() != 3) return report_error(fmt::format("--bots '{}': three bot names", a.bots), 2);
  for (const auto& b : bots)
    if (auto made = hearts::make_bot(b); !made) return report_error(made.error().message, 2);
  if (a.seat < 0 || a.seat > 3)
    return report_error(fmt::format("--seat {}: 0 (N) to 3 (W)", a.seat), 2);
  o.bots = {bots[0], bots[1], bots[2]};
  o.seat = a.seat;
  o.search = loaded->search;
  o.rules = loaded->rules;
  o.seed = a.search.seed ? a.search.seed : 1;
  return hearts_play_session(std::cin, std::cout, o);
}

struct ServeArgs {
  SearchArgs search;
  std::string bot = "search";
};

int run_serve(const ServeArgs& a) {
  auto loaded = load(a.search);
  if (!loaded) return report_error(loaded.error().message, 2);
  if (auto made = hearts::make_bot(a.bot); !made) return report_error(made.error().message, 2);
  auto sink = telemetry_sink(a.search.telemetry);
  if (!sink) return report_error(sink.error().message, 2);
  jsonl::ServeOptions o;
  o.bot = a.bot;
  o.search = loaded->search;
  o.rules = loaded->rules;
  o.seed = a.search.seed ? a.search.seed : 1;
  o.telemetry = *sink;
  jsonl::ServeSession session(std::cin, std::cout, o);
  return session.run();
}

}  // namespace

Runner add_hearts(CLI::App& root) {
  auto* cmd = root.add_subcommand(
      "hearts", "Hearts: duplicate matches, play in the terminal, a JSON-lines bot");
  cmd->require_subcommand(1);

  auto match = std::make_shared<MatchArgs>();
  auto* m =
      cmd->add_subcommand("match", "bots on duplicate deals: points per hand with 95% intervals");
  m->footer(kMatchExamples);
  add_search_options(m, match->search);
  m->add_option("--players", match->players, "four bots by player (random, rule, search)")
      ->capture_default_str();
  m->add_option("--deals", match->deals,
                "deal file (id pass N E S W a line, as deals_10000_v1.tsv)");
  m->add_option("--hands", match->hands, "hands to play, a multiple of 4")->capture_default_str();
  m->add_option("--first", match->first, "index of the first deal used")->capture_default_str();
  m->add_option("--threads", match->threads, "deals played in parallel")->capture_default_str();
  m->add_option("--csv", match->csv,
                "per-hand rows for pph_stats.py (deal,rotation,a_pts,b_mean_pts)");
  m->add_option("--json", match->json, "the summary as JSON");
  m->add_flag("--progress", match->progress, "always draw the progress line");
  m->add_flag("--no-progress", match->no_progress, "never draw it");

  auto play = std::make_shared<PlayArgs>();
  auto* p = cmd->add_subcommand("play",
                                "play one seat against three bots in the terminal (a game to 100)");
  p->footer(
      "\nType cards as QS, 10h, td or Q♠; 'hint' asks the search for its choice; 'quit' ends.\n"
      "Example: kibitz hearts play --bots search,rule,search --seat 2\n");
  add_search_options(p, play->search);
  p->add_option("--bots", play->bots, "the three other seats' bots, in seat order")
      ->capture_default_str();
  p->add_option("--seat", play->seat, "your seat: 0 N, 1 E, 2 S, 3 W")->capture_default_str();

  auto serve = std::make_shared<ServeArgs>();
  auto* s = cmd->add_subcommand("serve", "a bot for one seat over JSON lines on stdin/stdout");
  s->footer(
      "\nOne JSON object a line in, one reply a line out. Commands: new_deal {seat, hand, pass, "
      "scores},\n"
      "pass [{cards}], receive {cards}, play {seat, card}, best (our card with its scores), state, "
      "quit.\n"
      "Example:\n"
      "  printf '%s\\n' '{\"cmd\":\"new_deal\",\"seat\":0,\"hand\":\"2C 3C 4C 5C 6C 7C 8C 9C TC JC "
      "QC KC AC\"}' \\\n"
      "    '{\"cmd\":\"best\"}' | kibitz hearts serve --bot rule\n");
  add_search_options(s, serve->search);
  s->add_option("--bot", serve->bot, "random, rule or search")->capture_default_str();

  return [cmd, m, p, s, match, play, serve]() -> int {
    if (m->parsed()) return run_match(*match);
    if (p->parsed()) return run_play(*play);
    if (s->parsed()) return run_serve(*serve);
    return report_error(cmd->help(), 2);
  };
}

}  // namespace kibitz::cli

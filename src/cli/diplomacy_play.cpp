// kibitz diplomacy play: full games between bots (src/games/diplomacy/game.hpp), printed phase
// by phase, or many games summarised per bot.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli/diplomacy.hpp"
#include "core/progress.hpp"
#include "core/text.hpp"
#include "engine/diplomacy_search.hpp"
#include "games/diplomacy/game.hpp"

namespace kibitz::cli {

// Named (and inside an anonymous namespace): the program is a unity build, and the other
// subcommands' files have their own PlayArgs, run_play, ...
namespace {
namespace diplomacy_play {

namespace dip = kibitz::diplomacy;

struct PlayArgs {
  std::string bots = "heuristic";
  std::uint64_t seed = 1;
  int max_year = dip::kDefaultMaxYear;
  int games = 1;
  bool rotate = false;
  bool quiet = false;
  std::string json;
  // The rm bot (RM+ search, src/engine/diplomacy_search.hpp).
  int movetime = 1000;
  double strength = 1.0;
  int iterations = 0;
};

constexpr const char* kPlayExamples = R"(
--bots takes one name for all seven powers or seven names in map order (Austria, England,
France, Germany, Italy, Russia, Turkey). Bots: random (uniform over each unit's legal orders),
heuristic (moves toward valuable centres, supports its attacks, defends home centres), rm
(the RM+ search over candidate order sets in movement phases, --movetime ms each, the
heuristic's retreats and builds).
A game ends with a solo (18 centres after a fall), when one power is left, or after the
winter of --max-year: a draw among the powers still alive. Game i (from 0) uses seed
--seed + i; with --rotate, game i shifts the bots i powers along, so each bot plays every
power.

Examples:
  kibitz diplomacy play --bots heuristic --seed 7
  kibitz diplomacy play --bots heuristic,random,random,random,random,random,random \
      --games 70 --rotate --quiet
  kibitz diplomacy play --bots random --games 1000 --max-year 1920 --json games.json
  kibitz diplomacy play --bots rm,heuristic,heuristic,heuristic,heuristic,heuristic,heuristic \
      --movetime 500 --games 7 --rotate --quiet
)";

std::string centres_line(const dip::Map& map, const std::array<int, dip::kMaxPowers>& c) {
  std::string s;
  for (int p = 0; p < map.num_powers(); ++p)
    s += fmt::format("{}{} {}", p ? ", " : "", map.power_name(static_cast<dip::PowerId>(p)), c[p]);
  return s;
}

std::string result_line(const dip::Map& map, const dip::GameRecord& r) {
  const std::string when =
      r.num_phases > 0 ? "after " + dip::phase_code(r.last_phase) : "before any phase";
  if (r.winner)
    return fmt::format("solo {} with {} centres ({})", map.power_name(*r.winner),
                       r.centres[*r.winner], when);
  std::string who;
  for (const dip::PowerId p : r.survivors)
    who += fmt::format("{}{}", who.empty() ? "" : ", ", map.power_name(p));
  return fmt::format("draw among {} ({} survivors, {})", who, r.survivors.size(), when);
}

void print_game(const dip::Map& map, const dip::GameRecord& r) {
  for (std::size_t i = 0; i < r.phases.size(); ++i) {
    const dip::PhaseRecord& ph = r.phases[i];
    fmt::print("{}\n", dip::phase_code(ph.phase));
    for (int p = 0; p < map.num_powers(); ++p) {
      std::string line;
      for (dip::Order o : ph.orders) {
        if (o.power != p) continue;
        o.power = dip::kNoPower;
        line += fmt::format("{}{}", line.empty() ? "" : ", ", dip::format_order(map, o));
      }
      if (!line.empty())
        fmt::print("  {}: {}\n", map.power_name(static_cast<dip::PowerId>(p)), line);
    }
    // Centres change when a fall ends (the next phase is no longer in the fall).
    const bool fall_ends =
        ph.phase.season == dip::Season::kFall &&
        (i + 1 == r.phases.size() ? r.final_state.phase.season : r.phases[i + 1].phase.season) !=
            dip::Season::kFall;
    if (fall_ends) {
      std::array<int, dip::kMaxPowers> c{};
      for (int p = 0; p < map.num_powers(); ++p) c[p] = ph.centres[p];
      fmt::print("  centres: {}\n", centres_line(map, c));
    }
  }
}

// Per bot, over every power it played in every game.
struct BotTally {
  int seats = 0, solos = 0, draws = 0, eliminated = 0, lost_to_solo = 0;
  long centres = 0;
};

int run_play(const PlayArgs& a) {
  const dip::Map& map = dip::standard_map();
  const int np = map.num_powers();
  auto names = split_commas(a.bots);
  if (names.size() == 1) names.assign(static_cast<std::size_t>(np), names[0]);
  if (static_cast<int>(names.size()) != np)
    return report_error(
        fmt::format("--bots '{}': one bot name, or {} (one per power in map order)", a.bots, np),
        2);
  std::map<std::string, std::unique_ptr<dip::Bot>> made;
  for (const auto& n : names) {
    if (made.count(n)) continue;
    dip::RmConfig cfg;
    cfg.movetime_ms = a.movetime;
    cfg.strength = a.strength;
    cfg.max_iterations = a.iterations;
    std::unique_ptr<dip::Bot> bot = dip::make_search_bot(n, map, cfg);
    if (!bot) {
      std::string known;
      for (const auto k : dip::bot_names())
        known += fmt::format("{}{}", known.empty() ? "" : ", ", k);
      known += ", rm";
      return report_error(fmt::format("--bots: unknown bot '{}' (known: {})", n, known), 2);
    }
    made.emplace(n, std::move(bot));
  }
  if (a.max_year < map.start_year() || a.max_year > 9999)
    return report_error(fmt::format("--max-year {}: from {} to 9999", a.max_year, map.start_year()),
                        2);
  if (auto e = rm_options_error(a.movetime, a.strength)) return report_error(*e, 2);
  if (a.games < 1 || a.games > 10000000)
    return report_error(fmt::format("--games {}: from 1 to 10000000", a.games), 2);
  std::ofstream json_out;
  if (!a.json.empty()) {
    json_out.open(a.json);
    if (!json_out) return report_error(fmt::format("--json: cannot write '{}'", a.json));
  }

  dip::GameRunner runner(map);
  dip::GameOptions opt;
  opt.max_year = a.max_year;
  const bool single = a.games == 1;
  opt.record = single && (!a.quiet || !a.json.empty());
  std::map<std::string, BotTally> tally;
  std::vector<std::string> order;  // bot names in first-seen order, for the summary
  for (const auto& n : names)
    if (std::find(order.begin(), order.end(), n) == order.end()) order.push_back(n);
  if (!single && !a.json.empty()) json_out << "{\"games\": [\n";
  Progress progress("diplomacy", static_cast<std::uint64_t>(a.games));
  std::vector<dip::Bot*> seats(static_cast<std::size_t>(np));
  std::vector<std::string> seat_names(static_cast<std::size_t>(np));
  for (int g = 0; g < a.games; ++g) {
    for (int p = 0; p < np; ++p) {
      seat_names[p] = names[(p + np - (a.rotate ? g % np : 0)) % np];
      seats[p] = made.at(seat_names[p]).get();
    }
    const std::uint64_t seed = a.seed + static_cast<std::uint64_t>(g);
    const dip::GameRecord r = runner.play(seats, seed, opt);
    if (single && !a.quiet) print_game(map, r);
    if (single || !a.quiet) {
      if (!single) {
        std::string who;
        for (int p = 0; p < np; ++p) who += fmt::format("{}{}", p ? "," : "", seat_names[p]);
        fmt::print("game {} seed {} bots {}: {}\n", g, seed, who, result_line(map, r));
      } else {
        fmt::print("result: {}\n", result_line(map, r));
        fmt::print("centres: {}\n", centres_line(map, r.centres));
      }
    }
    for (int p = 0; p < np; ++p) {
      BotTally& t = tally[seat_names[p]];
      ++t.seats;
      t.centres += r.centres[p];
      const bool alive = std::find(r.survivors.begin(), r.survivors.end(), p) != r.survivors.end();
      if (r.winner && *r.winner == p)
        ++t.solos;
      else if (r.winner && alive)
        ++t.lost_to_solo;
      else if (alive)
        ++t.draws;
      else
        ++t.eliminated;
    }
    if (!a.json.empty()) {
      if (single) {
        json_out << dip::game_json(map, r, 2) << '\n';
      } else {
        std::string seats_json;
        for (int p = 0; p < np; ++p)
          seats_json += fmt::format("{}\"{}\"", p ? ", " : "", seat_names[p]);
        json_out << (g ? ",\n" : "")
                 << fmt::format("{{\"seed\": {}, \"bots\": [{}], \"game\": ", seed, seats_json)
                 << dip::game_json(map, r) << '}';
      }
    }
    progress.update(static_cast<std::uint64_t>(g + 1), "games");
  }
  progress.finish();
  if (!single) {
    fmt::print("{} games, seeds {}..{}, max year {}{}\n", a.games, a.seed,
               a.seed + static_cast<std::uint64_t>(a.games) - 1, a.max_year,
               a.rotate ? ", bots rotated over the powers" : "");
    fmt::print("{:<10} {:>6} {:>12} {:>6} {:>6} {:>13} {:>11}\n", "bot", "seats", "avg centres",
               "solos", "draws", "lost to solo", "eliminated");
    for (const auto& n : order) {
      const BotTally& t = tally[n];
      fmt::print("{:<10} {:>6} {:>12.2f} {:>6} {:>6} {:>13} {:>11}\n", n, t.seats,
                 static_cast<double>(t.centres) / std::max(1, t.seats), t.solos, t.draws,
                 t.lost_to_solo, t.eliminated);
    }
    if (!a.json.empty()) {
      json_out << "\n], \"summary\": [";
      for (std::size_t i = 0; i < order.size(); ++i) {
        const BotTally& t = tally[order[i]];
        json_out << (i ? ", " : "")
                 << fmt::format(
                        "{{\"bot\": \"{}\", \"seats\": {}, \"avg_centres\": {:.4f}, \"solos\": "
                        "{}, \"draws\": {}, \"lost_to_solo\": {}, \"eliminated\": {}}}",
                        order[i], t.seats, static_cast<double>(t.centres) / std::max(1, t.seats),
                        t.solos, t.draws, t.lost_to_solo, t.eliminated);
      }
      json_out << "]}\n";
    }
  }
  if (!a.json.empty() && !json_out)
    return report_error(fmt::format("--json: cannot write '{}'", a.json));
  return 0;
}

}  // namespace diplomacy_play
}  // namespace

SubRunners add_diplomacy_play(CLI::App& diplomacy) {
  using diplomacy_play::PlayArgs;
  auto args = std::make_shared<PlayArgs>();
  auto* p = diplomacy.add_subcommand("play", "play full games between bots");
  p->footer(diplomacy_play::kPlayExamples);
  p->add_option("--bots", args->bots, "one bot for every power, or seven in map order")
      ->capture_default_str();
  p->add_option("--seed", args->seed, "seed of the first game")->capture_default_str();
  p->add_option("--max-year", args->max_year, "the last year played (then a draw)")
      ->capture_default_str();
  p->add_option("--games", args->games, "games to play (a summary per bot when more than one)")
      ->capture_default_str();
  p->add_flag("--rotate", args->rotate, "game i shifts the bots i powers along");
  p->add_option("--movetime", args->movetime, "rm bot: milliseconds per movement phase")
      ->capture_default_str();
  p->add_option("--strength", args->strength, "rm bot: scales its candidates and iterations")
      ->capture_default_str();
  p->add_option("--iterations", args->iterations,
                "rm bot: exactly this many RM+ iterations (0: as --movetime allows)")
      ->capture_default_str();
  p->add_flag("--quiet", args->quiet, "only the result (one game) or the summary (several)");
  p->add_option("--json", args->json,
                "write the game (its phases) or, for several games, every result and the summary");
  return {{p, [args] { return diplomacy_play::run_play(*args); }}};
}

}  // namespace kibitz::cli

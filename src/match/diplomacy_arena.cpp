// Diplomacy in `kibitz match` (see diplomacy_arena.hpp): a power and a game seed as the
// opening, the bots of src/games/diplomacy/bots.hpp and the RM+ bot, whole games played by
// GameRunner with every call for orders timed, and the game's JSON (game_json) as the record.
#include "match/diplomacy_arena.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/diplomacy_search.hpp"
#include "games/diplomacy/game.hpp"
#include "match/referee.hpp"

namespace kibitz::match {

namespace {

namespace dip = diplomacy;
using DipWall = std::chrono::steady_clock;
// Openings: power k mod 7 with game seed --seed + k; this many before the cycle repeats.
constexpr std::size_t kDipOpenings = 7 * 10000;
constexpr std::int64_t kDipDefaultMovetimeMs = 300;

class DipSeat final : public Seat {
 public:
  explicit DipSeat(std::unique_ptr<dip::Bot> bot) : bot_(std::move(bot)) {}
  bool healthy() const override { return true; }
  dip::Bot& bot() { return *bot_; }

 private:
  std::unique_ptr<dip::Bot> bot_;
};

// The RM+ settings of a player: its movetime (per movement phase and power; default 300 ms),
// nodes as a fixed iteration count, and options strength and iterations.
Result<dip::RmConfig> dip_rm_config(const PlayerSpec& spec, const MoveLimits& limits) {
  dip::RmConfig c;
  c.movetime_ms = static_cast<int>(kDipDefaultMovetimeMs);
  if (limits.clock)
    return fail(
        "diplomacy bots have no clock (--tc): give --movetime MS, the rm bot's time per "
        "movement phase and power");
  if (spec.bot != "rm") {
    if (!spec.options.empty())
      return fail("the diplomacy bot '{}' has no options (only rm has)", spec.bot);
    return c;
  }
  if (limits.movetime_ms > 0)
    c.movetime_ms = static_cast<int>(std::min<std::int64_t>(limits.movetime_ms, 3'600'000));
  if (limits.nodes > 0)
    c.max_iterations = static_cast<int>(std::min<std::uint64_t>(limits.nodes, 1'000'000'000));
  for (const auto& [k, v] : spec.options) {
    if (k == "iterations") {
      int n = 0;
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
      if (v.empty() || ec != std::errc() || p != v.data() + v.size() || n < 0)
        return fail("diplomacy bot option iterations={}: expected 0 or more", v);
      c.max_iterations = n;
    } else if (k == "strength") {
      char* end = nullptr;
      const double x = std::strtod(v.c_str(), &end);
      if (v.empty() || *end || !(x > 0 && x <= 16))
        return fail("diplomacy bot option strength={}: above 0, at most 16", v);
      c.strength = x;
    } else {
      return fail("the diplomacy rm bot has no option '{}' (iterations, strength)", k);
    }
  }
  return c;
}

// One player's side of a game: asks its bot for a power's orders, times the call and
// charges it to the side; after a stop or a time forfeit it gives no orders (civil disorder),
// so the game runs out at once.
class DipTimedBot final : public dip::Bot {
 public:
  DipTimedBot(dip::Bot& inner, int side, RefereeBook& book, GameOutcome& out, std::string who,
              const std::atomic<bool>& stop)
      : inner_(inner), side_(side), book_(book), out_(out), who_(std::move(who)), stop_(stop) {}
  std::string_view name() const override { return inner_.name(); }
  void orders(const dip::State& s, dip::PowerId power, Rng& rng,
              std::vector<dip::Order>& out) override {
    if (stop_.load() || out_.finished()) return;
    const auto t0 = DipWall::now();
    inner_.orders(s, power, rng, out);
    const double ms = std::chrono::duration<double, std::milli>(DipWall::now() - t0).count();
    ++out_.stats[side_].moves;
    if (!book_.charge(side_, ms, false, who_)) out.clear();
  }

 private:
  dip::Bot& inner_;
  int side_;
  RefereeBook& book_;
  GameOutcome& out_;
  std::string who_;
  const std::atomic<bool>& stop_;
};

class DiplomacyKind final : public GameKind {
 public:
  explicit DiplomacyKind(int max_year) : max_year_(max_year) {}
  std::string name() const override { return "diplomacy"; }
  std::string record_format() const override { return "JSON"; }
  std::string forfeit_result(int winner) const override { return winner == 0 ? "1-0" : "0-1"; }
  std::vector<std::string> bots() const override { return {"random", "heuristic", "rm"}; }
  bool needs_limits() const override { return false; }
  std::string measure_name() const override { return "centres per power"; }

  Result<void> load_openings(const OpeningOptions& o) override {
    if (!o.file.empty() || o.plies)
      return fail(
          "diplomacy has no opening files: the games of pair k play power k mod 7 with game "
          "seed --seed + k");
    seed_ = o.seed;
    return {};
  }
  std::size_t opening_count() const override { return kDipOpenings; }

  Result<void> check(const PlayerSpec& spec) const override {
    if (spec.external() || !spec.protocol.empty())
      return fail(
          "diplomacy has no engine protocol in kibitz match: use an in-process bot "
          "(bot=random, heuristic or rm)");
    const auto names = bots();
    if (std::find(names.begin(), names.end(), spec.bot) == names.end())
      return fail("no diplomacy bot '{}' (bots: random, heuristic, rm)", spec.bot);
    if (auto c = dip_rm_config(spec, spec.limits); !c) return tl::unexpected(c.error());
    return {};
  }

  Result<std::unique_ptr<Seat>> open(const PlayerSpec& spec,
                                     const GameSettings& settings) const override {
    if (auto ok = check(spec); !ok) return tl::unexpected(ok.error());
    auto cfg = dip_rm_config(spec, spec.limits.empty() ? settings.limits : spec.limits);
    if (!cfg) return tl::unexpected(cfg.error());
    const dip::Map& map = dip::standard_map();
    std::unique_ptr<dip::Bot> bot;
    if (spec.bot == "rm")
      bot = std::make_unique<dip::RmBot>(map, *cfg);
    else
      bot = dip::make_bot(spec.bot, map);
    if (!bot) return fail("no diplomacy bot '{}'", spec.bot);
    return std::make_unique<DipSeat>(std::move(bot));
  }

  GameOutcome play(const GameJob& job, std::array<Seat*, 2> seats,
                   std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
                   const std::atomic<bool>& stop) const override;

 private:
  int max_year_;
  std::uint64_t seed_ = 1;
};

GameOutcome DiplomacyKind::play(const GameJob& job, std::array<Seat*, 2> seats,
                                std::array<const PlayerSpec*, 2> specs,
                                const GameSettings& settings, const std::atomic<bool>& stop) const {
  const auto t_game = DipWall::now();
  const dip::Map& map = dip::standard_map();
  const int np = map.num_powers();
  const auto power = static_cast<dip::PowerId>(job.opening % static_cast<std::size_t>(np));
  const std::uint64_t game_seed = seed_ + job.opening;
  const std::string power_name(map.power_name(power));
  GameOutcome out;
  out.opening = fmt::format("{} seed {}", power_name, game_seed);
  RefereeBook book(out, specs, settings, {"1-0", "0-1", "1/2-1/2", "*"});

  std::array<std::unique_ptr<DipTimedBot>, 2> sides;
  for (int side = 0; side < 2; ++side)
    sides[side] =
        std::make_unique<DipTimedBot>(static_cast<DipSeat*>(seats[side])->bot(), side, book, out,
                                      side == 0 ? fmt::format("{} ({})", power_name, specs[0]->name)
                                                : fmt::format("the others ({})", specs[1]->name),
                                      stop);
  std::vector<dip::Bot*> by_power(static_cast<std::size_t>(np));
  std::vector<std::string> bot_names(static_cast<std::size_t>(np));
  for (int p = 0; p < np; ++p) {
    const int side = p == power ? 0 : 1;
    by_power[static_cast<std::size_t>(p)] = sides[side].get();
    bot_names[static_cast<std::size_t>(p)] = specs[side]->name;
  }
  dip::GameRunner runner(map);
  dip::GameOptions options;
  options.max_year = max_year_;
  const dip::GameRecord rec = runner.play(by_power, game_seed, options);

  int others = 0;
  for (int p = 0; p < np; ++p)
    if (p != power) others += rec.centres[p];
  const double others_avg = static_cast<double>(others) / (np - 1);
  const int mine = rec.centres[power];
  if (stop.load() && !out.finished()) {
    book.end(-1, "unterminated", "match interrupted");
  } else if (!out.finished()) {
    const std::string year = dip::phase_code(rec.last_phase);
    double score;
    std::string reason;
    if (rec.winner) {
      score = *rec.winner == power ? 1.0 : 0.0;
      reason = fmt::format("{} {} in {}", map.power_name(*rec.winner),
                           rec.survivors.size() == 1
                               ? "is the last power standing"
                               : fmt::format("solo with {} centres", rec.centres[*rec.winner]),
                           year);
    } else {
      // More centres per power held wins: mine against the mean of the other six (exactly,
      // in integers).
      const int lhs = mine * (np - 1);
      score = lhs > others ? 1.0 : lhs < others ? 0.0 : 0.5;
      reason =
          fmt::format("year limit: a draw among {} powers after {}", rec.survivors.size(), year);
    }
    book.end(score, "normal", std::move(reason));
    out.result = fmt::format(
        "{}({}) {}{} - others({}) avg {:.2f}{}", power_name, specs[0]->name, mine,
        rec.winner && *rec.winner == power ? " solo" : "", specs[1]->name, others_avg,
        rec.winner && *rec.winner != power ? fmt::format(", {} solo", map.power_name(*rec.winner))
                                           : "");
    out.measure = std::array<double, 2>{static_cast<double>(mine), others_avg};
  }
  out.plies = rec.num_phases;
  out.seconds = std::chrono::duration<double>(DipWall::now() - t_game).count();

  // The record: `kibitz diplomacy play --json`'s form of a game (seed, bots, game) plus the
  // match's round, power, players and result, on one line.
  using json = nlohmann::ordered_json;
  json r = {{"event", settings.event},
            {"round", job.number},
            {"seed", game_seed},
            {"power", power_name},
            {"players", {{power_name, specs[0]->name}, {"others", specs[1]->name}}},
            {"bots", bot_names},
            {"result", out.result.empty() ? "*" : out.result},
            {"termination", out.termination},
            {"reason", out.reason},
            {"game", json::parse(dip::game_json(map, rec))}};
  out.record = r.dump();
  return out;
}

}  // namespace

Result<std::unique_ptr<GameKind>> make_diplomacy_kind(const GameSettings& settings) {
  if (settings.adjudication.max_moves)
    return fail("diplomacy has no --max-moves (give --max-year, the last year played)");
  const int start = diplomacy::standard_map().start_year();
  const int max_year = settings.max_year ? settings.max_year : diplomacy::kDefaultMaxYear;
  if (max_year < start || max_year > 9999)
    return fail("--max-year {}: from {} to 9999", max_year, start);
  return std::unique_ptr<GameKind>(std::make_unique<DiplomacyKind>(max_year));
}

}  // namespace kibitz::match

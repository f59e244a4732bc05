// Diplomacy in `kibitz match` (see diplomacy_arena.hpp): a power and a game seed as the
// opening, the bots of src/games/diplomacy/bots.hpp and the RM+ bot, games refereed by the one
// loop (each power's orders a turn, timed; GameRunner steps the phases), and the game's JSON
// (game_json) as the record.
#include "match/diplomacy_arena.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/diplomacy_engine.hpp"
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

// A player: its bot and settings; its engine is made per game (seeded by the game and the
// side, so both games of a pair see the same randomness on each side).
class DipSeat final : public Seat {
 public:
  DipSeat(engine::DiplomacySetup setup, engine::OptionSettings options)
      : setup_(std::move(setup)), options_(std::move(options)) {}
  bool healthy() const override { return true; }
  const engine::DiplomacySetup& setup() const { return setup_; }
  const engine::OptionSettings& options() const { return options_; }

 private:
  engine::DiplomacySetup setup_;
  engine::OptionSettings options_;  // the spec's, set on each game's engine
};

// A player's engine setup: the rm bot's movetime (per movement phase and power; default
// 300 ms) and nodes as a fixed iteration count from its limits, its options (option.NAME:
// iterations, strength, seed, as the engine declares them) checked on an engine made for
// that; the other bots take none.
Result<engine::DiplomacySetup> dip_setup(const PlayerSpec& spec, const MoveLimits& limits) {
  engine::DiplomacySetup setup;
  setup.bot = spec.bot;
  setup.rm.movetime_ms = static_cast<int>(kDipDefaultMovetimeMs);
  if (limits.clock)
    return fail(
        "diplomacy bots have no clock (--tc): give --movetime MS, the rm bot's time per "
        "movement phase and power");
  if (spec.bot != "rm") {
    if (!spec.options.empty())
      return fail("the diplomacy bot '{}' has no options (only rm has)", spec.bot);
    return setup;
  }
  if (limits.movetime_ms > 0)
    setup.rm.movetime_ms = static_cast<int>(std::min<std::int64_t>(limits.movetime_ms, 3'600'000));
  if (limits.nodes > 0)
    setup.rm.max_iterations = static_cast<int>(std::min<std::uint64_t>(limits.nodes, 1'000'000));
  auto probe = engine::make_diplomacy_engine(setup);
  if (!probe) return tl::unexpected(probe.error());
  if (auto ok = (*probe)->set_options(spec.options); !ok)
    return fail("diplomacy bot rm: {}", ok.error().message);
  return setup;
}

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
    if (spec.is_embedded()) return fail("{}: {}", name(), kNoEmbeddedPlayers);
    if (spec.external() || !spec.protocol.empty())
      return fail(
          "diplomacy has no engine protocol in kibitz match: use an in-process bot "
          "(bot=random, heuristic or rm)");
    const auto names = bots();
    if (std::find(names.begin(), names.end(), spec.bot) == names.end())
      return fail("no diplomacy bot '{}' (bots: random, heuristic, rm)", spec.bot);
    if (auto c = dip_setup(spec, spec.limits); !c) return tl::unexpected(c.error());
    return {};
  }

  Result<std::unique_ptr<Seat>> open(const PlayerSpec& spec,
                                     const GameSettings& settings) const override {
    if (auto ok = check(spec); !ok) return tl::unexpected(ok.error());
    auto setup = dip_setup(spec, spec.limits.empty() ? settings.limits : spec.limits);
    if (!setup) return tl::unexpected(setup.error());
    return std::make_unique<DipSeat>(std::move(*setup), spec.options);
  }

  GameOutcome play(const GameJob& job, std::array<Seat*, 2> seats,
                   std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
                   const std::atomic<bool>& stop) const override;

 private:
  int max_year_;
  std::uint64_t seed_ = 1;
};

// One game for the referee loop: power `power` is the first player's, the other six the
// second's; a "move" is one power's orders for a phase, asked of its side's engine (through the
// one engine contract) in power order.
class DipTurns final : public TurnGame {
 public:
  DipTurns(std::array<DipSeat*, 2> seats, std::array<const PlayerSpec*, 2> specs,
           dip::PowerId power, std::uint64_t seed, int max_year)
      : map_(dip::standard_map()),
        runner_(map_),
        seats_(seats),
        specs_(specs),
        power_(power),
        seed_(seed) {
    dip::GameOptions options;
    options.max_year = max_year;
    runner_.begin(seed, options);
  }

  std::string who(int side) const override {
    return side == 0 ? fmt::format("{} ({})", map_.power_name(power_), specs_[0]->name)
                     : fmt::format("the others ({})", specs_[1]->name);
  }
  // The side's engine, seeded by the game and the side.
  Result<void> start(int side, const ClockView&, const MoveLimits&) override {
    engine::DiplomacySetup setup = seats_[side]->setup();
    setup.seed = (seed_ + 1) * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint64_t>(side + 1);
    auto made = engine::make_diplomacy_engine(setup);
    if (!made) return tl::unexpected(made.error());
    if (auto ok = (*made)->set_options(seats_[side]->options()); !ok) return ok;
    engines_[side] = std::move(*made);
    return {};
  }
  std::optional<Verdict> over() override {
    if (!runner_.over()) return std::nullopt;
    const dip::GameRecord& rec = record();
    const int np = map_.num_powers();
    int others = 0;
    for (int p = 0; p < np; ++p)
      if (p != power_) others += rec.centres[p];
    const double others_avg = static_cast<double>(others) / (np - 1);
    const int mine = rec.centres[power_];
    measure = std::array<double, 2>{static_cast<double>(mine), others_avg};
    const std::string year = dip::phase_code(rec.last_phase);
    Verdict v;
    v.termination = "normal";
    if (rec.winner) {
      v.first_score = *rec.winner == power_ ? 1.0 : 0.0;
      v.reason = fmt::format("{} {} in {}", map_.power_name(*rec.winner),
                             rec.survivors.size() == 1
                                 ? "is the last power standing"
                                 : fmt::format("solo with {} centres", rec.centres[*rec.winner]),
                             year);
    } else {
      // More centres per power held wins: mine against the mean of the other six (exactly,
      // in integers).
      const int lhs = mine * (np - 1);
      v.first_score = lhs > others ? 1.0 : lhs < others ? 0.0 : 0.5;
      v.reason =
          fmt::format("year limit: a draw among {} powers after {}", rec.survivors.size(), year);
    }
    const std::string power_name(map_.power_name(power_));
    v.result = fmt::format(
        "{}({}) {}{} - others({}) avg {:.2f}{}", power_name, specs_[0]->name, mine,
        rec.winner && *rec.winner == power_ ? " solo" : "", specs_[1]->name, others_avg,
        rec.winner && *rec.winner != power_ ? fmt::format(", {} solo", map_.power_name(*rec.winner))
                                            : "");
    return v;
  }
  int to_move() const override { return runner_.to_order() == power_ ? 0 : 1; }
  TurnReply ask(int side, const ClockView&, const MoveLimits&, std::int64_t,
                const std::atomic<bool>&) override {
    TurnReply reply;
    const auto t0 = DipWall::now();
    engine::DiplomacyAnyEngine& e = *engines_[side];
    (void)e.set_position(engine::DiplomacyPosition{runner_.state(), runner_.to_order()});
    const auto r = e.think({});
    reply.elapsed_ms = std::chrono::duration<double, std::milli>(DipWall::now() - t0).count();
    if (!r) {
      reply.status = TurnReply::Status::kCrash;  // cannot happen: the power has orders to give
      reply.error = r.error().message;
      return reply;
    }
    reply.move = r->move;
    return reply;
  }
  // Orders that are not the power's to give, or not possible, are left out (as the rules
  // treat them); an order that cannot be read is an infraction.
  Result<void> play(int, const TurnReply& reply) override {
    auto orders = engine::parse_orders_text(reply.move, runner_.state().phase.type);
    if (!orders) return fail("orders '{}': {}", excerpt(reply.move), orders.error().message);
    runner_.give(*orders);
    return {};
  }

  // The game's record (so far, where a forfeit or an interrupt ended it).
  const dip::GameRecord& record() {
    if (!record_) record_ = runner_.finish();
    return *record_;
  }
  std::optional<std::array<double, 2>> measure;  // once the game is over

 private:
  const dip::Map& map_;
  dip::GameRunner runner_;
  std::array<DipSeat*, 2> seats_;
  std::array<const PlayerSpec*, 2> specs_;
  dip::PowerId power_;
  std::uint64_t seed_;
  std::array<std::unique_ptr<engine::DiplomacyAnyEngine>, 2> engines_;
  std::optional<dip::GameRecord> record_;
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
  DipTurns game({static_cast<DipSeat*>(seats[0]), static_cast<DipSeat*>(seats[1])}, specs, power,
                game_seed, max_year_);
  referee_turns(game, book, settings, stop);
  if (out.termination == "normal") out.measure = game.measure;
  const dip::GameRecord& rec = game.record();
  std::vector<std::string> bot_names(static_cast<std::size_t>(np));
  for (int p = 0; p < np; ++p)
    bot_names[static_cast<std::size_t>(p)] = specs[p == power ? 0 : 1]->name;
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

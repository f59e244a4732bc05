#include "match/match.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <numeric>
#include <thread>

#include "core/progress.hpp"
#include "core/rng.hpp"

namespace kibitz::match {

namespace {

std::vector<GameJob> schedule(const MatchConfig& c, std::size_t openings) {
  const int opponents = c.gauntlet ? static_cast<int>(c.players.size()) - 1 : 1;
  const int pairs = (c.games + 1) / 2;
  std::vector<std::size_t> order(std::max<std::size_t>(openings, 1));
  std::iota(order.begin(), order.end(), 0);
  if (c.openings.random_order) {
    Rng rng(c.seed);
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  }
  std::vector<GameJob> jobs;
  int number = 0;
  // Pair by pair across the opponents, so a gauntlet's pairings progress together.
  for (int p = 0; p < pairs; ++p)
    for (int o = 1; o <= opponents; ++o)
      for (int g = 0; g < 2 && 2 * p + g < c.games; ++g) {
        GameJob job;
        job.number = ++number;
        job.pair = p;
        job.opponent = o;
        job.seats = g == 0 ? std::array<int, 2>{0, o} : std::array<int, 2>{o, 0};
        job.opening = order[static_cast<std::size_t>(p) % order.size()];
        if (p >= c.pair_begin && (c.pair_end < 0 || p < c.pair_end)) jobs.push_back(job);
      }
  return jobs;
}

void add_faults(SeatStats& total, const SeatStats& s) {
  total.moves += s.moves;
  total.max_move_ms = std::max(total.max_move_ms, s.max_move_ms);
  if (s.min_clock_left_ms >= 0 &&
      (total.min_clock_left_ms < 0 || s.min_clock_left_ms < total.min_clock_left_ms))
    total.min_clock_left_ms = s.min_clock_left_ms;
  // A negative clock left (a forfeit) is the most telling value of all.
  if (s.min_clock_left_ms < -0.5 && s.time_losses) total.min_clock_left_ms = s.min_clock_left_ms;
  total.time_losses += s.time_losses;
  total.illegal_moves += s.illegal_moves;
  total.crashes += s.crashes;
}

std::string elo_text(double x) {
  if (std::isinf(x)) return x > 0 ? "+inf" : "-inf";
  return fmt::format("{:+.1f}", x);
}

std::string decision_text(SprtDecision d) {
  switch (d) {
    case SprtDecision::kAcceptH0:
      return "H0 accepted";
    case SprtDecision::kAcceptH1:
      return "H1 accepted";
    default:
      return "continue";
  }
}

nlohmann::json number(double x) {
  if (!std::isfinite(x)) return nullptr;
  return std::round(x * 10000) / 10000;
}

}  // namespace

ReportBuilder::ReportBuilder(const MatchConfig& config, std::string game, std::string measure_name,
                             int scheduled)
    : config_(config) {
  report_.game = std::move(game);
  report_.measure_name = std::move(measure_name);
  report_.scheduled = scheduled;
  for (const auto& p : config.players) report_.players.push_back({p.name, p.describe(), {}});
  const int opponents = config.gauntlet ? static_cast<int>(config.players.size()) - 1 : 1;
  for (int o = 1; o <= opponents; ++o) {
    PairingReport pairing;
    pairing.opponent = o;
    report_.pairings.push_back(pairing);
  }
}

bool ReportBuilder::add(const GameJob& job, GameOutcome outcome) {
  auto& pairing = report_.pairings[static_cast<std::size_t>(job.opponent - 1)];
  for (int s = 0; s < 2; ++s)
    add_faults(report_.players[static_cast<std::size_t>(job.seats[s])].faults,
               outcome.stats[static_cast<std::size_t>(s)]);
  outcome.record.clear();
  const auto key = std::make_pair(job.opponent, job.pair);
  if (outcome.finished()) {
    const double score = job.seats[0] == 0 ? outcome.first_score : 1.0 - outcome.first_score;
    pairing.tally.add_game(score);
    if (auto it = half_pairs_.find(key); it != half_pairs_.end()) {
      pairing.tally.add_pair(it->second, score);
      half_pairs_.erase(it);
    } else {
      half_pairs_.emplace(key, score);
    }
    pairing.elo = estimate_elo(pairing.tally);
    if (outcome.measure) {
      const auto& m = *outcome.measure;
      const int mine = job.seats[0] == 0 ? 0 : 1;
      pairing.measure.add_game(m[mine], m[1 - mine]);
      const double d = m[mine] - m[1 - mine];
      if (auto it = half_measures_.find(key); it != half_measures_.end()) {
        pairing.measure.add_pair((it->second + d) / 2);
        half_measures_.erase(it);
      } else {
        half_measures_.emplace(key, d);
      }
    }
    // A decision stands: games that were still running when it came (concurrency) are
    // counted in the tally, not in the test, which has stopped.
    if (config_.sprt && (!pairing.sprt || pairing.sprt->decision == SprtDecision::kContinue)) {
      pairing.sprt = sprt(*config_.sprt, pairing.tally);
      if (pairing.sprt->decision != SprtDecision::kContinue && report_.stop_reason.empty())
        report_.stop_reason =
            fmt::format("SPRT: {} after {} games", decision_text(pairing.sprt->decision),
                        pairing.tally.games());
    }
  } else {
    ++pairing.unfinished;
  }
  report_.games.push_back({job, std::move(outcome)});
  return half_pairs_.count(key) == 0;
}

Match::Match(MatchConfig config, std::unique_ptr<GameKind> game)
    : config_(std::move(config)), game_(std::move(game)) {}

Result<MatchReport> Match::run(const std::atomic<bool>& stop) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto& players = config_.players;
  if (players.size() < 2) return fail("a match needs at least two players (--engine twice)");
  if (players.size() > 2 && !config_.gauntlet)
    return fail("{} players: more than two need --gauntlet (player 1 against each other one)",
                players.size());
  if (config_.games < 1) return fail("--games must be at least 1");
  if (config_.concurrency < 1) return fail("--concurrency must be at least 1");
  if (config_.sprt && config_.gauntlet) return fail("--sprt needs a match of two players");
  for (std::size_t i = 0; i < players.size(); ++i) {
    if (auto ok = game_->check(players[i]); !ok)
      return with_context(ok.error(), fmt::format("player {} '{}'", i + 1, players[i].name));
    for (std::size_t j = 0; j < i; ++j)
      if (players[j].name == players[i].name)
        return fail("two players are named '{}' (set name=...)", players[i].name);
  }
  OpeningOptions openings = config_.openings;
  openings.seed = config_.seed;
  if (auto ok = game_->load_openings(openings); !ok) return tl::unexpected(ok.error());
  // Start every player once up front: a wrong command or option fails the match at once
  // with a clear message instead of forfeiting every game.
  for (std::size_t i = 0; i < players.size(); ++i) {
    auto seat = game_->open(players[i], config_.settings);
    if (!seat)
      return with_context(seat.error(), fmt::format("player {} '{}'", i + 1, players[i].name));
  }
  std::ofstream records;
  if (!config_.records_file.empty()) {
    records.open(config_.records_file, std::ios::app);
    if (!records) return fail("cannot write '{}'", config_.records_file);
  }

  const auto jobs = schedule(config_, game_->opening_count());
  ReportBuilder builder(config_, game_->name(), game_->measure_name(),
                        static_cast<int>(jobs.size()));
  MatchReport& report = builder.report();

  std::mutex mutex;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> decided{false};
  Progress progress("match", jobs.size(), stderr, config_.progress);
  int done_games = 0;

  auto finish_game = [&](const GameJob& job, GameOutcome outcome) {
    std::lock_guard lock(mutex);
    if (records.is_open() && !outcome.record.empty()) {
      records << outcome.record << '\n';
      records.flush();
    }
    const bool counted = outcome.finished() && !stop.load();
    if (config_.settings.verbose || !outcome.finished())
      fmt::print(stderr, "game {} ({} vs {}): {} {{{}}}\n", job.number,
                 players[static_cast<std::size_t>(job.seats[0])].name,
                 players[static_cast<std::size_t>(job.seats[1])].name,
                 outcome.result.empty() ? "*" : outcome.result, outcome.reason);
    const bool pair_done = builder.add(job, std::move(outcome));
    if (builder.decided()) decided.store(true);
    ++done_games;
    if (config_.on_update) config_.on_update({job, &report.games.back().outcome, report});
    const auto& pairing = report.pairings[static_cast<std::size_t>(job.opponent - 1)];
    const std::string line = status_line(pairing, report);
    progress.update(static_cast<std::uint64_t>(done_games), line);
    if (!progress.enabled() && counted &&
        ((config_.report_every > 0 && done_games % config_.report_every == 0) ||
         (config_.sprt && pair_done)))
      fmt::print(stderr, "[{}/{}] {}\n", done_games, jobs.size(), line);
  };

  auto worker = [&] {
    std::map<int, std::unique_ptr<Seat>> seats;
    for (;;) {
      if (stop.load() || decided.load()) break;
      const std::size_t i = next.fetch_add(1);
      if (i >= jobs.size()) break;
      const GameJob& job = jobs[i];
      std::array<Seat*, 2> seat_ptrs{};
      std::array<std::string, 2> errors;
      for (int s = 0; s < 2; ++s) {
        const int p = job.seats[static_cast<std::size_t>(s)];
        auto& slot = seats[p];
        if (slot && !slot->healthy()) slot.reset();
        if (!slot) {
          auto opened = game_->open(players[static_cast<std::size_t>(p)], config_.settings);
          if (opened)
            slot = std::move(*opened);
          else
            errors[static_cast<std::size_t>(s)] = opened.error().message;
        }
        seat_ptrs[static_cast<std::size_t>(s)] = slot.get();
      }
      if (config_.on_update) {
        std::lock_guard lock(mutex);
        config_.on_update({job, nullptr, report});
      }
      GameOutcome outcome;
      if (!seat_ptrs[0] || !seat_ptrs[1]) {
        // A player that cannot start again (it did at the match's start) loses the game.
        outcome.termination = "abandoned";
        if (!seat_ptrs[0] && !seat_ptrs[1]) {
          outcome.reason = "neither player could start";
        } else {
          const int bad = seat_ptrs[0] ? 1 : 0;
          outcome.first_score = bad == 0 ? 0.0 : 1.0;
          outcome.fault_seat = bad;
          outcome.fault = Fault::kCrash;
          outcome.stats[static_cast<std::size_t>(bad)].crashes = 1;
          outcome.reason = fmt::format(
              "{} fails to start: {}",
              players[static_cast<std::size_t>(job.seats[static_cast<std::size_t>(bad)])].name,
              errors[static_cast<std::size_t>(bad)]);
          outcome.result = game_->forfeit_result(1 - bad);
        }
      } else {
        outcome = game_->play(job, seat_ptrs,
                              {&players[static_cast<std::size_t>(job.seats[0])],
                               &players[static_cast<std::size_t>(job.seats[1])]},
                              config_.settings, stop);
      }
      finish_game(job, std::move(outcome));
    }
  };

  const int threads = std::min<int>(config_.concurrency, static_cast<int>(jobs.size()));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  progress.finish();
  report.interrupted = stop.load();
  if (report.interrupted && report.stop_reason.empty()) report.stop_reason = "interrupted";
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return std::move(report);
}

std::string status_line(const PairingReport& p, const MatchReport& report) {
  const auto& t = p.tally;
  std::string s = fmt::format("{} vs {}: +{} ={} -{}", report.players[0].name,
                              report.players[static_cast<std::size_t>(p.opponent)].name, t.wins,
                              t.draws, t.losses);
  if (t.games() > 0)
    s += fmt::format("  {:.1f}%  Elo {} ± {}", 100.0 * t.score(), elo_text(p.elo.elo),
                     std::isfinite(p.elo.error95) ? fmt::format("{:.1f}", p.elo.error95) : "inf");
  if (p.sprt)
    s += fmt::format("  LLR {:.2f} ({:.2f}, {:.2f})", p.sprt->llr, p.sprt->lower, p.sprt->upper);
  return s;
}

std::string format_report(const MatchReport& r, const MatchConfig& c) {
  std::string out;
  const int finished =
      std::accumulate(r.pairings.begin(), r.pairings.end(), 0,
                      [](int n, const auto& p) { return n + static_cast<int>(p.tally.games()); });
  out +=
      fmt::format("{} match: {} of {} games finished in {:.1f} s{}\n", r.game, finished,
                  r.scheduled, r.seconds, r.stop_reason.empty() ? "" : " (" + r.stop_reason + ")");
  for (const auto& p : r.pairings) {
    const auto& t = p.tally;
    const auto& e = p.elo;
    out += fmt::format("\n{} vs {}\n", r.players[0].name,
                       r.players[static_cast<std::size_t>(p.opponent)].name);
    out += fmt::format("  Games {}  W {}  D {}  L {}", t.games(), t.wins, t.draws, t.losses);
    if (p.unfinished) out += fmt::format("  (unfinished {})", p.unfinished);
    out += '\n';
    if (t.games() == 0) continue;
    out += fmt::format("  Score {:.1f}%  draw ratio {:.1f}%\n", 100 * e.score, 100 * e.draw_ratio);
    out += fmt::format("  Elo {} ± {} (95%, {}: {} .. {})  LOS {:.1f}%\n", elo_text(e.elo),
                       std::isfinite(e.error95) ? fmt::format("{:.1f}", e.error95) : "inf",
                       e.pentanomial ? "pentanomial" : "trinomial", elo_text(e.lo), elo_text(e.hi),
                       100 * e.los);
    if (t.pairs() > 0)
      out += fmt::format("  Pairs {}  [LL LD DD/WL WD WW] = [{} {} {} {} {}]\n", t.pairs(),
                         t.penta[0], t.penta[1], t.penta[2], t.penta[3], t.penta[4]);
    if (p.measure.games > 0) {
      const auto& m = p.measure;
      const double ci = m.ci95();
      out += fmt::format("  {}: {} {:.2f}  {} {:.2f}  difference {:+.2f} ± {}\n", r.measure_name,
                         r.players[0].name, m.mean_player(),
                         r.players[static_cast<std::size_t>(p.opponent)].name, m.mean_opponent(),
                         m.mean_diff(), std::isfinite(ci) ? fmt::format("{:.2f}", ci) : "inf");
    }
    if (p.sprt && c.sprt)
      out +=
          fmt::format("  SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {:.3f} ({:.3f}, {:.3f}) {}\n",
                      c.sprt->elo0, c.sprt->elo1, c.sprt->alpha, c.sprt->beta, p.sprt->llr,
                      p.sprt->lower, p.sprt->upper, decision_text(p.sprt->decision));
  }
  out += "\nplayer            moves  max move ms  min clock ms  time losses  illegal  crashes\n";
  for (const auto& p : r.players) {
    const auto& f = p.faults;
    out += fmt::format(
        "{:<16} {:>6} {:>12.0f} {:>13} {:>12} {:>8} {:>8}\n", p.name, f.moves, f.max_move_ms,
        f.min_clock_left_ms < 0 && f.time_losses == 0 ? std::string("-")
                                                      : fmt::format("{:.0f}", f.min_clock_left_ms),
        f.time_losses, f.illegal_moves, f.crashes);
  }
  return out;
}

std::string report_json(const MatchReport& r, const MatchConfig& c) {
  using nlohmann::json;
  json j;
  j["game"] = r.game;
  j["scheduled"] = r.scheduled;
  j["seconds"] = number(r.seconds);
  j["interrupted"] = r.interrupted;
  j["stop_reason"] = r.stop_reason;
  j["limits"] = c.settings.limits.to_string();
  j["openings"] = c.openings.file;
  j["seed"] = c.seed;
  for (const auto& p : r.players) {
    const auto& f = p.faults;
    j["players"].push_back(
        {{"name", p.name},
         {"spec", p.description},
         {"moves", f.moves},
         {"max_move_ms", number(f.max_move_ms)},
         {"min_clock_left_ms",
          f.min_clock_left_ms < 0 && !f.time_losses ? json(nullptr) : number(f.min_clock_left_ms)},
         {"time_losses", f.time_losses},
         {"illegal_moves", f.illegal_moves},
         {"crashes", f.crashes}});
  }
  for (const auto& p : r.pairings) {
    const auto& t = p.tally;
    json pj = {{"player", r.players[0].name},
               {"opponent", r.players[static_cast<std::size_t>(p.opponent)].name},
               {"games", t.games()},
               {"wins", t.wins},
               {"draws", t.draws},
               {"losses", t.losses},
               {"unfinished", p.unfinished},
               {"pairs", t.pairs()},
               {"penta", t.penta}};
    if (t.games() > 0)
      pj.update({{"score", number(p.elo.score)},
                 {"elo", number(p.elo.elo)},
                 {"elo_lo", number(p.elo.lo)},
                 {"elo_hi", number(p.elo.hi)},
                 {"error95", number(p.elo.error95)},
                 {"model", p.elo.pentanomial ? "pentanomial" : "trinomial"},
                 {"los", number(p.elo.los)}});
    if (p.measure.games > 0)
      pj["measure"] = {{"name", r.measure_name},
                       {"games", p.measure.games},
                       {"player", number(p.measure.mean_player())},
                       {"opponent", number(p.measure.mean_opponent())},
                       {"difference", number(p.measure.mean_diff())},
                       {"ci95", number(p.measure.ci95())}};
    if (p.sprt && c.sprt)
      pj["sprt"] = {
          {"elo0", c.sprt->elo0},           {"elo1", c.sprt->elo1},
          {"alpha", c.sprt->alpha},         {"beta", c.sprt->beta},
          {"llr", number(p.sprt->llr)},     {"lower", number(p.sprt->lower)},
          {"upper", number(p.sprt->upper)}, {"decision", decision_text(p.sprt->decision)}};
    j["pairings"].push_back(pj);
  }
  j["games"] = json::array();
  for (const auto& g : r.games) {
    const auto& o = g.outcome;
    json gj = {{"number", g.job.number},
               {"pair", g.job.pair + 1},
               {"players",
                {r.players[static_cast<std::size_t>(g.job.seats[0])].name,
                 r.players[static_cast<std::size_t>(g.job.seats[1])].name}},
               {"opening", o.opening},
               {"result", o.result},
               {"first_score", o.finished() ? json(o.first_score) : json(nullptr)},
               {"termination", o.termination},
               {"reason", o.reason},
               {"plies", o.plies},
               {"seconds", number(o.seconds)}};
    // What report_from_games needs to count the game again elsewhere.
    gj["opponent"] = g.job.opponent;
    gj["seats"] = g.job.seats;
    gj["opening_index"] = g.job.opening;
    for (const auto& st : o.stats)
      gj["stats"].push_back({{"moves", st.moves},
                             {"max_move_ms", st.max_move_ms},
                             {"min_clock_left_ms", st.min_clock_left_ms},
                             {"time_losses", st.time_losses},
                             {"illegal_moves", st.illegal_moves},
                             {"crashes", st.crashes}});
    if (o.measure) gj["measure"] = {number((*o.measure)[0]), number((*o.measure)[1])};
    if (o.fault != Fault::kNone) gj["fault_seat"] = o.fault_seat;
    if (o.fault != Fault::kNone)
      gj["fault"] = {
          {"player",
           r.players[static_cast<std::size_t>(g.job.seats[static_cast<std::size_t>(o.fault_seat)])]
               .name},
          {"kind", fault_name(o.fault)}};
    j["games"].push_back(gj);
  }
  return j.dump(2);
}

GameCounter::GameCounter(const MatchConfig& config, const GameKind& game)
    : config_(config),
      jobs_(schedule(config_, game.opening_count())),
      builder_(config_, game.name(), game.measure_name(), static_cast<int>(jobs_.size())) {
  for (const auto& job : jobs_) by_number_[job.number] = &job;
}

Result<void> GameCounter::add(const std::string& games_json) {
  using nlohmann::json;
  const json games = json::parse(games_json, nullptr, false);
  if (games.is_discarded() || !games.is_array())
    return fail("report_from_games: expected a JSON array of games");
  for (const json& g : games) {
    try {
      const int n = g.at("number").get<int>();
      const auto it = by_number_.find(n);
      if (it == by_number_.end()) return fail("report_from_games: game {} is not scheduled", n);
      if (!seen_.insert(n).second) return fail("report_from_games: game {} is given twice", n);
      const GameJob& job = *it->second;
      if (g.at("seats").get<std::array<int, 2>>() != job.seats ||
          g.at("opponent").get<int>() != job.opponent)
        return fail("report_from_games: game {} was played by other seats than scheduled", n);
      GameOutcome o;
      o.first_score = g.at("first_score").is_null() ? -1.0 : g.at("first_score").get<double>();
      o.result = g.at("result").get<std::string>();
      o.termination = g.at("termination").get<std::string>();
      o.reason = g.at("reason").get<std::string>();
      o.plies = g.at("plies").get<int>();
      o.seconds = g.at("seconds").is_null() ? 0.0 : g.at("seconds").get<double>();
      o.opening = g.at("opening").get<std::string>();
      const json& stats = g.at("stats");
      for (std::size_t s = 0; s < 2; ++s) {
        const json& st = stats.at(s);
        auto& out = o.stats[s];
        out.moves = st.at("moves").get<int>();
        out.max_move_ms = st.at("max_move_ms").get<double>();
        out.min_clock_left_ms = st.at("min_clock_left_ms").get<double>();
        out.time_losses = st.at("time_losses").get<int>();
        out.illegal_moves = st.at("illegal_moves").get<int>();
        out.crashes = st.at("crashes").get<int>();
      }
      if (g.contains("measure"))
        o.measure = std::array<double, 2>{g["measure"].at(0).get<double>(),
                                          g["measure"].at(1).get<double>()};
      if (g.contains("fault")) {
        o.fault_seat = g.at("fault_seat").get<int>();
        const auto kind = g["fault"].at("kind").get<std::string>();
        for (const Fault f : {Fault::kTime, Fault::kIllegal, Fault::kCrash})
          if (fault_name(f) == kind) o.fault = f;
        if (o.fault == Fault::kNone)
          return fail("report_from_games: game {} has an unknown fault '{}'", n, kind);
      }
      builder_.add(job, std::move(o));
    } catch (const json::exception& e) {
      return fail("report_from_games: a game entry does not read: {}", e.what());
    }
  }
  return {};
}

Result<MatchReport> report_from_games(const MatchConfig& config, const GameKind& game,
                                      const std::string& games_json) {
  GameCounter counter(config, game);
  if (auto ok = counter.add(games_json); !ok) return tl::unexpected(ok.error());
  return std::move(counter.report());
}

void MeasureTally::add_game(double mine, double theirs) {
  ++games;
  player += mine;
  opponent += theirs;
  diff += mine - theirs;
  diff_sq += (mine - theirs) * (mine - theirs);
}

void MeasureTally::add_pair(double mean_diff) {
  ++pairs;
  pair_diff += mean_diff;
  pair_diff_sq += mean_diff * mean_diff;
}

double MeasureTally::ci95() const {
  const bool by_pairs = pairs >= 2 && 2 * pairs == games;
  const double n = by_pairs ? pairs : games;
  if (n < 2) return std::numeric_limits<double>::infinity();
  const double sum = by_pairs ? pair_diff : diff, sq = by_pairs ? pair_diff_sq : diff_sq;
  const double var = std::max(0.0, (sq - sum * sum / n) / (n - 1));
  return 1.96 * std::sqrt(var / n);
}

std::string_view fault_name(Fault f) {
  switch (f) {
    case Fault::kTime:
      return "time";
    case Fault::kIllegal:
      return "illegal";
    case Fault::kCrash:
      return "crash";
    default:
      return "none";
  }
}

}  // namespace kibitz::match

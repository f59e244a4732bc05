#include "serve/matches.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "match/player_spec.hpp"

namespace kibitz::serve {

namespace {

using nlohmann::json;

constexpr std::size_t kMaxMatchEvents = 20'000;  // a long match's first events go first
constexpr std::size_t kMaxFeeds = 32;            // finished matches kept for late readers
constexpr int kMaxGames = 2000;
constexpr int kMaxRunning = 4;  // matches from pages at once

// A number JSON can carry (infinite Elo intervals become null).
json finite(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json pairing_json(const match::MatchReport& r, const match::PairingReport& p) {
  const auto& t = p.tally;
  json j = {{"player", r.players[0].name},
            {"opponent", r.players[static_cast<std::size_t>(p.opponent)].name},
            {"games", t.games()},
            {"wins", t.wins},
            {"draws", t.draws},
            {"losses", t.losses},
            {"pairs", t.pairs()}};
  if (t.games() > 0)
    j.update({{"score", finite(p.elo.score)},
              {"elo", finite(p.elo.elo)},
              {"elo_lo", finite(p.elo.lo)},
              {"elo_hi", finite(p.elo.hi)}});
  if (p.sprt)
    j["sprt"] = {
        {"llr", finite(p.sprt->llr)},
        {"lower", finite(p.sprt->lower)},
        {"upper", finite(p.sprt->upper)},
        {"decision", p.sprt->decision == match::SprtDecision::kContinue   ? "continue"
                     : p.sprt->decision == match::SprtDecision::kAcceptH1 ? "H1 accepted"
                                                                          : "H0 accepted"}};
  if (p.measure.games > 0)
    j["measure"] = {{"name", r.measure_name},
                    {"player", finite(p.measure.mean_player())},
                    {"opponent", finite(p.measure.mean_opponent())}};
  return j;
}

}  // namespace

MatchFeed::MatchFeed(std::string id, std::string title)
    : id_(std::move(id)), title_(std::move(title)) {}

void MatchFeed::push_locked(std::string event) {
  events_.emplace_back(next_++, std::move(event));
  while (events_.size() > kMaxMatchEvents) events_.pop_front();
  cv_.notify_all();
}

void MatchFeed::update(const match::MatchUpdate& u) {
  const auto& r = u.report;
  json e;
  e["type"] = u.outcome ? "end" : "begin";
  e["game"] = u.job.number;
  e["pair"] = u.job.pair + 1;
  e["players"] = {r.players[static_cast<std::size_t>(u.job.seats[0])].name,
                  r.players[static_cast<std::size_t>(u.job.seats[1])].name};
  if (u.outcome) {
    const auto& o = *u.outcome;
    e["result"] = o.result;
    e["termination"] = o.termination;
    e["reason"] = o.reason;
    e["plies"] = o.plies;
    e["seconds"] = o.seconds;
    e["opening"] = o.opening;
  }
  e["finished"] = r.games.size();
  e["scheduled"] = r.scheduled;
  json pairings = json::array();
  for (const auto& p : r.pairings) pairings.push_back(pairing_json(r, p));
  e["pairings"] = pairings;
  std::lock_guard lock(mu_);
  finished_ = static_cast<int>(r.games.size());
  scheduled_ = r.scheduled;
  push_locked(e.dump());
}

void MatchFeed::finish(const std::string& report_json, const std::string& error) {
  std::lock_guard lock(mu_);
  json e = {{"type", "done"}};
  if (!error.empty()) e["error"] = error;
  if (!report_json.empty()) e["report"] = json::parse(report_json, nullptr, false);
  push_locked(e.dump());
  done_ = true;
}

std::pair<std::vector<std::pair<std::uint64_t, std::string>>, bool> MatchFeed::events(
    std::uint64_t after, std::chrono::milliseconds wait) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, wait, [&] { return next_ - 1 > after || done_; });
  std::vector<std::pair<std::uint64_t, std::string>> out;
  for (const auto& e : events_)
    if (e.first > after) out.push_back(e);
  return {out, done_};
}

std::string MatchFeed::summary() const {
  std::lock_guard lock(mu_);
  return json{{"id", id_},
              {"title", title_},
              {"running", !done_},
              {"finished", finished_},
              {"scheduled", scheduled_}}
      .dump();
}

MatchStore::~MatchStore() {
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mu_);
    for (auto& [id, feed] : feeds_) feed->stop.store(true);
    threads.swap(threads_);
  }
  for (auto& t : threads) t.join();
}

std::string MatchStore::next_id() { return fmt::format("m{}", ++counter_); }

std::shared_ptr<MatchFeed> MatchStore::add(const std::string& title) {
  std::lock_guard lock(mu_);
  auto feed = std::make_shared<MatchFeed>(next_id(), title);
  feeds_[feed->id()] = feed;
  order_.push_back(feed->id());
  // Room: the oldest finished feeds go.
  while (order_.size() > kMaxFeeds) {
    auto it = std::find_if(order_.begin(), order_.end(),
                           [&](const std::string& id) { return !feeds_[id]->running(); });
    if (it == order_.end()) break;
    feeds_.erase(*it);
    order_.erase(it);
  }
  return feed;
}

Reply<std::shared_ptr<MatchFeed>> MatchStore::start(const MatchRequest& request) {
  const auto bad = [](std::string m) { return tl::unexpected(RequestError{400, std::move(m)}); };
  match::MatchConfig c;
  c.games = request.games;
  c.concurrency = request.concurrency;
  if (c.games < 1 || c.games > kMaxGames) return bad(fmt::format("games: 1 to {}", kMaxGames));
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (c.concurrency < 1 || c.concurrency > cores)
    return bad(fmt::format("concurrency: 1 to {} (the machine's cores)", cores));
  if (request.players.size() != 2) return bad("a match from a page has two players");
  for (const auto& text : request.players) {
    auto spec = match::parse_player_spec(text);
    if (!spec) return bad(fmt::format("player '{}': {}", text, spec.error().message));
    // A request from a page never starts a program on this machine.
    if (spec->external())
      return bad(
          "a page starts only in-process bots (bot=NAME); for an external engine, "
          "watch `kibitz match --live PORT`");
    c.players.push_back(std::move(*spec));
  }
  if (c.players[0].name == c.players[1].name) c.players[1].name += "-2";
  c.settings.limits = request.limits;
  if (request.limits.movetime_ms > 60'000) return bad("movetime_ms: at most 60000");
  c.settings.board_size = request.board_size;
  c.settings.rule = request.rule;
  c.settings.adjudication.max_moves = request.max_moves;
  c.settings.event = "kibitz serve";
  if (request.sprt) {
    if (!(request.sprt->first < request.sprt->second))
      return bad("sprt: [elo0, elo1], elo0 < elo1");
    c.sprt = match::SprtParams{request.sprt->first, request.sprt->second, 0.05, 0.05};
  }
  auto kind = registry_.game_kind(request.game, c.settings);
  if (!kind) return bad(kind.error().message);
  if (c.settings.limits.empty() && (*kind)->needs_limits())
    return bad("give a limit: movetime_ms, nodes or depth");
  for (const auto& p : c.players)
    if (auto ok = (*kind)->check(p); !ok)
      return bad(fmt::format("player '{}': {}", p.name, ok.error().message));

  {
    std::lock_guard lock(mu_);
    int running = 0;
    for (const auto& [id, f] : feeds_) running += f->running() ? 1 : 0;
    if (running >= kMaxRunning)
      return tl::unexpected(RequestError{503, fmt::format("{} matches run already", running)});
  }
  auto feed = add(fmt::format("{}: {} vs {}", request.game, c.players[0].name, c.players[1].name));
  std::lock_guard lock(mu_);
  threads_.emplace_back([feed, c = std::move(c), kind = std::move(*kind)]() mutable {
    c.on_update = [&feed](const match::MatchUpdate& u) { feed->update(u); };
    match::Match m(c, std::move(kind));
    const auto report = m.run(feed->stop);
    if (report) {
      feed->finish(match::report_json(*report, c));
    } else {
      feed->finish("", report.error().message);
    }
  });
  return feed;
}

std::shared_ptr<MatchFeed> MatchStore::find(const std::string& id) const {
  std::lock_guard lock(mu_);
  auto it = feeds_.find(id);
  return it == feeds_.end() ? nullptr : it->second;
}

std::string MatchStore::list() const {
  std::lock_guard lock(mu_);
  json out = json::array();
  for (auto it = order_.rbegin(); it != order_.rend(); ++it)
    out.push_back(json::parse(feeds_.at(*it)->summary()));
  return out.dump();
}

}  // namespace kibitz::serve

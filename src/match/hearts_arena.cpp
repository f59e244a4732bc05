// Hearts in `kibitz match` (see hearts_arena.hpp): deals as openings, the in-process bots of
// src/engine/hearts_engine.hpp, one hand per game refereed here (every pass and card checked
// against the rules, each decision timed), and a JSON line per hand as the record.
#include "match/hearts_arena.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/rng.hpp"
#include "engine/any_engine.hpp"
#include "engine/hearts_engine.hpp"
#include "engine/hearts_match.hpp"
#include "games/hearts/hearts_game.hpp"
#include "match/referee.hpp"

namespace kibitz::match {

namespace {

using HeartsWall = std::chrono::steady_clock;
constexpr const char* kHeartsSeatNames[hearts::kNumPlayers] = {"N", "E", "S", "W"};
// Deals drawn from the seed without a deal file: as many as the shared file holds.
constexpr int kHeartsGeneratedDeals = 10000;

// A player: its bot's name and search settings; its bots are made per game (seeded by the
// deal and the seat, so both games of a pair see the same randomness at each seat).
class HeartsSeat final : public Seat {
 public:
  HeartsSeat(std::string bot, hearts::SearchCfg cfg) : bot_(std::move(bot)), cfg_(cfg) {}
  bool healthy() const override { return true; }
  const std::string& bot() const { return bot_; }
  const hearts::SearchCfg& cfg() const { return cfg_; }

 private:
  std::string bot_;
  hearts::SearchCfg cfg_;
};

// The search settings of a player: its limits (movetime: the budget per decision; nodes: the
// sampled worlds; depth: the lookahead plies) and its options (option.NAME=VALUE, any of the
// search's settings: hearts::search_settings). The other bots take neither.
Result<hearts::SearchCfg> hearts_search_cfg(const PlayerSpec& spec, const MoveLimits& limits) {
  hearts::SearchCfg c;
  if (limits.clock)
    return fail(
        "hearts bots have no clock (--tc): give --movetime MS, the search bot's budget per "
        "decision");
  if (spec.bot != "search") {
    if (!spec.options.empty())
      return fail("the hearts bot '{}' has no options (only search has)", spec.bot);
    return c;
  }
  if (limits.movetime_ms > 0)
    c.time_budget_ms = static_cast<int>(std::min<std::int64_t>(limits.movetime_ms, 3'600'000));
  if (limits.nodes > 0) c.worlds = static_cast<int>(std::min<std::uint64_t>(limits.nodes, 100000));
  if (limits.depth > 8)
    return fail("--depth {}: the hearts search looks 0 to 8 plies", limits.depth);
  if (limits.depth > 0) c.depth = limits.depth;
  for (const auto& [k, v] : spec.options) {
    const hearts::SearchSetting* setting = hearts::find_search_setting(k);
    if (!setting) {
      std::string names;
      for (const auto& known : hearts::search_settings())
        names += fmt::format("{}{}", names.empty() ? "" : ", ", known.name);
      return fail("the hearts search bot has no option '{}' ({})", k, names);
    }
    if (auto ok = hearts::set_search_setting(c, *setting, v); !ok)
      return fail("hearts bot option {}", ok.error().message);
  }
  return c;
}

// The seat that wins the trick of plays first..first+3.
int hearts_trick_winner(const hearts::State& s, int first) {
  const hearts::Card lead = s.play(first);
  int best = first;
  for (int i = first + 1; i < first + 4; ++i)
    if (s.play(i).suit() == lead.suit() && s.play(i).rank() > s.play(best).rank()) best = i;
  return s.play_seat(best);
}

class HeartsKind final : public GameKind {
 public:
  std::string name() const override { return "hearts"; }
  std::string record_format() const override { return "JSON"; }
  std::string forfeit_result(int winner) const override { return winner == 0 ? "NS+F" : "EW+F"; }
  std::vector<std::string> bots() const override { return hearts::bot_names(); }
  bool needs_limits() const override { return false; }
  std::string measure_name() const override { return "PPH (lower is better)"; }

  Result<void> load_openings(const OpeningOptions& o) override {
    seed_ = o.seed;
    deals_.clear();
    if (o.plies) return fail("hearts has no --plies (an opening is a whole deal)");
    if (o.format != "auto" && o.format != "deals")
      return fail("unknown opening format '{}' for hearts (deals: id pass N E S W a line)",
                  o.format);
    if (o.file.empty()) {
      // The deals `kibitz hearts match --seed S` plays, in the same order.
      Rng rng(o.seed ? o.seed : 1);
      for (int i = 0; i < kHeartsGeneratedDeals; ++i)
        deals_.push_back(
            {std::to_string(i), hearts::pass_dir_for_hand(i), hearts::random_deal(rng)});
      return {};
    }
    auto d = hearts::read_deals(o.file);
    if (!d) return tl::unexpected(d.error());
    deals_ = std::move(*d);
    return {};
  }
  std::size_t opening_count() const override { return deals_.size(); }

  Result<void> check(const PlayerSpec& spec) const override {
    if (spec.is_embedded()) return fail("{}: {}", name(), kNoEmbeddedPlayers);
    if (spec.external() || !spec.protocol.empty())
      return fail(
          "hearts has no engine protocol in kibitz match: use an in-process bot (bot=random, "
          "rule or search)");
    const auto names = bots();
    if (std::find(names.begin(), names.end(), spec.bot) == names.end())
      return fail("no hearts bot '{}' (bots: random, rule, search)", spec.bot);
    if (auto c = hearts_search_cfg(spec, spec.limits); !c) return tl::unexpected(c.error());
    return {};
  }

  Result<std::unique_ptr<Seat>> open(const PlayerSpec& spec,
                                     const GameSettings& settings) const override {
    if (auto ok = check(spec); !ok) return tl::unexpected(ok.error());
    auto cfg = hearts_search_cfg(spec, spec.limits.empty() ? settings.limits : spec.limits);
    if (!cfg) return tl::unexpected(cfg.error());
    return std::make_unique<HeartsSeat>(spec.bot, *cfg);
  }

  GameOutcome play(const GameJob& job, std::array<Seat*, 2> seats,
                   std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
                   const std::atomic<bool>& stop) const override;

 private:
  std::vector<hearts::DealRecord> deals_;
  std::uint64_t seed_ = 1;
};

// One hand for the referee loop: the four seats' bots (seat h, N E S W, belongs to side h % 2),
// the passes (each seat picks in turn; the cards change hands once all four have) and the
// tricks.
class HeartsTurns final : public TurnGame {
 public:
  HeartsTurns(const GameJob& job, std::array<const HeartsSeat*, 2> seats,
              std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
              const hearts::DealRecord& deal, std::uint64_t seed)
      : s(deal.hands, deal.dir),
        job_(job),
        seats_(seats),
        specs_(specs),
        settings_(settings),
        seed_(seed),
        picking_(s.phase() == hearts::Phase::kPass) {}

  std::string who(int side) const override {
    const int h = seat_to_act();
    return h % 2 == side ? fmt::format("{} ({})", kHeartsSeatNames[h], specs_[side]->name)
                         : fmt::format("{} ({})", kSideName[side], specs_[side]->name);
  }
  // The side's two engines, seeded by the pair and the seat only.
  Result<void> start(int side, const ClockView&, const MoveLimits&) override {
    for (int h = side; h < hearts::kNumPlayers; h += 2) {
      engine::HeartsSetup setup;
      setup.bot = seats_[side]->bot();
      setup.search = seats_[side]->cfg();
      setup.seed = (seed_ * 0x9E3779B97F4A7C15ull) ^
                   (static_cast<std::uint64_t>(job_.pair) * 4 + static_cast<std::uint64_t>(h) + 1) *
                       0xD1B54A32D192ED03ull;
      auto made = engine::make_hearts_any_engine(setup);
      if (!made) return tl::unexpected(made.error());  // check() accepted the name
      engines_[h] = std::move(*made);
    }
    return {};
  }
  std::optional<Verdict> over() override {
    if (!s.is_terminal()) return std::nullopt;
    const auto points = s.hand_scores();
    const int ns = points[0] + points[2], ew = points[1] + points[3];
    int moon = -1;
    for (int h = 0; h < hearts::kNumPlayers; ++h)
      if ((s.taken(h) & hearts::kPointCards) == hearts::kPointCards) moon = h;
    return Verdict{
        ns < ew   ? 1.0
        : ns > ew ? 0.0
                  : 0.5,
        "normal",
        fmt::format("points N {} E {} S {} W {}{}", points[0], points[1], points[2], points[3],
                    moon >= 0 ? fmt::format(" ({} shot the moon)", kHeartsSeatNames[moon]) : ""),
        fmt::format("NS {} - EW {}", ns, ew)};
  }
  int to_move() const override { return seat_to_act() % 2; }
  // The seat's engine decides from the seat's view (the settings' own budget per decision).
  TurnReply ask(int, const ClockView&, const MoveLimits&, std::int64_t,
                const std::atomic<bool>&) override {
    TurnReply reply;
    const int h = seat_to_act();
    const auto t0 = HeartsWall::now();
    engine::AnyEngine& e = *engines_[h];
    if (auto ok = e.set_position(hearts::view_text(s.information_state(h))); !ok) {
      reply.status = TurnReply::Status::kCrash;  // cannot happen: the referee's own hand
      reply.error = ok.error().message;
      return reply;
    }
    const auto r = e.think({});
    reply.elapsed_ms = std::chrono::duration<double, std::milli>(HeartsWall::now() - t0).count();
    if (!r) {
      reply.status = TurnReply::Status::kCrash;
      reply.error = r.error().message;
      return reply;
    }
    reply.move = r->move;
    reply.comment = r->how;
    decided_ms_ = r->time_ms;
    return reply;
  }
  Result<void> play(int, const TurnReply& reply) override {
    const int h = seat_to_act();
    if (picking_) {
      auto picks = hearts::parse_cards(reply.move);
      if (!picks || picks->size() != 3 || (*picks - s.hand(h)).size() != 0)
        return fail("passes '{}'", reply.move);
      picks_[h] = *picks;
      if (++picked_ == hearts::kNumPlayers) {
        for (int p = 0; p < hearts::kNumPlayers; ++p)
          for (const hearts::Card c : picks_[p]) s.apply(c);
        picking_ = false;
      }
      return {};
    }
    const auto card = hearts::parse_card(reply.move);
    if (!card || !s.is_legal(*card))
      return fail("plays {}, not a legal card", reply.move.empty() ? "none" : reply.move);
    if (settings_.verbose)
      fmt::print(stderr, "game {} {} ({}) {} ({} ms) {}\n", job_.number, kHeartsSeatNames[h],
                 specs_[h % 2]->name, hearts::to_string(*card), decided_ms_, reply.comment);
    s.apply(*card);
    return {};
  }

  hearts::State s;

 private:
  static constexpr const char* kSideName[2] = {"NS", "EW"};
  int seat_to_act() const { return picking_ ? picked_ : s.current_player(); }
  const GameJob& job_;
  std::array<const HeartsSeat*, 2> seats_;
  std::array<const PlayerSpec*, 2> specs_;
  const GameSettings& settings_;
  std::uint64_t seed_;
  std::array<std::unique_ptr<engine::AnyEngine>, hearts::kNumPlayers> engines_;
  bool picking_;
  int picked_ = 0;
  std::array<hearts::CardSet, hearts::kNumPlayers> picks_{};
  std::int64_t decided_ms_ = 0;  // the last decision's own time (the verbose line)
};

GameOutcome HeartsKind::play(const GameJob& job, std::array<Seat*, 2> seats,
                             std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
                             const std::atomic<bool>& stop) const {
  const auto t_game = HeartsWall::now();
  GameOutcome out;
  const hearts::DealRecord& deal = deals_[job.opening];
  out.opening = fmt::format("deal {} ({})", deal.id, hearts::to_string(deal.dir));
  RefereeBook book(out, specs, settings, {"NS+", "EW+", "=", "*"});
  const char* side_name[2] = {"NS", "EW"};
  HeartsTurns game(
      job, {static_cast<const HeartsSeat*>(seats[0]), static_cast<const HeartsSeat*>(seats[1])},
      specs, settings, deal, seed_);
  referee_turns(game, book, settings, stop);
  const hearts::State& s = game.s;
  const auto points = s.hand_scores();
  if (s.is_terminal() && out.termination == "normal") {
    // Points per hand of each side: the mean of its two seats, as PPH counts one seat.
    out.measure =
        std::array<double, 2>{(points[0] + points[2]) / 2.0, (points[1] + points[3]) / 2.0};
  }
  out.plies = s.num_plays();
  out.seconds = std::chrono::duration<double>(HeartsWall::now() - t_game).count();

  // The record: one JSON line with the deal, the passes, the tricks and the points.
  using json = nlohmann::ordered_json;
  json hands = json::object(), passes = json::object(), pts = json::object();
  for (int h = 0; h < hearts::kNumPlayers; ++h) {
    hands[kHeartsSeatNames[h]] = hearts::to_string(deal.hands[h]);
    if (deal.dir != hearts::PassDir::kNone)
      passes[kHeartsSeatNames[h]] = hearts::to_string(s.passed(h));
    pts[kHeartsSeatNames[h]] = points[h];
  }
  json tricks = json::array();
  for (int t = 0; 4 * t + 4 <= s.num_plays(); ++t) {
    std::string cards;
    for (int i = 4 * t; i < 4 * t + 4; ++i)
      cards += (cards.empty() ? "" : " ") + hearts::to_string(s.play(i));
    tricks.push_back({{"leader", kHeartsSeatNames[s.play_seat(4 * t)]},
                      {"cards", cards},
                      {"winner", kHeartsSeatNames[hearts_trick_winner(s, 4 * t)]}});
  }
  json rec = {{"event", settings.event},
              {"round", job.number},
              {"deal", deal.id},
              {"pass", hearts::to_string(deal.dir)},
              {"players", {{side_name[0], specs[0]->name}, {side_name[1], specs[1]->name}}},
              {"hands", hands}};
  if (deal.dir != hearts::PassDir::kNone) rec["passes"] = passes;
  rec["tricks"] = tricks;
  rec["points"] = pts;
  rec["result"] = out.result.empty() ? "*" : out.result;
  rec["termination"] = out.termination;
  rec["reason"] = out.reason;
  out.record = rec.dump();
  return out;
}

}  // namespace

Result<std::unique_ptr<GameKind>> make_hearts_kind(const GameSettings& settings) {
  if (settings.adjudication.max_moves)
    return fail("hearts has no --max-moves (a game is one hand)");
  return std::unique_ptr<GameKind>(std::make_unique<HeartsKind>());
}

}  // namespace kibitz::match

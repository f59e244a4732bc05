#include "match/state_arena.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "core/text.hpp"
#include "match/referee.hpp"

namespace kibitz::match {

namespace {

using Wall = std::chrono::steady_clock;

class StateSeat final : public Seat {
 public:
  explicit StateSeat(std::string bot) : bot_(std::move(bot)) {}
  bool healthy() const override { return true; }
  const std::string& bot() const { return bot_; }

 private:
  std::string bot_;
};

class StateKind final : public GameKind {
 public:
  StateKind(std::string name, StateFactory factory)
      : name_(std::move(name)), factory_(std::move(factory)) {}
  std::string name() const override { return name_; }
  std::string record_format() const override { return "text"; }
  std::string forfeit_result(int winner) const override { return winner == 0 ? "1-0" : "0-1"; }
  std::vector<std::string> bots() const override { return {"random", "first"}; }
  bool needs_limits() const override { return false; }

  Result<void> load_openings(const OpeningOptions& o) override {
    seed_ = o.seed;
    book_.clear();
    if (o.file.empty()) return {};
    if (o.plies) return fail("{} has no --plies (an opening is a position text)", name_);
    if (o.format != "auto" && o.format != "text")
      return fail("unknown opening format '{}' for {} (text: a position text a line)", o.format,
                  name_);
    std::ifstream in(o.file);
    if (!in) return fail("cannot read '{}'", o.file);
    auto read = for_each_data_line(in, [&](std::string_view t, int n) -> Result<void> {
      if (auto s = factory_(t); !s) return with_context(s.error(), fmt::format("{}:{}", o.file, n));
      book_.emplace_back(t);
      return {};
    });
    if (!read) return read;
    if (book_.empty()) return fail("'{}' holds no positions", o.file);
    return {};
  }
  std::size_t opening_count() const override { return book_.size(); }

  Result<void> check(const PlayerSpec& spec) const override {
    if (spec.is_embedded()) return fail("{}: {}", name_, kNoEmbeddedPlayers);
    if (spec.external() || !spec.protocol.empty())
      return fail(
          "{} has no engine protocol in kibitz match: use an in-process bot (bot=random or "
          "first)",
          name_);
    const auto names = bots();
    if (std::find(names.begin(), names.end(), spec.bot) == names.end())
      return fail("no {} bot '{}' (bots: random, first)", name_, spec.bot);
    if (!spec.options.empty())
      return fail("{} bots take no options (option.{})", name_, spec.options.front().first);
    return {};
  }

  Result<std::unique_ptr<Seat>> open(const PlayerSpec& spec, const GameSettings&) const override {
    if (auto ok = check(spec); !ok) return tl::unexpected(ok.error());
    return std::unique_ptr<Seat>(std::make_unique<StateSeat>(spec.bot));
  }

  GameOutcome play(const GameJob& job, std::array<Seat*, 2> seats,
                   std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
                   const std::atomic<bool>& stop) const override;

 private:
  std::string name_;
  StateFactory factory_;
  std::vector<std::string> book_;
  std::uint64_t seed_ = 1;
};

// One game for the referee loop: the state and each seat's random stream.
class StateTurns final : public TurnGame {
 public:
  StateTurns(AnyState& state, std::array<const StateSeat*, 2> seats,
             std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
             const GameJob& job, std::uint64_t seed)
      : s_(state),
        seats_(seats),
        specs_(specs),
        settings_(settings),
        job_(job),
        // One stream per pair and seat: a pair's two games differ only by who moves first.
        rng_{Rng(seed ^ (static_cast<std::uint64_t>(job.pair) * 2 + 1) * 0x9E3779B97F4A7C15ull),
             Rng(seed ^ (static_cast<std::uint64_t>(job.pair) * 2 + 2) * 0x9E3779B97F4A7C15ull)} {}

  std::string who(int side) const override { return specs_[side]->name; }
  Result<void> start(int, const ClockView&, const MoveLimits&) override { return {}; }
  std::optional<Verdict> over() override {
    if (s_.is_terminal()) {
      const auto r = s_.returns();
      if (r.size() != 2)
        return Verdict{-1, "abandoned", fmt::format("the game has {} players, not 2", r.size()),
                       ""};
      return Verdict{r[0] > r[1]   ? 1.0
                     : r[0] < r[1] ? 0.0
                                   : 0.5,
                     "normal", fmt::format("returns {} {}", r[0], r[1]), ""};
    }
    moves_ = s_.legal_moves();
    if (const int seat = s_.current_player(); seat < 0 || seat > 1 || moves_.empty())
      return Verdict{-1, "abandoned",
                     fmt::format("player {} to move with {} legal moves", seat, moves_.size()), ""};
    return std::nullopt;
  }
  int to_move() const override { return s_.current_player(); }
  TurnReply ask(int side, const ClockView&, const MoveLimits&, std::int64_t,
                const std::atomic<bool>&) override {
    TurnReply reply;
    const auto t0 = Wall::now();
    reply.move =
        seats_[side]->bot() == "first" ? moves_.front() : moves_[rng_[side].below(moves_.size())];
    reply.elapsed_ms = std::chrono::duration<double, std::milli>(Wall::now() - t0).count();
    return reply;
  }
  Result<void> play(int side, const TurnReply& reply) override {
    if (auto ok = s_.apply(reply.move); !ok)
      return fail("plays {}: {}", reply.move, ok.error().message);
    if (settings_.verbose)
      fmt::print(stderr, "game {} {} {}\n", job_.number, specs_[side]->name, reply.move);
    return {};
  }
  Verdict move_cap(int moves) override {
    return {0.5, "adjudication", fmt::format("{} moves played", moves), ""};
  }

 private:
  AnyState& s_;
  std::array<const StateSeat*, 2> seats_;
  std::array<const PlayerSpec*, 2> specs_;
  const GameSettings& settings_;
  const GameJob& job_;
  std::array<Rng, 2> rng_;
  std::vector<std::string> moves_;  // the legal moves of the position to move (over() makes them)
};

GameOutcome StateKind::play(const GameJob& job, std::array<Seat*, 2> seats,
                            std::array<const PlayerSpec*, 2> specs, const GameSettings& settings,
                            const std::atomic<bool>& stop) const {
  const auto t_game = Wall::now();
  GameOutcome out;
  RefereeBook book(out, specs, settings, {"1-0", "0-1", "1/2-1/2", "*"});
  const std::string start = book_.empty() ? std::string() : book_[job.opening];
  out.opening = book_.empty() ? "start" : start;
  auto made = factory_(start);  // load_openings checked every line
  if (!made) {
    book.end(-1, "abandoned", made.error().message);
    return out;
  }
  AnyState& s = **made;
  StateTurns game(
      s, {static_cast<const StateSeat*>(seats[0]), static_cast<const StateSeat*>(seats[1])}, specs,
      settings, job, seed_);
  out.plies = referee_turns(game, book, settings, stop);
  out.seconds = std::chrono::duration<double>(Wall::now() - t_game).count();
  out.record = s.to_string();
  return out;
}

}  // namespace

Result<std::unique_ptr<GameKind>> make_state_kind(std::string name, StateFactory factory) {
  if (!factory) return fail("{} has no position to play from (no state in its entry)", name);
  auto start = factory("");
  if (!start) return with_context(start.error(), name);
  if (const auto players = (*start)->returns().size(); players != 2)
    return fail("{} has {} players: kibitz match referees two", name, players);
  return std::unique_ptr<GameKind>(
      std::make_unique<StateKind>(std::move(name), std::move(factory)));
}

}  // namespace kibitz::match

#include "match/referee.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kibitz::match {

Result<std::unique_ptr<Subprocess>> spawn_player(const PlayerSpec& spec) {
  ProcessOptions po;
  po.workdir = spec.workdir;
  po.stderr_mode =
      spec.show_stderr ? ProcessOptions::Stderr::kInherit : ProcessOptions::Stderr::kDiscard;
  return Subprocess::spawn(spec.command, po);
}

namespace {

std::array<MoveLimits, 2> limits_of(std::array<const PlayerSpec*, 2> specs,
                                    const GameSettings& settings) {
  std::array<MoveLimits, 2> l;
  for (int s = 0; s < 2; ++s) l[s] = specs[s]->limits.empty() ? settings.limits : specs[s]->limits;
  return l;
}

}  // namespace

RefereeBook::RefereeBook(GameOutcome& out, std::array<const PlayerSpec*, 2> specs,
                         const GameSettings& settings, std::array<std::string_view, 4> results)
    : out_(out),
      limits_(limits_of(specs, settings)),
      clocks_(limits_, settings.grace_ms, settings.move_timeout_ms),
      results_(results) {
  for (int s = 0; s < 2; ++s)
    if (clocks_.has_clock(s)) out_.stats[s].min_clock_left_ms = clocks_.remaining_ms(s);
}

void RefereeBook::end(double first_score, std::string termination, std::string reason) {
  out_.first_score = first_score;
  out_.result = std::string(first_score > 0.75   ? results_[0]
                            : first_score < 0    ? results_[3]
                            : first_score < 0.25 ? results_[1]
                                                 : results_[2]);
  out_.termination = std::move(termination);
  out_.reason = std::move(reason);
}

void RefereeBook::end(const Verdict& v) {
  end(v.first_score, v.termination, v.reason);
  if (!v.result.empty()) out_.result = v.result;
}

void RefereeBook::forfeit(int seat, Fault fault, std::string termination, std::string reason) {
  out_.fault_seat = seat;
  out_.fault = fault;
  auto& st = out_.stats[seat];
  (fault == Fault::kTime      ? st.time_losses
   : fault == Fault::kIllegal ? st.illegal_moves
                              : st.crashes)++;
  end(seat == 0 ? 0.0 : 1.0, std::move(termination), std::move(reason));
}

bool RefereeBook::charge(int seat, double elapsed_ms, bool timed_out, std::string_view who) {
  auto& st = out_.stats[seat];
  const double before = clocks_.remaining_ms(seat);
  const std::int64_t budget = clocks_.budget_ms(seat);
  const bool in_time = !timed_out && clocks_.charge(seat, elapsed_ms);
  st.max_move_ms = std::max(st.max_move_ms, elapsed_ms);
  if (clocks_.has_clock(seat)) {
    const double left = before - elapsed_ms;
    if (st.min_clock_left_ms < 0 || left < st.min_clock_left_ms) st.min_clock_left_ms = left;
  }
  if (in_time) return true;
  forfeit(seat, Fault::kTime, "time forfeit",
          clocks_.has_clock(seat)
              ? fmt::format("{} loses on time ({:.0f} ms used, {:.0f} ms on the clock)", who,
                            elapsed_ms, before)
              : fmt::format("{} loses on time (no move within {} ms)", who, budget));
  return false;
}

int referee_turns(TurnGame& game, RefereeBook& book, const GameSettings& settings,
                  const std::atomic<bool>& stop) {
  GameOutcome& out = book.outcome();
  auto& clocks = book.clocks();
  for (int s = 0; s < 2 && !out.finished(); ++s)
    if (auto ok = game.start(s, clocks.view(s), book.limits(s)); !ok)
      book.forfeit(s, Fault::kCrash, "abandoned",
                   fmt::format("{} fails to start a game: {}", game.who(s), ok.error().message));
  int moves = 0;
  while (!out.finished()) {
    if (auto v = game.over()) {
      book.end(*v);
      break;
    }
    if (stop.load()) {
      book.end(-1, "unterminated", "match interrupted");
      break;
    }
    const int side = game.to_move();
    const TurnReply reply =
        game.ask(side, clocks.view(side), book.limits(side), clocks.budget_ms(side), stop);
    using Status = TurnReply::Status;
    if (reply.status == Status::kStopped) {
      book.end(-1, "unterminated", "match interrupted");
      break;
    }
    if (reply.status == Status::kCrash) {
      book.forfeit(side, Fault::kCrash, "abandoned",
                   fmt::format("{} {}", game.who(side), reply.error));
      break;
    }
    if (!book.charge(side, reply.elapsed_ms, reply.status == Status::kTimeout, game.who(side)))
      break;
    ++out.stats[side].moves;
    if (reply.status == Status::kRefused) {
      book.forfeit(side, Fault::kIllegal, "rules infraction",
                   fmt::format("{} {}", game.who(side), reply.error));
      break;
    }
    if (auto ok = game.play(side, reply); !ok) {
      book.forfeit(side, Fault::kIllegal, "rules infraction",
                   fmt::format("{} {}", game.who(side), ok.error().message));
      break;
    }
    ++moves;
    if (game.over()) continue;  // the rules decide at the top of the loop
    if (auto v = game.adjudicate(side, reply)) {
      book.end(*v);
      break;
    }
    if (const int cap = settings.adjudication.max_moves; cap > 0 && moves >= 2 * cap) {
      book.end(game.move_cap(cap));
      break;
    }
  }
  return moves;
}

}  // namespace kibitz::match

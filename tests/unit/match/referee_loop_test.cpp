// The one referee loop (match/referee.hpp: referee_turns) over a toy game whose every ending
// is known by counting: players add 1, 2 or 3 to a total; whoever brings it to 21 loses.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "match/referee.hpp"

namespace kibitz::match {
namespace {

// Each side says the words of its script in turn (the last one again when it runs out).
class CountTo21 final : public TurnGame {
 public:
  explicit CountTo21(std::array<std::vector<std::string>, 2> scripts)
      : scripts_(std::move(scripts)) {}
  std::string who(int side) const override { return side ? "second" : "first"; }
  Result<void> start(int side, const ClockView&, const MoveLimits&) override {
    ++started[side];
    return {};
  }
  std::optional<Verdict> over() override {
    if (total < 21) return std::nullopt;
    return Verdict{to_move() == 0 ? 1.0 : 0.0, "normal", "21 said", ""};
  }
  int to_move() const override { return turns % 2; }
  TurnReply ask(int side, const ClockView&, const MoveLimits&, std::int64_t,
                const std::atomic<bool>&) override {
    const auto& s = scripts_[side];
    const std::size_t i = std::min(said_[side]++, s.size() - 1);
    TurnReply r;
    if (s[i] == "crash") {
      r.status = TurnReply::Status::kCrash;
      r.error = "fell over";
    } else if (s[i] == "late") {
      r.elapsed_ms = 5000;
      r.move = "1";
    } else {
      r.move = s[i];
    }
    return r;
  }
  Result<void> play(int, const TurnReply& r) override {
    if (r.move != "1" && r.move != "2" && r.move != "3") return fail("says '{}'", r.move);
    total += r.move[0] - '0';
    ++turns;
    return {};
  }

  int total = 0, turns = 0;
  std::array<int, 2> started{0, 0};

 private:
  std::array<std::vector<std::string>, 2> scripts_;
  std::array<std::size_t, 2> said_{0, 0};
};

struct Refereed {
  GameOutcome out;
  int moves = 0;
};

Refereed referee(CountTo21& game, GameSettings settings = {}, bool stop = false) {
  Refereed run;
  PlayerSpec a, b;
  a.name = "first";
  b.name = "second";
  RefereeBook book(run.out, {&a, &b}, settings, {"1-0", "0-1", "1/2-1/2", "*"});
  const std::atomic<bool> stopped{stop};
  run.moves = referee_turns(game, book, settings, stopped);
  return run;
}

TEST(RefereeLoop, PlaysToTheRulesEnd) {
  // Both say 1: the 21st word is the first player's (turns 1, 3, ..., 21), who loses.
  CountTo21 game({{{"1"}, {"1"}}});
  const Refereed r = referee(game);
  EXPECT_EQ(game.started, (std::array<int, 2>{1, 1}));
  EXPECT_EQ(game.total, 21);
  EXPECT_EQ(r.moves, 21);
  EXPECT_EQ(r.out.first_score, 0.0);
  EXPECT_EQ(r.out.result, "0-1");
  EXPECT_EQ(r.out.termination, "normal");
  EXPECT_EQ(r.out.stats[0].moves, 11);
  EXPECT_EQ(r.out.stats[1].moves, 10);
}

TEST(RefereeLoop, WinningLineWins) {
  // The second player keeps the total at multiples of 4 (4, 8, 12, 16, 20): the first must
  // say 21.
  CountTo21 game({{{"3"}, {"1"}}});
  const Refereed r = referee(game);
  EXPECT_EQ(r.out.first_score, 0.0);
  CountTo21 second_says({{{"1"}, {"2"}}});  // 1 3 4 6 ... 19 21: the second's 7th word
  EXPECT_EQ(referee(second_says).out.first_score, 1.0);
  CountTo21 first_passes({{{"2"}, {"2"}}});  // 2 4 ... 20 22: the first's 6th word passes 21
  EXPECT_EQ(referee(first_passes).out.first_score, 0.0);
}

TEST(RefereeLoop, IllegalMoveForfeits) {
  CountTo21 game({{{"1", "4"}, {"1"}}});
  const Refereed r = referee(game);
  EXPECT_EQ(r.out.first_score, 0.0);
  EXPECT_EQ(r.out.fault, Fault::kIllegal);
  EXPECT_EQ(r.out.fault_seat, 0);
  EXPECT_EQ(r.out.termination, "rules infraction");
  EXPECT_EQ(r.out.reason, "first says '4'");
  EXPECT_EQ(r.out.stats[0].illegal_moves, 1);
  EXPECT_EQ(r.moves, 2);
}

TEST(RefereeLoop, CrashAbandons) {
  CountTo21 game({{{"1"}, {"1", "crash"}}});
  const Refereed r = referee(game);
  EXPECT_EQ(r.out.first_score, 1.0);
  EXPECT_EQ(r.out.fault, Fault::kCrash);
  EXPECT_EQ(r.out.reason, "second fell over");
  EXPECT_EQ(r.out.termination, "abandoned");
}

TEST(RefereeLoop, MoveCapDraws) {
  GameSettings s;
  s.adjudication.max_moves = 3;  // three words each
  CountTo21 game({{{"1"}, {"1"}}});
  const Refereed r = referee(game, s);
  EXPECT_EQ(game.total, 6);
  EXPECT_EQ(r.out.first_score, 0.5);
  EXPECT_EQ(r.out.termination, "adjudication");
  EXPECT_EQ(r.out.reason, "draw by adjudication: 3 moves played");
}

TEST(RefereeLoop, LateMoveLosesOnTime) {
  GameSettings s;
  s.move_timeout_ms = 1000;  // no clock: each move within a second
  CountTo21 game({{{"1"}, {"1", "late"}}});
  const Refereed r = referee(game, s);
  EXPECT_EQ(r.out.first_score, 1.0);
  EXPECT_EQ(r.out.fault, Fault::kTime);
  EXPECT_EQ(r.out.termination, "time forfeit");
  EXPECT_EQ(game.total, 3);  // 1 1 1, and the late word is not played
}

TEST(RefereeLoop, InterruptLeavesItUnfinished) {
  CountTo21 game({{{"1"}, {"1"}}});
  const Refereed r = referee(game, {}, true);
  EXPECT_FALSE(r.out.finished());
  EXPECT_EQ(r.out.termination, "unterminated");
  EXPECT_EQ(r.out.result, "*");
  EXPECT_EQ(game.total, 0);
}

}  // namespace
}  // namespace kibitz::match

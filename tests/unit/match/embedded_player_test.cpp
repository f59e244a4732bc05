// Embedded players in `kibitz match` (PlayerSpec::embedded, what kibitz.run_match makes of a
// Python callable): an engine the embedding program supplies, driven by the game's bot seat
// with the game's position text. Known answers: two passes in Go give White the komi; an
// illegal answer and a failing engine lose with their cause; every text a seat is given reads
// back through the registry's state factory.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/any_engine.hpp"
#include "games/registry.hpp"
#include "match/match.hpp"
#include "match/player_spec.hpp"

namespace kibitz::match {
namespace {

// Answers synchronously: a fixed move, or the first legal move of the position text as the
// registry reads it (an error when it does not read), or fails.
class ScriptedEngine final : public engine::AnyEngine {
 public:
  enum class Mode { kFixed, kFirstLegal, kFail };
  ScriptedEngine(std::string game, Mode mode, std::string move,
                 std::shared_ptr<std::vector<std::string>> seen)
      : game_(std::move(game)), mode_(mode), move_(std::move(move)), seen_(std::move(seen)) {}
  std::string_view game() const override { return game_; }
  const std::vector<engine::EngineOption>& options() const override { return options_; }
  Result<void> set_option(std::string_view name, std::string_view) override {
    return fail("no option '{}'", name);
  }
  void new_game() override {}
  Result<void> set_position(std::string_view text) override {
    text_ = text;
    return {};
  }
  Result<void> go(const engine::EngineLimits&, ReportFn, ReportFn done) override {
    {
      static std::mutex m;
      std::lock_guard lock(m);
      seen_->push_back(text_);
    }
    engine::EngineReport r;
    if (mode_ == Mode::kFail) return fail("scripted failure");
    if (mode_ == Mode::kFixed) {
      r.move = move_;
    } else {
      auto s = builtin_registry().find(game_)->new_state(text_);
      if (!s) return tl::unexpected(s.error());
      r.move = (*s)->legal_moves().front();
    }
    done(r);
    return {};
  }
  void stop() override {}
  void ponderhit() override {}
  void wait() override {}
  bool thinking() const override { return false; }

 private:
  std::string game_;
  Mode mode_;
  std::string move_;
  std::shared_ptr<std::vector<std::string>> seen_;
  std::vector<engine::EngineOption> options_;
  std::string text_;
};

struct Embedded {
  std::shared_ptr<std::vector<std::string>> seen = std::make_shared<std::vector<std::string>>();
  PlayerSpec spec(const std::string& name, const std::string& game, ScriptedEngine::Mode mode,
                  const std::string& move = "") const {
    PlayerSpec p;
    p.name = name;
    auto s = seen;
    p.embedded = [=] { return std::make_unique<ScriptedEngine>(game, mode, move, s); };
    return p;
  }
};

Result<MatchReport> play(const std::string& game, MatchConfig c) {
  auto kind = make_game_kind(game, c.settings);
  if (!kind) return tl::unexpected(kind.error());
  Match m(std::move(c), std::move(*kind));
  std::atomic<bool> stop{false};
  return m.run(stop);
}

TEST(MatchEmbedded, TwoPassesInGoGiveWhiteTheKomi) {
  Embedded e;
  MatchConfig c;
  c.players = {e.spec("a", "go", ScriptedEngine::Mode::kFixed, "pass"),
               e.spec("b", "go", ScriptedEngine::Mode::kFixed, "pass")};
  c.settings.board_size = 9;
  c.settings.komi = 6.5;
  c.settings.limits.nodes = 1;
  const auto r = play("go", c);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->games.size(), 2u);
  for (const auto& g : r->games) EXPECT_EQ(g.outcome.result, "W+6.5");
  EXPECT_EQ(r->pairings[0].tally.wins, 1);
  EXPECT_EQ(r->pairings[0].tally.losses, 1);
  EXPECT_EQ(r->players[0].description, "a (embedded)");
  // Each game: Black asked on the empty board, White after Black's pass.
  ASSERT_EQ(e.seen->size(), 4u);
  EXPECT_EQ((*e.seen)[0], "9 komi 6.5");
  EXPECT_EQ((*e.seen)[1], "9 komi 6.5 B:pass");
}

TEST(MatchEmbedded, PositionTextsReadBackInEveryBoardGame) {
  for (const std::string game : {"chess", "gomoku", "go"}) {
    Embedded e;
    MatchConfig c;
    c.players = {e.spec("first", game, ScriptedEngine::Mode::kFirstLegal), PlayerSpec{}};
    c.players[1].name = "random";
    c.players[1].bot = "random";
    c.settings.limits.nodes = 1;
    c.settings.adjudication.max_moves = 30;
    if (game == "go") c.settings.board_size = 9;
    const auto r = play(game, c);
    ASSERT_TRUE(r) << game << ": " << r.error().message;
    EXPECT_EQ(r->players[0].faults.crashes, 0) << game;
    EXPECT_EQ(r->players[0].faults.illegal_moves, 0) << game;
    EXPECT_GE(e.seen->size(), 8u) << game;  // gomoku: a1..e1 wins in five
  }
}

TEST(MatchEmbedded, IllegalAnswersAndFailuresLoseWithTheirCause) {
  Embedded e;
  MatchConfig c;
  c.players = {e.spec("bad", "chess", ScriptedEngine::Mode::kFixed, "e2e5"),
               e.spec("broken", "chess", ScriptedEngine::Mode::kFail)};
  c.settings.limits.movetime_ms = 5;
  const auto r = play("chess", c);
  ASSERT_TRUE(r) << r.error().message;
  // Game 1: bad is White and plays an illegal move; game 2: broken is White and fails.
  ASSERT_EQ(r->games.size(), 2u);
  for (const auto& g : r->games) {
    const bool bad_white = g.job.seats[0] == 0;
    EXPECT_EQ(g.outcome.first_score, 0.0);
    if (bad_white) {
      EXPECT_EQ(g.outcome.termination, "rules infraction");
      EXPECT_NE(g.outcome.reason.find("e2e5"), std::string::npos) << g.outcome.reason;
    } else {
      EXPECT_EQ(g.outcome.termination, "abandoned");
      EXPECT_NE(g.outcome.reason.find("scripted failure"), std::string::npos) << g.outcome.reason;
    }
  }
  EXPECT_EQ(r->players[0].faults.illegal_moves, 1);
  EXPECT_EQ(r->players[1].faults.crashes, 1);
}

TEST(MatchEmbedded, HeartsAndDiplomacyRefuseThem) {
  for (const std::string game : {"hearts", "diplomacy"}) {
    Embedded e;
    MatchConfig c;
    c.players = {e.spec("py", game, ScriptedEngine::Mode::kFixed, "x"), PlayerSpec{}};
    c.players[1].name = "random";
    c.players[1].bot = "random";
    const auto r = play(game, c);
    ASSERT_FALSE(r) << game;
    EXPECT_NE(r.error().message.find("embedded player"), std::string::npos) << r.error().message;
  }
}

}  // namespace
}  // namespace kibitz::match

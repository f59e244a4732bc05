// Every game in the registry passes the AnyState conformance checks, and a game joins the
// program by its registry entry alone: tic-tac-toe, given only a name and a state factory,
// is listed by `kibitz games`, played by `kibitz match` and checked here.
#include <gtest/gtest.h>
#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

#include "api/game_state.hpp"
#include "cli/commands.hpp"
#include "conformance/registry_conformance.hpp"
#include "core/text.hpp"
#include "match/player_spec.hpp"
#include "support/tictactoe.hpp"

namespace kibitz::testing {
namespace {

TEST(RegistryConformance, EveryBuiltinGame) {
  const Registry& registry = builtin_registry();
  EXPECT_EQ(registry.names(), "chess, gomoku, go, hearts, diplomacy");
  for (const auto& g : registry.games()) {
    EXPECT_FALSE(g.title.empty()) << g.name;
    EXPECT_FALSE(g.summary.empty()) << g.name;
    EXPECT_TRUE(g.arena) << g.name << " has no referee";
    if (!g.new_state) {
      // Only a game of simultaneous moves may go without a sequential AnyState.
      EXPECT_EQ(g.name, "diplomacy");
      continue;
    }
    check_entry_conformance(g, g.name == "go" ? 1 : 3);
  }
}

// Tic-tac-toe behind AnyState: cells "0".."8", the position text the cells played in order.
class TicTacToeState final : public GameState<TicTacToeState, TicTacToe> {
 public:
  using GameState::GameState;
  std::string move_text(TicTacToe::Move m) const { return std::to_string(m); }
  Result<TicTacToe::Move> parse(std::string_view text) const {
    if (text.size() != 1 || text[0] < '0' || text[0] > '8')
      return fail("'{}' is not a cell (0 to 8)", text);
    const auto m = static_cast<TicTacToe::Move>(text[0] - '0');
    MoveList<TicTacToe> moves;
    pos_.legal_moves(moves);
    for (auto x : moves)
      if (x == m) return m;
    return fail("cell {} is not free", text);
  }
  void play(TicTacToe::Move m) {
    pos_.apply(m);
    played_ += (played_.empty() ? "" : " ") + move_text(m);
  }
  int num_actions() const { return 9; }
  int action_of(TicTacToe::Move m) const { return m; }
  std::string action_text(int a) const { return std::to_string(a); }
  std::string to_string() const override { return played_; }

 private:
  std::string played_;
};

GameEntry tictactoe_entry() {
  GameEntry e;
  e.name = "tictactoe";
  e.title = "Tic-tac-toe";
  e.summary = "tic-tac-toe (position: the cells played, 0 to 8)";
  e.new_state = [](std::string_view text) -> Result<std::unique_ptr<AnyState>> {
    auto s = std::make_unique<TicTacToeState>(TicTacToe{});
    for (auto w : split_blanks(text))
      if (auto ok = s->apply(w); !ok) return tl::unexpected(ok.error());
    return std::unique_ptr<AnyState>(std::move(s));
  };
  return e;
}

// Runs `kibitz ARGS...` with the subcommands of this registry; stdout is captured.
int run_program(const Registry& registry, std::vector<std::string> args, std::string& out) {
  CLI::App app{"test"};
  std::vector<Command> runners = {{"games", cli::add_games(app, registry)},
                                  {"match", cli::add_match(app, registry)}};
  std::reverse(args.begin(), args.end());
  app.parse(args);
  ::testing::internal::CaptureStdout();
  int status = -1;
  for (const auto& [name, run] : runners)
    if (app.got_subcommand(name)) status = run();
  out = ::testing::internal::GetCapturedStdout();
  return status;
}

TEST(RegistryToyGame, JoinsByItsEntryAlone) {
  Registry registry;
  register_builtin_games(registry);
  registry.add(tictactoe_entry());

  std::string out;
  ASSERT_EQ(run_program(registry, {"games"}, out), 0);
  EXPECT_NE(out.find("tictactoe"), std::string::npos) << out;
  EXPECT_NE(out.find("diplomacy"), std::string::npos) << out;

  // The generic referee: the first legal cell against random cells, 20 games in 10 pairs.
  ASSERT_EQ(run_program(registry,
                        {"match", "--game", "tictactoe", "--engine", "bot=first name=first",
                         "--engine", "bot=random name=random", "--games", "20", "--seed", "5"},
                        out),
            0);
  EXPECT_NE(out.find("first"), std::string::npos) << out;
  EXPECT_NE(out.find("20 games"), std::string::npos) << out;

  // An external engine or an unknown bot is refused in one line; other games' settings too.
  auto kind = registry.game_kind("tictactoe", {});
  ASSERT_TRUE(kind) << kind.error().message;
  EXPECT_FALSE((*kind)->check(*match::parse_player_spec("cmd=/bin/true")));
  EXPECT_FALSE((*kind)->check(*match::parse_player_spec("bot=alphabeta")));
  match::GameSettings komi;
  komi.komi = 6.5;
  auto refused = registry.game_kind("tictactoe", komi);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, "tictactoe has no --komi (only Go has)");

  check_entry_conformance(*registry.find("tictactoe"), 50);
}

TEST(RegistryToyGame, RefereeScoresAKnownGame) {
  Registry registry;
  registry.add(tictactoe_entry());
  auto kind = registry.game_kind("tictactoe", {});
  ASSERT_TRUE(kind);
  // "first" against "first" fills the cells in order: X takes 0 2 4 6, and 2-4-6 is a line
  // on the seventh cell.
  const auto a = *match::parse_player_spec("bot=first name=a");
  const auto b = *match::parse_player_spec("bot=first name=b");
  match::GameSettings settings;
  auto sa = (*kind)->open(a, settings);
  auto sb = (*kind)->open(b, settings);
  ASSERT_TRUE(sa && sb);
  ASSERT_TRUE((*kind)->load_openings({}));
  std::atomic<bool> stop{false};
  const auto outcome =
      (*kind)->play(match::GameJob{.number = 1}, {sa->get(), sb->get()}, {&a, &b}, settings, stop);
  EXPECT_EQ(outcome.result, "1-0");
  EXPECT_EQ(outcome.first_score, 1.0);
  EXPECT_EQ(outcome.plies, 7);
  EXPECT_EQ(outcome.record, "0 1 2 3 4 5 6");
}

}  // namespace
}  // namespace kibitz::testing

// `kibitz selfplay --game G` (the real binary): every line is a position the game's state
// reads, one engine move after the line before (a game's positions in order), with the
// returns of the game's end; two-player games are zero-sum.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/text.hpp"
#include "games/registry.hpp"

namespace kibitz {
namespace {

TEST(Selfplay, EveryLineIsAPositionOfTheGameWithItsReturns) {
  for (const auto& [game, args] : std::vector<std::pair<std::string, std::string>>{
           {"gomoku", "--movetime 10 --random-plies 2 --games 2"},
           {"go", "--start 5 --nodes 40 --games 2"},
           {"hearts", "--nodes 4 --games 1"}}) {
    SCOPED_TRACE(game);
    const std::string out = ::testing::TempDir() + "/selfplay_" + game + ".txt";
    const std::string command = std::string(KIBITZ_BINARY) + " selfplay --game " + game + " " +
                                args + " --out " + out + " > /dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    const GameEntry* g = builtin_registry().find(game);
    ASSERT_NE(g, nullptr);
    std::ifstream in(out);
    std::string line, previous;
    int lines = 0, games = 0;
    while (std::getline(in, line)) {
      const auto bar = line.find(" | ");
      ASSERT_NE(bar, std::string::npos) << line;
      const std::string text = line.substr(0, bar);
      auto s = g->new_state(text);
      ASSERT_TRUE(s) << text << ": " << s.error().message;
      EXPECT_FALSE((*s)->is_terminal());
      EXPECT_EQ((*s)->to_string(), text);
      const std::string returns_text = line.substr(bar + 3);
      const auto returns = split_blanks(returns_text);
      EXPECT_EQ(returns.size(), static_cast<std::size_t>(g->num_players));
      if (g->num_players == 2) {
        EXPECT_EQ(std::stod(std::string(returns[0])), -std::stod(std::string(returns[1])));
      }
      // The next position of the same game is this one and one move more.
      bool follows = false;
      if (!previous.empty()) {
        auto p = g->new_state(previous);
        for (const auto& m : (*p)->legal_moves()) {
          auto next = (*p)->clone();
          if (next->apply(m) && next->to_string() == text) follows = true;
        }
      }
      games += !follows;
      previous = text;
      ++lines;
    }
    EXPECT_GT(lines, 10);
    EXPECT_EQ(games, game == "hearts" ? 1 : 2);
  }
}

}  // namespace
}  // namespace kibitz

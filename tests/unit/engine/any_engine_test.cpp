// The one engine contract, for every game in the registry that has an engine: it answers a
// legal move (checked by the game's own AnyState) under a movetime, a depth / node limit and
// a clock; stop() ends an infinite search; options are checked against their declarations;
// bad positions and a finished game are refused in one line; and known positions get the
// known answer (a mate in one, a gomoku five, a Go capture of a chain in atari).
#include "engine/any_engine.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>
#include <tuple>

#include "engine/diplomacy_engine.hpp"
#include "games/diplomacy/map.hpp"
#include "games/diplomacy/orders.hpp"
#include "games/registry.hpp"
#include "match/player_spec.hpp"

namespace kibitz::engine {
namespace {

bool legal_in(const GameEntry& g, const std::string& text, const std::string& move) {
  if (!g.new_state) {
    // Diplomacy (no AnyState): every order of the answer is one the power may give.
    const auto& map = diplomacy::standard_map();
    auto p = DiplomacyAdapter::parse(text);
    if (!p) return false;
    auto orders = parse_orders_text(move, p->state.phase.type);
    if (!orders || orders->empty()) return false;
    return std::all_of(orders->begin(), orders->end(), [&](const diplomacy::Order& o) {
      return static_cast<bool>(diplomacy::check_order(map, p->state, p->power, o));
    });
  }
  auto s = g.new_state(text);
  if (!s) return false;
  const auto moves = (*s)->legal_moves();
  return std::find(moves.begin(), moves.end(), move) != moves.end() ||
         static_cast<bool>((*s)->clone()->apply(move));
}

TEST(AnyEngine, EveryEngineAnswersLegallyUnderEachLimit) {
  int engines = 0;
  for (const auto& g : builtin_registry().games()) {
    if (!g.engine) continue;
    SCOPED_TRACE(g.name);
    ++engines;
    auto e = g.engine();
    EXPECT_EQ(e->game(), g.name);
    ASSERT_TRUE(e->set_position(""));
    for (const EngineLimits& l :
         {EngineLimits{.movetime_ms = 100}, EngineLimits{.nodes = 2000},
          EngineLimits{.clock_ms = 3000, .increment_ms = 0, .moves_to_go = 0}}) {
      int infos = 0;
      auto r = e->think(l, [&](const EngineReport&) { ++infos; });
      ASSERT_TRUE(r) << r.error().message;
      EXPECT_TRUE(legal_in(g, "", r->move)) << r->move;
      EXPECT_FALSE(e->thinking());
    }
    // Infinite until stop().
    std::atomic<bool> done{false};
    ASSERT_TRUE(e->go({.infinite = true}, {}, [&](const EngineReport&) { done = true; }));
    EXPECT_TRUE(e->thinking());
    EXPECT_FALSE(e->go({.movetime_ms = 10}, {}, {}));  // one search at a time
    EXPECT_FALSE(e->set_position(""));                 // nor a new position meanwhile
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const auto t0 = std::chrono::steady_clock::now();
    e->stop();
    e->wait();
    EXPECT_TRUE(done.load());
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));

    // The answer's callback runs on the engine's thread: it cannot start the next search
    // there (it would wait for itself), and says so.
    bool refused = false;
    ASSERT_TRUE(e->go({.movetime_ms = 20}, {}, [&](const EngineReport&) {
      refused = !e->go({.movetime_ms = 20}, {}, {});
      e->wait();  // returns at once there
    }));
    e->wait();
    EXPECT_TRUE(refused);

    // Options: declared, checked, refused in one line.
    ASSERT_FALSE(e->options().empty());
    const EngineOption& o = e->options().front();
    EXPECT_TRUE(e->set_option(o.name, o.type == EngineOption::Type::kBool ? "false" : "2"));
    for (const char* bad : {"", "x", "99999999999"}) {
      auto r = e->set_option(o.name, bad);
      ASSERT_FALSE(r) << bad;
      EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
    }
    EXPECT_FALSE(e->set_option("NoSuchOption", "1"));
    EXPECT_FALSE(e->set_position("certainly not a position of any game"));
  }
  EXPECT_EQ(engines, 5);  // chess, gomoku, Go, Hearts, Diplomacy
}

TEST(AnyEngine, KnownAnswers) {
  const Registry& r = builtin_registry();
  // Chess: Qxf7 mates (scholar's mate).
  auto chess = r.find("chess")->engine();
  ASSERT_TRUE(
      chess->set_position("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"));
  auto a = chess->think({.depth = 4});
  ASSERT_TRUE(a);
  EXPECT_EQ(a->move, "h5f7");
  EXPECT_TRUE(a->decided);
  // A game's moves after its start (the history: repetitions count); a bad one is named.
  ASSERT_TRUE(chess->set_position("startpos moves e2e4 e7e5 Nf3"));
  auto bad = chess->set_position("startpos moves e2e4 e2e4");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("move 2"), std::string::npos) << bad.error().message;
  ASSERT_TRUE(chess->set_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"));  // stalemate
  EXPECT_FALSE(chess->think({.depth = 2}));

  // Gomoku: black has four in a row (h8-k8, g8 blocked) and completes the five at l8.
  auto gomoku = r.find("gomoku")->engine();
  ASSERT_TRUE(gomoku->set_position("h8 a1 i8 a2 j8 g8 k8 a3"));
  auto b = gomoku->think({.movetime_ms = 200});
  ASSERT_TRUE(b);
  EXPECT_EQ(b->move, "l8");

  // Hearts: North passes three distinct cards of its own, one a move, the pass chosen once;
  // with no passing, North must lead the two of clubs.
  const GameEntry& hg = *r.find("hearts");
  auto hearts = hg.engine();
  auto state = hg.new_state("left seed 5");
  ASSERT_TRUE(state);
  std::vector<std::string> picks;
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(hearts->set_position((*state)->to_string()));
    auto pick = hearts->think({.movetime_ms = 100});
    ASSERT_TRUE(pick);
    EXPECT_EQ((*state)->current_player(), 0);
    ASSERT_TRUE((*state)->apply(pick->move)) << pick->move;
    picks.push_back(pick->move);
  }
  std::sort(picks.begin(), picks.end());
  EXPECT_EQ(std::unique(picks.begin(), picks.end()), picks.end());
  EXPECT_EQ((*state)->current_player(), 1);  // East picks next
  auto lead = hg.new_state("none seed 5");
  ASSERT_TRUE(lead);
  ASSERT_TRUE(hearts->set_position((*lead)->to_string()));
  const int leader = (*lead)->current_player();
  auto card = hearts->think({.movetime_ms = 100});
  ASSERT_TRUE(card);
  EXPECT_EQ(card->move, "2C") << "seat " << leader;

  // Go 9x9: the white stone at E5 is in atari (black C..: D5 F5 E4 around it); E6 captures.
  auto go = r.find("go")->engine();
  ASSERT_TRUE(go->set_position("9 D5 E5 F5 A1 E4 A2"));
  auto c = go->think({.nodes = 3000});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->move, "E6");
}

// The chess and gomoku bots of `kibitz match` play through the contract: their options are
// the engine's declarations, checked the same way.
TEST(AnyEngine, MatchBotsTakeTheEnginesOptions) {
  for (const auto& [game, bot, good, bad] :
       {std::tuple{"chess", "kibitz", "option.null_move=false option.Hash=8", "option.Hash=abc"},
        std::tuple{"chess", "plain", "option.Threads=1", "option.nonsense=true"},
        std::tuple{"gomoku", "pipeline", "option.vct=false option.Hash=8", "option.Hash=0"},
        std::tuple{"gomoku", "alphabeta", "option.lmr=false", "option.vct=maybe"}}) {
    SCOPED_TRACE(std::string(game) + " " + bot);
    auto kind = builtin_registry().game_kind(game, {});
    ASSERT_TRUE(kind);
    auto ok = match::parse_player_spec(fmt::format("bot={} {}", bot, good));
    ASSERT_TRUE(ok);
    EXPECT_TRUE((*kind)->check(*ok));
    auto no = match::parse_player_spec(fmt::format("bot={} {}", bot, bad));
    ASSERT_TRUE(no);
    auto refused = (*kind)->check(*no);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().message.find('\n'), std::string::npos);
  }
}

// Options read alike from a YAML file, command-line words and match specs.
TEST(AnyEngine, OptionsFromAFileTheCommandLineAndSpecs) {
  const std::string dir = ::testing::TempDir();
  const auto write = [&](const std::string& name, const std::string& text) {
    const std::string path = dir + "/" + name;
    std::FILE* f = std::fopen(path.c_str(), "w");
    std::fputs(text.c_str(), f);
    std::fclose(f);
    return path;
  };
  const std::string good =
      write("kibitz_options.yaml", "options:\n  Hash: 8\n  null_move: false\n");
  auto settings = read_option_file(good);
  ASSERT_TRUE(settings) << settings.error().message;
  EXPECT_EQ(*settings, (OptionSettings{{"Hash", "8"}, {"null_move", "false"}}));
  auto chess = builtin_registry().find("chess")->engine();
  ASSERT_TRUE(chess->set_options(*settings));
  for (const auto& o : chess->options()) {
    if (o.name == "Hash") {
      EXPECT_EQ(o.value, 8);
    } else if (o.name == "null_move") {
      EXPECT_EQ(o.value, 0);
    }
  }
  // A value out of range, an unknown option: one line naming it.
  auto out_of_range = chess->set_options({{"Hash", "0"}});
  ASSERT_FALSE(out_of_range);
  EXPECT_EQ(out_of_range.error().message, "option Hash: 0 is out of range (1 to 65536)");
  EXPECT_FALSE(chess->set_options({{"nonsense", "1"}}));
  // A file with anything but an options: map, a missing file, a word without '='.
  EXPECT_FALSE(read_option_file(write("kibitz_bad_options.yaml", "Hash: 8\n")));
  EXPECT_FALSE(read_option_file(dir + "/no such file.yaml"));
  EXPECT_EQ(parse_option_word("Hash=8"), (std::pair<std::string, std::string>("Hash", "8")));
  EXPECT_EQ(parse_option_word("Move Overhead=50")->first, "Move Overhead");
  EXPECT_FALSE(parse_option_word("Hash"));
  EXPECT_FALSE(parse_option_word("=8"));
  // A real number: Hearts' opponent model, Diplomacy's strength.
  auto hearts = builtin_registry().find("hearts")->engine();
  EXPECT_TRUE(hearts->set_option("model_epsilon", "0.3"));
  for (const auto& o : hearts->options()) {
    if (o.name == "model_epsilon") {
      EXPECT_DOUBLE_EQ(o.real, 0.3);
    }
  }
  EXPECT_EQ(hearts->set_option("model_epsilon", "2").error().message,
            "option model_epsilon: 2 is out of range (1e-09 to 1)");
  EXPECT_EQ(hearts->set_option("model_epsilon", "x").error().message,
            "option model_epsilon: 'x' is not a number");
  auto diplomacy = builtin_registry().find("diplomacy")->engine();
  EXPECT_TRUE(diplomacy->set_options({{"strength", "0.5"}, {"iterations", "20"}}));
  EXPECT_FALSE(diplomacy->set_option("strength", "0"));
  EXPECT_FALSE(diplomacy->set_option("strength", "nan"));
  // In a match spec, the file's options come where the word is; later words override.
  auto spec = match::parse_player_spec(
      fmt::format("bot=kibitz option.Threads=1 option-file={} option.Hash=16", good));
  ASSERT_TRUE(spec) << spec.error().message;
  EXPECT_EQ(
      spec->options,
      (OptionSettings{{"Threads", "1"}, {"Hash", "8"}, {"null_move", "false"}, {"Hash", "16"}}));
  EXPECT_TRUE((*builtin_registry().game_kind("chess", {}))->check(*spec));
  EXPECT_FALSE(match::parse_player_spec("bot=kibitz option-file=/no/such/file.yaml"));
}

}  // namespace
}  // namespace kibitz::engine
